"""Pulkas in the database: rows in, a replayed `Pulka` out, kept by (uid, version).

A write bumps the version first, which locks the pulka's row for the transaction.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.orm import aliased

from ...engine import Deal, Replay
from ..domain.pulkas import Pulka, Settings, Stamp, PulkaStanding, Successor, Summary
from ..domain.refusals import NotFound, VersionConflict
from ..domain.results import Result
from ..domain.shares import Access, Role, access_of
from .cache import Section, VersionCache
from .changes import Change, bump, recorded, seats
from .db import Database
from .models import AccessRow, AccountRow, DealRow, PlayerRow, PulkaRow, ShareRow, now
from .circles import circle_changed, circle_names, readers
from .deals import deal_values, deals_of
from .rows import aware, local_date, opening_json, players, pulka_of
from .transaction import Writer
from .watch import Watch, access_changed, gone, stamped

_VERSION = select(PulkaRow.version).where(PulkaRow.uid == bindparam("uid"))
_STAMP = select(PulkaRow.version, select(func.count()).where(DealRow.pulka_id == PulkaRow.id).scalar_subquery(),
                PulkaRow.last_change).where(PulkaRow.uid == bindparam("uid"))

# The last pulka of the table that plays the pulka `uid`: the one it plays now (as a share link opens it).
_Asked = aliased(PulkaRow)
_PLAYED_NOW = (select(PulkaRow.uid, PulkaRow.name)
               .where(PulkaRow.table_uid == select(_Asked.table_uid).where(_Asked.uid == bindparam("uid"))
                      .scalar_subquery())
               .order_by(PulkaRow.id.desc()).limit(1))


def new_uid() -> str:
    """128 random bits, URL-safe: a pulka's address cannot be guessed, and no two pulkas ever share one."""
    return secrets.token_urlsafe(16)


