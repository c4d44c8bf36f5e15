"""Players across pulkas in the database: the caller's circle, the records of the pulkas he may read (each
frozen pulka's stored result, never a replay), and the rows a rename or a merge of his own players changes
(services.players decides whether it may)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...engine import Record
from ..domain.players import Member, Player
from ..domain.pulkas import Stamp, PulkaStanding
from ..domain.refusals import Duplicate, NotFound
from ..domain.results import Result
from .cache import VersionCache
from .db import Database
from .circles import circle_changed, circle_names, readable, versions
from .models import AccountRow, DealRow, PaymentRow, PlayerRow, PulkaRow, SeatRow
from .pulkas import PulkaStore
from .rows import aware, entered_date, local_date
from .transaction import Writer
from .watch import stamped


CircleRows = tuple[tuple[Player, ...], tuple[Record[str], ...], Mapping[str, str]]  # and the pulkas' names by id


@dataclass(frozen=True)
class _Kept:
    """What a circle needs of one pulka's row at one version: its seats' player row ids and, frozen, its
    record (its players put in for each circle, as merges make them)."""

    uid: str
    name: str
    seats: tuple[int, ...]
    record: Record[str] | None
    minutes: int


class PlayerStore(Writer):
    """The circles of one database (services.players.PlayerRepository)."""

    def __init__(self, db: Database, pulkas: PulkaStore, remember: int = 64, remember_rows: int = 20_000):
        self.db = db
        self.pulkas = pulkas  # an unfinished pulka, when asked for, is read (and replayed) as any
        # The latest circles read (of frozen pulkas), by account and the circle versions they were read at.
        self._known: VersionCache[CircleRows] = VersionCache(remember)
        # Each pulka's row as the circles need it, by its uid (never reused, where a row id may be) and the
        # version it was read at: a pulka's stored result is the same in every circle it is in, and only a
        # write (a new version) changes it.
        self._rows: VersionCache[_Kept] = VersionCache(remember_rows)

    def records(self, account_id: int, unfinished: bool = False) -> CircleRows:
        """The players of the pulkas the account may read (its own, and those of tables shared with it), each
        merged one counted as the one he is merged into, and a record of each of those pulkas: frozen ones
        from their stored results; with `unfinished`, the others as they stand. The frozen ones' are read
        again only when a circle version it is read from moved on (store.circles.versions: one query
        otherwise); with `unfinished`, every deal changes them, so they are read each time (each pulka's row
        once per version still)."""
        if unfinished:
            return self._read(account_id, unfinished)
        key = (account_id, self.versions(account_id))
        known = self._known.get(key)
        if known is not None:
            return known
        return self._known.put(key, self._read(account_id, unfinished))

    def _read(self, account_id: int, unfinished: bool) -> CircleRows:
        """The circle from the pulkas' ids and versions: each frozen pulka's row read and its result parsed
        once per version (a new finished pulka reads that one row), the players and their merges afresh."""
        with self.db.Session() as session:
            heads = session.execute(select(PulkaRow.uid, PulkaRow.version, PulkaRow.result.is_not(None))
                                    .where(readable(account_id)).order_by(PulkaRow.created_at, PulkaRow.id)).all()
            fresh = [uid for uid, version, frozen in heads
                     if (frozen or unfinished) and self._kept(uid, version) is None]
            for start in range(0, len(fresh), 500):  # bound the IN list
                self._keep(session, fresh[start:start + 500])
            kept = [k for uid, version, frozen in heads if (frozen or unfinished) and (k := self._kept(uid, version))]
            roots, players = circle_of(session, account_id, [], also={p for k in kept for p in k.seats})
        records = []
        for k in kept:
            keys = tuple(roots[p].uid for p in k.seats)
            if k.record is not None:
                records.append(replace(k.record, players=keys))
            elif unfinished:
                pulka = self.pulkas.get(k.uid)
                records.append(Record.of(keys, pulka.replay, pulka.started.date(), pulka.currency, pulka=k.uid,
                                         minutes=k.minutes))
        return tuple(players.values()), tuple(records), {k.uid: k.name for k in kept}

    def _kept(self, uid: str, version: int) -> _Kept | None:
        return self._rows.get((uid, version))

    def _keep(self, session: Session, uids: list[str]) -> None:
        last: dict[str, datetime] = {pulka: at for pulka, at in session.execute(
            select(PulkaRow.uid, func.max(DealRow.created_at)).join(DealRow, DealRow.pulka_id == PulkaRow.id)
            .where(PulkaRow.uid.in_(uids)).group_by(PulkaRow.uid))}
        for row in session.scalars(select(PulkaRow).where(PulkaRow.uid.in_(uids))):
            minutes = _minutes(row, last.get(row.uid))
            seats = tuple(seat.player_id for seat in row.seats)
            record = _frozen(row, (), Result.read(row.result), minutes) if row.result is not None else None
            self._rows.put((row.uid, row.version), _Kept(row.uid, row.name, seats, record, minutes))

    def versions(self, account_id: int, *more: Any) -> tuple[Any, ...]:
        """The circle versions the account's circle is read from (and the accounts' `more` columns): one query."""
        with self.db.reads.connect() as connection:
            return versions(connection, account_id, AccountRow.circle_version, *more)

    def seated(self, account_id: int, pulka: str) -> tuple[str, ...]:
        """The players of a pulka the account may read, by seat, as its circle counts them (a merged one as
        the one he is merged into); NotFound for a pulka it may not read."""
        with self.db.Session() as session:
            row = session.scalars(select(PulkaRow).where(PulkaRow.uid == pulka, readable(account_id))).one_or_none()
            if row is None:
                raise NotFound()
            roots, _ = circle_of(session, account_id, [row])
            return tuple(roots[seat.player_id].uid for seat in row.seats)

    def merged_ones(self, account_id: int, uid: str) -> list[Player]:
        """The account's players merged into `uid`, at any depth (his group but him)."""
        with self.db.Session() as session:
            target = _found(_own(session, account_id, uid))
            own = list(session.scalars(select(PlayerRow).where(PlayerRow.owner_id == account_id)))
            group, found = {target.id}, True
            while found:
                more = {p.id for p in own if p.merged_into_id in group} - group
                group, found = group | more, bool(more)
            return [_player(p, account_id) for p in sorted(own, key=lambda p: p.name)
                    if p.id in group and p.id != target.id]

    @contextmanager
    def writing(self, account_id: int) -> Iterator[CircleWrite]:
        """One write on the account's own players, in the unit of work's transaction (else in one of its own,
        committed when the block ends); rolled back if it raises. Its circle's version moves on first: the
        lock that makes the merges, undos and renames of one circle take effect one at a time (the second
        waits, then reads what the first wrote)."""
        with self._writes() as transaction:
            circle_changed(transaction.session, account_id)
            yield CircleWrite(transaction.session, account_id)


