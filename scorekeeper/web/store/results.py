"""Frozen results in the database: the pulkas that finished before results were kept, frozen once (the
migration that brought results), and every frozen pulka read back for `scorekeeper stats verify`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Connection, DateTime, Integer, String, column, insert, select, table, text, update

from ...engine import Contract, Deal, DealType, Rules, replay, settle
from ..domain.results import Ending, Event, Result
from .db import Database
from .models import PulkaRow
from .rows import opening_of


class ResultStore:
    """The frozen pulkas of one database (services.results.FrozenPulkas)."""

    def __init__(self, db: Database):
        self.db = db

    def frozen_uids(self) -> Iterator[str]:
        with self.db.reads.connect() as connection:
            uids = connection.execute(select(PulkaRow.uid).where(PulkaRow.result.is_not(None))
                                      .order_by(PulkaRow.ended_at, PulkaRow.id)).scalars().all()
        return iter(uids)


# The tables as that migration left them (not the models, which go on changing).
_PULKAS = table("pulkas", column("id", Integer), column("result", JSON), column("ended_at", DateTime(timezone=True)))
_EVENTS = table("pulka_events", column("pulka_id", Integer), column("what", String), column("by", String),
                column("at", DateTime(timezone=True)))


def freeze_finished(connection: Connection, at: datetime) -> int:
    """Freeze every finished pulka that has no result yet, as if its last deal had just finished it; how many.

    Plain SQL on the columns the results migration found, so that it runs the same at that migration
    whatever the rows look like later."""
    frozen = 0
    for pulka_id, rules, first_dealer, opening, seats, deals in _unfrozen(connection):
        rules_ = Rules.from_dict(rules)
        replayed = replay(rules_, seats, deals, first_dealer, opening_of(opening, rules_))
        if not replayed.sheet.finished:
            continue
        result = Result.settled(settle(replayed.sheet, rules_), replayed, Ending.FINISHED, at)
        connection.execute(update(_PULKAS).where(_PULKAS.c.id == pulka_id)
                           .values(result=result.stored(), ended_at=at))
        connection.execute(insert(_EVENTS).values(pulka_id=pulka_id, what=Event.FINISHED.value, by="", at=at))
        frozen += 1
    return frozen


def _unfrozen(connection: Connection) -> Iterator[tuple[int, dict[str, Any], int, Any, int, tuple[Deal, ...]]]:
    rows = connection.execute(text("SELECT id, rules, first_dealer, opening, standing FROM pulkas "
                                   "WHERE result IS NULL")).all()
    for pulka_id, rules, first_dealer, opening, standing in rows:
        standing, rules, opening = (_loaded(value) for value in (standing, rules, opening))
        if not (isinstance(standing, dict) and standing.get("finished")):
            continue
        seats = connection.execute(text("SELECT count(*) FROM pulka_players WHERE pulka_id = :id"),
                                   {"id": pulka_id}).scalar_one()
        deals = tuple(
            Deal(DealType(kind), declarer, Contract.parse(contract), _by_seat(whist), _by_seat(tricks), bool(open_))
            for kind, declarer, contract, whist, tricks, open_ in connection.execute(text(
                "SELECT type, declarer, contract, whist, tricks, open FROM deals WHERE pulka_id = :id "
                "ORDER BY position"), {"id": pulka_id}))
        yield pulka_id, rules, first_dealer, opening, int(seats), deals


def _loaded(value: Any) -> Any:
    """A JSON column read by plain SQL: SQLite gives its text, PostgreSQL the value."""
    return json.loads(value) if isinstance(value, str) else value


def _by_seat(value: Any) -> dict[int, Any] | None:
    value = _loaded(value)
    return None if value is None else {int(seat): v for seat, v in value.items()}

