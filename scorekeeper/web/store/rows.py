"""A pulka's row as the domain's `Pulka`: seats are ints, rules as the pulka file writes them."""

from __future__ import annotations

from datetime import datetime, timezone

from ...engine import Deal, Replay, Rules, replay
from ..domain.pulkas import Pulka
from .models import PulkaRow


def aware(moment: datetime) -> datetime:
    """In UTC, with its offset: SQLite gives back naive datetimes (stored in UTC), PostgreSQL ones in the
    session's time zone; the same pulka reads the same from either."""
    return moment.astimezone(timezone.utc) if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def players(row: PulkaRow) -> tuple[str, ...]:
    return tuple(seat.player.name for seat in row.seats)


def pulka_of(row: PulkaRow, deals: tuple[Deal, ...], replayed: Replay | None = None) -> Pulka:
    names = players(row)
    rules = Rules.from_dict(row.rules)
    if replayed is None:
        # Stored deals replayed once already when they were written.
        replayed = replay(rules, len(names), deals, row.first_dealer)
    return Pulka(row.uid, row.version, row.name, row.currency, names, row.first_dealer, rules, deals, replayed,
                 aware(row.created_at), aware(row.updated_at), row.owner_id, row.last_change, row.table_uid)
