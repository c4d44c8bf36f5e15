"""The only module that reads and writes rows: it turns them into engine objects and back.

Rows hold seats (ints) and rules as the pulka file writes them; a pulka comes
out as a `domain.Pulka`, replayed, and is kept by (uid, version). A write
bumps the version first, which locks the pulka's row for the transaction.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..engine import Contract, Deal, DealType, Replay, Rules, replay
from .cache import VersionCache
from .db import Database
from .domain import NotFound, Pulka, Settings
from .models import DealRow, PlayerRow, PulkaRow, SeatRow, now


@dataclass(frozen=True)
class Summary:
    uid: str
    name: str
    players: tuple[str, ...]
    deals: int
    updated_at: datetime


_VERSION = select(PulkaRow.version).where(PulkaRow.uid == bindparam("uid"))


def new_uid() -> str:
    """128 random bits, URL-safe: a pulka's address cannot be guessed, and no two pulkas ever share one."""
    return secrets.token_urlsafe(16)


class Repository:
    """One per app: the database, and this process's pulkas by version."""

    def __init__(self, db: Database, cache_size: int = 256):
        self.db = db
        self.cache: VersionCache[Pulka] = VersionCache(cache_size)

    # -- reading ------------------------------------------------------------------------

    def get(self, uid: str) -> Pulka:
        # A plain connection for the version: the ORM session costs more than the page it guards.
        with self.db.engine.connect() as connection:
            version = connection.execute(_VERSION, {"uid": uid}).scalar()
        if version is None:
            raise NotFound()
        pulka = self.cache.get((uid, version))
        if pulka is None:
            with self.db.Session() as session:
                row = session.scalars(select(PulkaRow).where(PulkaRow.uid == uid)).one_or_none()
                if row is None:
                    raise NotFound()
                pulka = _pulka(row, _deals(session, row.id))
            self.cache.put((uid, pulka.version), pulka)
        return pulka

    def summaries(self) -> list[Summary]:
        with self.db.Session() as session:
            counts = dict(session.execute(select(DealRow.pulka_id, func.count()).group_by(DealRow.pulka_id)).all())
            rows = session.scalars(select(PulkaRow).order_by(PulkaRow.updated_at.desc(), PulkaRow.id.desc()))
            return [Summary(r.uid, r.name, _players(r), counts.get(r.id, 0), r.updated_at) for r in rows]

    def player_names(self) -> list[str]:
        with self.db.Session() as session:
            return list(session.scalars(select(PlayerRow.name).order_by(PlayerRow.name)))

    # -- writing ------------------------------------------------------------------------

    def create(self, settings: Settings, deals: Sequence[Deal], replayed: Replay) -> Pulka:
        """A new pulka with its deals (an import brings some), already replayed by the caller."""
        for attempt in (1, 2):
            try:
                with self.db.Session.begin() as session:
                    row = PulkaRow(uid=new_uid(), name=settings.name, rules=settings.rules.overrides(),
                                   currency=settings.currency, first_dealer=settings.first_dealer, version=1)
                    row.seats = _seats(session, settings.players)
                    session.add(row)
                    session.flush()
                    session.add_all(DealRow(pulka_id=row.id, position=number, **deal_values(deal))
                                    for number, deal in enumerate(deals, 1))
                    session.flush()
                    pulka = _pulka(row, tuple(deals), replayed)
                break
            except IntegrityError:
                # Another table added one of these new players at the same moment: the second
                # attempt finds him and reuses him.
                if attempt == 2:
                    raise
        return self.cache.put((pulka.uid, pulka.version), pulka)

    @contextmanager
    def writing(self, uid: str) -> Iterator[Change]:
        """One transaction on one pulka: committed when the block ends, rolled back if it raises."""
        with self.db.Session.begin() as session:
            # Bumping the version first locks the pulka (a row lock in PostgreSQL, the write lock in
            # SQLite), so concurrent writes to one pulka queue up instead of interleaving.
            found = session.execute(
                update(PulkaRow).where(PulkaRow.uid == uid)
                .values(version=PulkaRow.version + 1, updated_at=now())
                .returning(PulkaRow.id, PulkaRow.version)).first()
            if found is None:
                raise NotFound()
            pulka_id, version = found
            before = self.cache.get((uid, version - 1))
            if before is None:
                row = session.get(PulkaRow, pulka_id)
                before = dataclasses.replace(_pulka(row, _deals(session, pulka_id)), version=version - 1)
            change = Change(session, pulka_id, before)
            yield change
        if change.after is not None:
            self.cache.put((uid, change.after.version), change.after)

    def delete(self, uid: str) -> None:
        with self.db.Session.begin() as session:
            row = session.scalars(select(PulkaRow).where(PulkaRow.uid == uid)).one_or_none()
            if row is None:
                raise NotFound()
            session.delete(row)