class PulkaStore(Writer):
    """The pulkas of one database, and this process's pulkas by version (services.pulkas.PulkaRepository)."""

    def __init__(self, db: Database, watch: Watch, cache: Section[Pulka] | None = None):
        self.db = db
        self.watch = watch
        # The app gives its share of one budget in bytes; alone (tests, commands): the 256 latest pulkas.
        self.cache: Section[Pulka] = cache or VersionCache[Any](256).section("pulkas")

    # -- reading ------------------------------------------------------------------------

    def get(self, uid: str) -> Pulka:
        # A plain connection for the version: the ORM session costs more than the page it guards.
        with self.db.reads.connect() as connection:
            version = connection.execute(_VERSION, {"uid": uid}).scalar()
        if version is None:
            raise NotFound()
        pulka = self.cache.get((uid, version))
        if pulka is None:
            with self.db.Session() as session:
                row = session.scalars(select(PulkaRow).where(PulkaRow.uid == uid)).one_or_none()
                if row is None:
                    raise NotFound()
                pulka = pulka_of(row, deals_of(session, row.id))
            self.cache.put((uid, pulka.version), pulka)
        self.watch.learn(uid, pulka.stamp)
        return pulka

    def known(self, uid: str) -> Pulka:
        """The pulka as this process last heard of it, if it may trust that and keeps that version (no query);
        else as `get`."""
        stamp = self.watch.stamp(uid)
        pulka = self.cache.get((uid, stamp.version)) if stamp is not None else None
        return pulka if pulka is not None else self.get(uid)

    def stamp(self, uid: str, seen: int = 0) -> Stamp:
        """The pulka's version, deals and last change: what this process knows, if it may trust it and it is
        not older than the version `seen` by the caller; else the database's."""
        known = self.watch.stamp(uid, seen)
        if known is not None:
            return known
        with self.db.reads.connect() as connection:
            row = connection.execute(_STAMP, {"uid": uid}).first()
        if row is None:
            raise NotFound()
        found = Stamp(*row)
        self.watch.learn(uid, found)
        return found

    def successor(self, uid: str) -> Successor | None:
        """The table's last pulka, when it is a later one than `uid`: one indexed query."""
        with self.db.reads.connect() as connection:
            row = connection.execute(_PLAYED_NOW, {"uid": uid}).first()
        return None if row is None or row.uid == uid else Successor(row.uid, row.name)

    def summaries(self, account_id: int) -> list[Summary]:
        """The account's pulkas and those shared with it (the best role it holds), the latest evening first."""
        with self.db.Session() as session:
            shared: dict[str, list[str]] = {}  # by table: a link opens every pulka of its table
            for table, role in session.execute(
                    select(PulkaRow.table_uid, ShareRow.role).join(PulkaRow, PulkaRow.id == ShareRow.pulka_id)
                    .join(AccessRow, AccessRow.share_id == ShareRow.id).where(AccessRow.account_id == account_id)):
                shared.setdefault(table, []).append(role)
            rows = list(session.scalars(
                select(PulkaRow).where(or_(PulkaRow.owner_id == account_id, PulkaRow.table_uid.in_(shared)))
                .order_by(PulkaRow.updated_at.desc(), PulkaRow.id.desc())))
            standings = {r.id: PulkaStanding.read(r.standing) for r in rows}
            # Counted only for pulkas kept before standings were: a thousand long pulkas' deals are not read.
            uncounted = [pulka_id for pulka_id, standing in standings.items() if standing is None]
            counts: dict[int, int] = {pulka_id: count for pulka_id, count in session.execute(
                select(DealRow.pulka_id, func.count()).where(DealRow.pulka_id.in_(uncounted))
                .group_by(DealRow.pulka_id))} if uncounted else {}
            listed = [Summary(r.uid, r.name, players(r), _deals(standings[r.id]) or counts.get(r.id, 0),
                              aware(r.updated_at), Role.OWNER if r.owner_id == account_id else _best(shared[r.table_uid]),
                              standings[r.id], _ended(r), local_date(r)) for r in rows]
        # By evening (the day played), then the last changed first: a game entered afterwards under its own day.
        return sorted(listed, key=lambda s: (s.played or s.updated_at.date(), s.updated_at), reverse=True)

    def account_pulkas(self, account_id: int) -> int:
        with self.db.reads.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(PulkaRow)
                                          .where(PulkaRow.owner_id == account_id)).scalar_one())

    def account_deals(self, account_id: int) -> int:
        with self.db.reads.connect() as connection:
            return int(connection.execute(select(AccountRow.deals).where(AccountRow.id == account_id)).scalar() or 0)

    def player_names(self, account_id: int) -> list[str]:
        """The names the account has seated (its circle)."""
        with self.db.Session() as session:
            return list(session.scalars(
                select(PlayerRow.name).where(PlayerRow.owner_id == account_id).order_by(PlayerRow.name)))

    def circle_names(self, account_id: int) -> list[str]:
        """The names of the players of the account's circle (its own, and those of pulkas shared with it)."""
        with self.db.Session() as session:
            return sorted(set(circle_names(session, account_id).values()))

    # -- writing ------------------------------------------------------------------------

    def create(self, owner_id: int, settings: Settings, deals: Sequence[Deal], replayed: Replay,
               started: datetime | None = None, table: str = "", frozen: Result | None = None) -> Pulka:
        """A new pulka of the account with its deals (an import brings some, and when it started, in its
        offset), already replayed by the caller, at `table` (else a table of its own), frozen at once with
        the result `frozen` if given."""
        with self._writes() as transaction:
            session = transaction.session
            uid = new_uid()
            row = PulkaRow(uid=uid, table_uid=table or uid, owner_id=owner_id, name=settings.name,
                           currency=settings.currency, rules=settings.rules.overrides(),
                           first_dealer=settings.first_dealer, version=1,
                           # in UTC: SQLite keeps a datetime's digits and drops its offset
                           created_at=started.astimezone(timezone.utc) if started else now(),
                           opening=opening_json(settings.opening), utc_offset=_offset(started),
                           played_on=settings.played_on)
            row.seats = seats(session, owner_id, settings.players)
            session.add(row)
            session.flush()
            circle_changed(session, owner_id)
            session.add_all(DealRow(pulka_id=row.id, position=number, **deal_values(deal))
                            for number, deal in enumerate(deals, 1))
            session.flush()
            if deals:
                session.execute(update(AccountRow).where(AccountRow.id == owner_id)
                                .values(deals=AccountRow.deals + len(deals)))
            pulka = dataclasses.replace(pulka_of(row, tuple(deals), replayed), frozen=frozen)
            row.standing = PulkaStanding.of(pulka).stored()
            if pulka.frozen is not None:
                row.result, row.ended_at = pulka.frozen.stored(), pulka.frozen.at
                recorded(session, row.id, pulka.frozen)
            stamped(session, pulka.uid, pulka.stamp)
            transaction.on_commit(lambda: self._learn(pulka))
        return pulka

    @contextmanager
    def writing(self, uid: str, expected: int | None = None, adding: bool = False) -> Iterator[Change]:
        """One write on one pulka, in the unit of work's transaction (else in one of its own, committed when
        the block ends); rolled back if it raises. VersionConflict when the pulka is not at the `expected`
        version. `adding`: the write adds a deal, and the change knows how many the owner's pulkas held (the
        room check)."""
        known = self.watch.stamp(uid)
        if expected is not None and known is not None and known.version > expected:
            # Stale for sure, since a version only moves forward: refused without a transaction. (A write under
            # an idempotency key that this very request's first sending moved on finds its key after: edge.)
            raise VersionConflict()
        with self._writes() as transaction:
            session = transaction.session
            # Bumping the version first locks the pulka (a row lock in PostgreSQL, the write lock in
            # SQLite), so concurrent writes to one pulka queue up instead of interleaving; a write on a
            # version that is gone bumps nothing and is refused before anything is read or replayed.
            found = bump(session, uid, expected, adding)
            if found is None:
                exists = known is not None or session.scalar(select(PulkaRow.id).where(PulkaRow.uid == uid)) is not None
                raise VersionConflict() if exists else NotFound()
            pulka_id, version, owner_deals = found
            before = self.cache.get((uid, version - 1))
            if before is None:
                row = session.get_one(PulkaRow, pulka_id)
                before = dataclasses.replace(pulka_of(row, deals_of(session, pulka_id)), version=version - 1)
            # The new stamp goes to the other processes with the write's last statement (Change.done).
            change = Change(session, pulka_id, before, owner_deals, adding)
            yield change
            after = change.after
            if after is not None:
                transaction.on_commit(lambda: self._learn(after))

    def _learn(self, pulka: Pulka) -> None:
        """A write committed: this process keeps the pulka by its new version, and trusts that version."""
        self.cache.put((pulka.uid, pulka.version), pulka)
        self.watch.learn(pulka.uid, pulka.stamp)

    def delete(self, uid: str) -> None:
        with self._writes() as transaction:
            session = transaction.session
            row = session.scalars(select(PulkaRow).where(PulkaRow.uid == uid)).one_or_none()
            if row is None:
                raise NotFound()
            session.execute(update(AccountRow).where(AccountRow.id == row.owner_id).values(
                deals=AccountRow.deals - select(func.count()).where(DealRow.pulka_id == row.id).scalar_subquery()))
            # Before the rows go: those who opened a link of its table read it no more.
            circle_changed(session, row.owner_id, readers(select(PulkaRow.table_uid).where(PulkaRow.id == row.id)))
            session.delete(row)
            session.flush()
            gone(session, uid)
            access_changed(session)
            transaction.on_commit(lambda: self._gone(uid))

    def _gone(self, uid: str) -> None:
        """A deletion committed: this process forgets the pulka, and who might open it."""
        self.watch.forget(uid)
        self.watch.access_changed()


def _ended(row: PulkaRow) -> datetime | None:
    """When a frozen pulka ended, in the offset it started with."""
    if row.ended_at is None:
        return None
    return aware(row.ended_at).astimezone(timezone(timedelta(minutes=row.utc_offset or 0)))


def _offset(started: datetime | None) -> int | None:
    offset = started.utcoffset() if started is not None else None
    return None if offset is None else int(offset.total_seconds() // 60)


def _deals(standing: PulkaStanding | None) -> int:
    return standing.deals if standing is not None else 0


def _best(roles: Sequence[str]) -> Role:
    """The most a caller holding several share links of one pulka may do (one at least: it lists the pulka)."""
    best = access_of(False, [Access(Role(role)) for role in roles])
    assert best is not None
    return best.role
