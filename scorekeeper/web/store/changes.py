"""One write on one pulka, in rows: the statement that opens it (the version bumped, the pulka locked) and
the rows the use case's decision makes (services.pulkas.PulkaChange).

A deal's write is what every table does every few seconds, so it sends few statements, each built once:
the bump (with the owner's count of deals moved on, when it adds one), the deal's row, and the pulka's last
change with its standing, which on PostgreSQL also sends the notification for the other processes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Executable, Select, Update, bindparam, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from ...engine import Deal, Replay
from ..domain.pulkas import Note, Pulka, Settings, PulkaStanding
from ..domain.results import Event, Result
from .circles import circle_changed
from .deals import deal_values
from .models import AccountRow, DealRow, EventRow, PlayerRow, PulkaRow, SeatRow, public_id, now
from .watch import stamp_notice

# The owner's count of deals moved on by `b_more` (the owner of the pulka `b_pulka`; a pulka from before
# accounts has none, and moves nothing).
_MORE_DEALS = update(AccountRow).where(
    AccountRow.id == select(PulkaRow.owner_id).where(PulkaRow.id == bindparam("b_pulka")).scalar_subquery()
).values(deals=AccountRow.deals + bindparam("b_more"))
_ONE_MORE = _MORE_DEALS.returning(AccountRow.deals)


def _bump(expected: bool) -> Update:
    statement = update(PulkaRow).where(PulkaRow.uid == bindparam("b_uid"))
    if expected:
        statement = statement.where(PulkaRow.version == bindparam("b_expected"))
    return statement.values(version=PulkaRow.version + 1, updated_at=bindparam("b_at"))


def _bump_adding(expected: bool) -> Select[Any]:
    """The bump and the owner's count of deals moved on by one, in one statement (PostgreSQL's: a CTE may
    change rows)."""
    bumped = _bump(expected).returning(PulkaRow.id, PulkaRow.version, PulkaRow.owner_id).cte("bumped")
    counted = (update(AccountRow).where(AccountRow.id == bumped.c.owner_id).values(deals=AccountRow.deals + 1)
               .returning(AccountRow.deals).cte("counted"))
    return select(bumped.c.id, bumped.c.version, select(counted.c.deals).scalar_subquery())


# By (with an expected version, adding a deal in the same statement).
_BUMPS: dict[tuple[bool, bool], Update | Select[Any]] = {
    **{(expected, False): _bump(expected).returning(PulkaRow.id, PulkaRow.version) for expected in (False, True)},
    **{(expected, True): _bump_adding(expected) for expected in (False, True)}}


def bump(session: Session, uid: str, expected: int | None, adding: bool) -> tuple[int, int, int | None] | None:
    """The pulka's id and new version, and when the write is `adding` a deal the deals its owner held before
    (None for a pulka of nobody's); None if there is no such pulka at the `expected` version. Bumping the
    version locks the pulka (a row lock in PostgreSQL, the write lock in SQLite), and a write on a version that
    is gone bumps nothing. Adding a deal moves the owner's count on by one at once (a refused write rolls it
    back): on PostgreSQL in the same statement (a round trip each counts); SQLite's RETURNING takes no other
    table, and costs no round trip, so it asks after."""
    connection = session.connection()
    together = adding and connection.dialect.name == "postgresql"
    found = connection.execute(_BUMPS[expected is not None, together],
                               {"b_uid": uid, "b_expected": expected, "b_at": now()}).first()
    if found is None:
        return None
    counted = found[2] if together else (
        connection.execute(_ONE_MORE, {"b_pulka": found[0], "b_more": 1}).scalar() if adding else None)
    return found[0], found[1], None if counted is None else counted - 1


_DONE = update(PulkaRow).where(PulkaRow.id == bindparam("b_pulka")).values(
    last_change=bindparam("b_change"), standing=bindparam("b_standing"), result=bindparam("b_result"),
    ended_at=bindparam("b_ended"))
_APPEND = insert(DealRow)
# INSERT … ON CONFLICT is each dialect's own construct (the same SQL in both).
INSERTS: dict[str, Callable[[Any], postgresql.Insert | sqlite.Insert]] = {
    "postgresql": postgresql.insert, "sqlite": sqlite.insert}


class Change:
    """The rows of one write (services.pulkas.PulkaChange): what the use case decided, said in deals and
    settings."""

    def __init__(self, session: Session, pulka_id: int, before: Pulka, owner_deals: int | None = None,
                 adding: bool = False):
        self.session = session
        self.pulka_id = pulka_id
        self.before = before
        self.owner_deals = owner_deals  # before the bump, when the write adds a deal
        self._counted = adding  # the bump moved the owner's count of deals on for the deal to append
        self.after: Pulka | None = None
        self.result = before.frozen  # as the use case leaves it: frozen, thawed, or as it was

    def append(self, deal: Deal) -> None:
        # The values as parameters of the one statement: compiled once, where values() built a new one each time.
        self._core(_APPEND, {"pulka_id": self.pulka_id, "position": len(self.before.deals) + 1, "created_at": now(),
                             **deal_values(deal)})
        if not self._counted:
            self._core(_MORE_DEALS, {"b_pulka": self.pulka_id, "b_more": 1})
        self._counted = False

    def replace(self, number: int, deal: Deal) -> None:
        self._execute(update(DealRow).where(self._mine, DealRow.position == number).values(**deal_values(deal)))

    def remove(self, number: int) -> None:
        self._execute(delete(DealRow).where(self._mine, DealRow.position == number))
        self._core(_MORE_DEALS, {"b_pulka": self.pulka_id, "b_more": -1})
        # Two steps, because (pulka_id, position) is unique at every row update in PostgreSQL.
        self._execute(update(DealRow).where(self._mine, DealRow.position > number).values(position=-DealRow.position))
        self._execute(update(DealRow).where(self._mine, DealRow.position < 0).values(position=-DealRow.position - 1))

    def set_settings(self, settings: Settings) -> None:
        # Its name, its players (new ones join the owner's circle): what the circles read changes.
        circle_changed(self.session, self._owner)
        row = self.session.get_one(PulkaRow, self.pulka_id)
        row.name, row.currency, row.played_on = settings.name, settings.currency, settings.played_on
        if settings.seating != self.before.settings.seating:
            row.rules, row.first_dealer = settings.rules.overrides(), settings.first_dealer
            if settings.players != self.before.players:
                for seat in list(row.seats):
                    self.session.delete(seat)
                self.session.flush()
                row.seats = seats(self.session, row.owner_id, settings.players)

    def freeze(self, result: Result) -> None:
        self.result = result

    def thaw(self, by: str) -> None:
        self.result = None
        self.session.add(EventRow(pulka_id=self.pulka_id, what=Event.REOPENED.value, by=by, at=now()))

    def done(self, deals: Sequence[Deal], replayed: Replay, note: Note, settings: Settings | None = None) -> Pulka:
        """The pulka this write makes, kept by its new version once the transaction commits. `note` says what
        the write did and who did it, for the phones that watch the sheet."""
        self.session.flush()  # what set_settings changed in the pulka's row and seats
        s = settings or self.before.settings
        self.after = dataclasses.replace(
            self.before, version=self.before.version + 1, name=s.name, currency=s.currency, players=s.players,
            first_dealer=s.first_dealer, rules=s.rules, deals=tuple(deals), replay=replayed, updated_at=now(),
            last_change=note, frozen=self.result, played_on=s.played_on)
        result = self.result
        if result is not self.before.frozen:  # frozen or reopened: what the statistics and the ledger count
            circle_changed(self.session, self._owner)
        if result is not None and result is not self.before.frozen:
            recorded(self.session, self.pulka_id, result)
        done: Update = _DONE
        notice = stamp_notice(self.session.get_bind().dialect.name, self.after.uid, self.after.stamp)
        if notice is not None:
            done = done.returning(notice)
        self._core(done, {"b_pulka": self.pulka_id, "b_change": dict(note),
                          "b_standing": PulkaStanding.of(self.after).stored(),
                          "b_result": result.stored() if result else None, "b_ended": result.at if result else None})
        return self.after

    @property
    def _owner(self) -> Select[Any]:
        return select(PulkaRow.owner_id).where(PulkaRow.id == self.pulka_id)

    @property
    def _mine(self) -> Any:
        return DealRow.pulka_id == self.pulka_id

    def _core(self, statement: Executable, values: dict[str, Any] | None = None) -> None:
        # Past the ORM: the statement as it is, on the transaction's connection (no row of it is loaded).
        self.session.connection().execute(statement, values or {})

    def _execute(self, statement: Executable) -> None:
        # No deal row is loaded in this session, so there is nothing to keep in step with the statement.
        self.session.execute(statement, execution_options={"synchronize_session": False})


def seats(session: Session, owner_id: int | None, names: Sequence[str]) -> list[SeatRow]:
    """The seats of `names`, each an existing player of the owner's circle or a new one.

    Race-free: when two tables seat the same new name at once, INSERT … ON CONFLICT DO NOTHING lets the
    second wait for the first and then add nothing, and both find the one row. The new names go in sorted,
    so two tables adding overlapping names take their locks in the same order and cannot deadlock."""
    def known() -> dict[str, PlayerRow]:
        return {p.name: p for p in session.scalars(
            select(PlayerRow).where(PlayerRow.owner_id == owner_id, PlayerRow.name.in_(names)))}

    found = known()
    new = sorted(set(names) - set(found))
    if new:
        insert_into = INSERTS[session.get_bind().dialect.name]
        session.execute(insert_into(PlayerRow).values([{"owner_id": owner_id, "name": name, "uid": public_id()}
                                                       for name in new])
                        .on_conflict_do_nothing(index_elements=["owner_id", "name"]))
        found = known()
    return [SeatRow(seat=seat, player=found[name]) for seat, name in enumerate(names)]


def recorded(session: Session, pulka_id: int, result: Result) -> None:
    """The pulka's ending, in its log (who, when)."""
    session.add(EventRow(pulka_id=pulka_id, what=Event(result.ending.value).value, by=result.by, at=result.at))