class CircleWrite:
    """One write on an account's own players (services.players.PlayerWrite): what a merge weighs, read in the
    write's transaction, and the rows the service's decision changes."""

    def __init__(self, session: Session, account_id: int):
        self.session = session
        self.account_id = account_id

    def member(self, uid: str) -> Member | None:
        row = _own(self.session, self.account_id, uid)
        if row is None:
            return None
        merged = self.session.scalars(select(PlayerRow.uid).where(PlayerRow.merged_into_id == row.id))
        into = self.session.get_one(PlayerRow, row.merged_into_id).uid if row.merged_into_id is not None else None
        pulkas = self.session.scalars(select(PulkaRow.uid).join(SeatRow, SeatRow.pulka_id == PulkaRow.id)
                                      .where(SeatRow.player_id == row.id))
        return Member(row.uid, into, tuple(merged), frozenset(pulkas))

    def rename(self, uid: str, name: str) -> Player:
        """Duplicate when another of the circle has the name (the database keeps one of each)."""
        row = self._row(uid)
        row.name = name
        try:
            self.session.flush()
        except IntegrityError:
            raise Duplicate() from None
        # The pulkas he sits in show the new name: a new version of each, so that every process and every
        # watching phone reads them again.
        for pulka in self.session.scalars(select(PulkaRow).join(SeatRow, SeatRow.pulka_id == PulkaRow.id)
                                          .where(SeatRow.player_id == row.id)):
            pulka.version += 1
            standing = PulkaStanding.read(pulka.standing)
            stamped(self.session, pulka.uid, Stamp(pulka.version, standing.deals if standing else 0,
                                                   pulka.last_change))
        return _player(row, self.account_id)

    def circle(self) -> dict[str, str]:
        return circle_names(self.session, self.account_id)

    def beside(self, uids: Iterable[str]) -> frozenset[str]:
        """The names of those who sat at one table with any of the account's players `uids`, theirs left out."""
        them = select(PlayerRow.id).where(PlayerRow.uid.in_(list(uids)), PlayerRow.owner_id == self.account_id)
        tables = select(SeatRow.pulka_id).where(SeatRow.player_id.in_(them))
        return frozenset(self.session.scalars(
            select(PlayerRow.name).join(SeatRow, SeatRow.player_id == PlayerRow.id)
            .where(SeatRow.pulka_id.in_(tables), PlayerRow.id.not_in(them))))

    def counterparts(self, uids: Iterable[str]) -> frozenset[str]:
        """The players a payment row (of any ledger) stands between with one of the account's players `uids`."""
        them = select(PlayerRow.id).where(PlayerRow.uid.in_(list(uids)), PlayerRow.owner_id == self.account_id)
        ends = select(PaymentRow.payee_id).where(PaymentRow.payer_id.in_(them)).union(
            select(PaymentRow.payer_id).where(PaymentRow.payee_id.in_(them)))
        return frozenset(self.session.scalars(select(PlayerRow.uid).where(PlayerRow.id.in_(ends))))

    def merge(self, uids: Iterable[str], into: str | None) -> None:
        """Each of `uids` merged into `into`; None: into nobody (a merge undone)."""
        target = self._row(into).id if into is not None else None
        for uid in uids:
            self._row(uid).merged_into_id = target

    def _row(self, uid: str) -> PlayerRow:
        return _found(_own(self.session, self.account_id, uid))


