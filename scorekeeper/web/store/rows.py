"""A pulka's row as the domain's `Pulka`: seats are ints, rules as the pulka file writes them."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from fractions import Fraction
from typing import Any

from ...engine import Deal, Replay, Rules, Sheet, json_value, paper_sheet, replay
from ..domain.pulkas import Pulka
from ..domain.results import Result
from .models import PulkaRow


def aware(moment: datetime) -> datetime:
    """In UTC, with its offset: SQLite gives back naive datetimes (stored in UTC), PostgreSQL ones in the
    session's time zone; the same pulka reads the same from either."""
    return moment.astimezone(timezone.utc) if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def entered_date(row: PulkaRow) -> date:
    """The day the pulka was started in the app, in its players' offset."""
    return aware(row.created_at).astimezone(timezone(timedelta(minutes=row.utc_offset or 0))).date()


def local_date(row: PulkaRow) -> date:
    """The day it was played, in its players' calendar: the date its owner gave, else the day it started."""
    return row.played_on if row.played_on is not None else entered_date(row)


def players(row: PulkaRow) -> tuple[str, ...]:
    return tuple(seat.player.name for seat in row.seats)


def pulka_of(row: PulkaRow, deals: tuple[Deal, ...], replayed: Replay | None = None) -> Pulka:
    names = players(row)
    rules = Rules.from_dict(row.rules)
    opening = opening_of(row.opening, rules)
    if replayed is None:
        # Stored deals replayed once already when they were written; read to be shown, with their chains.
        replayed = replay(rules, len(names), deals, row.first_dealer, opening, chains=True)
    return Pulka(row.uid, row.version, row.name, row.currency, names, row.first_dealer, rules, deals, replayed,
                 aware(row.created_at), aware(row.updated_at), row.owner_id, row.last_change, row.table_uid, opening,
                 Result.read(row.result), row.utc_offset, row.played_on)


def opening_json(opening: Sheet | None) -> dict[str, Any] | None:
    """An opening as its row keeps it: by seat, so that renaming a player before the first deal keeps it."""
    if opening is None:
        return None
    return {"pulya": list(opening.pulya), "gora": [json_value(g) for g in opening.gora],
            "whists": [[json_value(w) for w in row] for row in opening.whists]}


def opening_of(data: dict[str, Any] | None, rules: Rules) -> Sheet | None:
    if data is None:
        return None
    n = len(data["gora"])
    whists = {(i, j): Fraction(w) for i, row in enumerate(data["whists"]) for j, w in enumerate(row) if w and i != j}
    return paper_sheet(n, data["pulya"], [Fraction(g) for g in data["gora"]], whists, rules)