class Change:
    """The rows of one write: what the use case decided, said in deals and settings."""

    def __init__(self, session: Session, pulka_id: int, before: Pulka):
        self.session = session
        self.pulka_id = pulka_id
        self.before = before
        self.after: Pulka | None = None

    def append(self, deal: Deal) -> None:
        self.session.add(DealRow(pulka_id=self.pulka_id, position=len(self.before.deals) + 1, **deal_values(deal)))

    def replace(self, number: int, deal: Deal) -> None:
        self._execute(update(DealRow).where(self._at(number)).values(**deal_values(deal)))

    def remove(self, number: int) -> None:
        mine = DealRow.pulka_id == self.pulka_id
        self._execute(delete(DealRow).where(self._at(number)))
        # Two steps, because (pulka_id, position) is unique at every row update in PostgreSQL.
        self._execute(update(DealRow).where(mine & (DealRow.position > number)).values(position=-DealRow.position))
        self._execute(update(DealRow).where(mine & (DealRow.position < 0)).values(position=-DealRow.position - 1))

    def set_settings(self, settings: Settings) -> None:
        row = self.session.get(PulkaRow, self.pulka_id)
        row.name, row.currency = settings.name, settings.currency
        if settings.seating != self.before.settings.seating:
            row.rules, row.first_dealer = settings.rules.overrides(), settings.first_dealer
            if settings.players != self.before.players:
                for seat in list(row.seats):
                    self.session.delete(seat)
                self.session.flush()
                row.seats = _seats(self.session, settings.players)

    def done(self, deals: Sequence[Deal], replayed: Replay, settings: Settings | None = None) -> Pulka:
        """The pulka this write makes, kept by its new version once the transaction commits."""
        self.session.flush()
        s = settings or self.before.settings
        self.after = dataclasses.replace(
            self.before, version=self.before.version + 1, name=s.name, currency=s.currency, players=s.players,
            first_dealer=s.first_dealer, rules=s.rules, deals=tuple(deals), replay=replayed, updated_at=now())
        return self.after

    def _at(self, number: int):
        return (DealRow.pulka_id == self.pulka_id) & (DealRow.position == number)

    def _execute(self, statement) -> None:
        # No deal row is loaded in this session, so there is nothing to keep in step with the statement.
        self.session.execute(statement, execution_options={"synchronize_session": False})


# -- rows <-> engine objects ---------------------------------------------------------------------


def _players(row: PulkaRow) -> tuple[str, ...]:
    return tuple(seat.player.name for seat in row.seats)


def _seats(session: Session, names: Sequence[str]) -> list[SeatRow]:
    known = {p.name: p for p in session.scalars(select(PlayerRow).where(PlayerRow.name.in_(names)))}
    return [SeatRow(seat=seat, player=known.get(name) or PlayerRow(name=name)) for seat, name in enumerate(names)]


def _deals(session: Session, pulka_id: int) -> tuple[Deal, ...]:
    rows = session.scalars(select(DealRow).where(DealRow.pulka_id == pulka_id).order_by(DealRow.position))
    return tuple(deal_of(row) for row in rows)


def _pulka(row: PulkaRow, deals: tuple[Deal, ...], replayed: Replay | None = None) -> Pulka:
    players = _players(row)
    rules = Rules.from_dict(row.rules)
    if replayed is None:
        # Stored deals replayed once already when they were written.
        replayed = replay(rules, len(players), deals, row.first_dealer)
    return Pulka(row.uid, row.version, row.name, row.currency, players, row.first_dealer, rules, deals, replayed,
                 row.created_at, row.updated_at)


def _by_seat(mapping: Mapping[str, Any] | None) -> dict[int, Any] | None:
    return None if mapping is None else {int(seat): value for seat, value in mapping.items()}


def deal_of(row: DealRow) -> Deal:
    return Deal(DealType(row.type), row.declarer, Contract.parse(row.contract), _by_seat(row.whist),
                _by_seat(row.tricks), row.open)


def deal_values(deal: Deal) -> dict[str, Any]:
    """A deal row's columns (without pulka_id and position)."""
    return {
        "type": deal.type.value,
        "declarer": deal.declarer,
        "contract": str(deal.contract) if deal.contract else None,
        "whist": None if deal.whist is None else {str(s): str(w) for s, w in deal.whist.items()},
        "tricks": None if deal.tricks is None else {str(s): t for s, t in deal.tricks.items()},
        "open": deal.open,
    }


def current() -> Repository:
    """The app's repository, for the request being served."""
    from flask import current_app

    return current_app.extensions["scorekeeper"]