def _own(session: Session, account_id: int, uid: str) -> PlayerRow | None:
    return session.scalars(select(PlayerRow).where(PlayerRow.uid == uid, PlayerRow.owner_id == account_id)
                           ).one_or_none()


def _found(row: PlayerRow | None) -> PlayerRow:
    if row is None:
        raise NotFound("player")
    return row


def circle_of(session: Session, account_id: int, rows: Iterable[PulkaRow], also: Iterable[int] = ()
              ) -> tuple[dict[int, PlayerRow], dict[str, Player]]:
    """The players seated in these pulkas, the account's own and those with the ids `also`: each one's root
    (himself, or the one he is merged into) by row id, and the roots by public id."""
    seated = {player.id: player for row in rows for player in (seat.player for seat in row.seats)}
    own = {p.id: p for p in session.scalars(select(PlayerRow).where(PlayerRow.owner_id == account_id))}
    by_id = seated | own
    by_id |= {p.id: p for p in session.scalars(select(PlayerRow).where(PlayerRow.id.in_(set(also) - set(by_id))))}
    roots = {pid: _root(session, by_id, pid) for pid in list(by_id)}
    return roots, {root.uid: _player(root, account_id) for root in roots.values()}


def _root(session: Session, known: dict[int, PlayerRow], player_id: int) -> PlayerRow:
    row = known[player_id]
    for _ in range(len(known) + 1):  # a chain of merges ends (a merge never makes a circle): bounded anyway
        if row.merged_into_id is None:
            return row
        row = known.get(row.merged_into_id) or session.get_one(PlayerRow, row.merged_into_id)
        known.setdefault(row.id, row)
    return row


def _player(row: PlayerRow, account_id: int) -> Player:
    return Player(row.uid, row.name, row.owner_id == account_id)


def _frozen(row: PulkaRow, keys: tuple[str, ...], result: Result | None, minutes: int = 0) -> Record[str]:
    assert result is not None
    return Record(str(row.rules.get("preset", "sochi")), row.currency, local_date(row), True, keys, result.net,
                  result.money, result.pairwise, result.roles, row.uid, minutes)


EVENING = timedelta(hours=24)  # longer from start to last deal: imported, or written up later; no time counted


def _minutes(row: PulkaRow, last_deal: datetime | None) -> int:
    """From its start to its last deal (a pulka closed days later did not take days; one entered afterwards,
    on another day than it was played, took no time that says how long it was played)."""
    if row.played_on is not None and row.played_on != entered_date(row):
        return 0
    played = aware(last_deal) - aware(row.created_at) if last_deal else timedelta(0)
    return int(played.total_seconds() // 60) if timedelta(0) <= played <= EVENING else 0


