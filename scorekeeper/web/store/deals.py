"""Deals in the database: a deal row as the engine's deal, and back (seats as keys, the words in the order
they were said)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...engine import Contract, Deal, DealType
from .models import DealRow


def deals_of(session: Session, pulka_id: int) -> tuple[Deal, ...]:
    rows = session.scalars(select(DealRow).where(DealRow.pulka_id == pulka_id).order_by(DealRow.position))
    return tuple(deal_of(row) for row in rows)


def _by_seat(mapping: Mapping[str, Any] | None) -> dict[int, Any] | None:
    return None if mapping is None else {int(seat): value for seat, value in mapping.items()}


def deal_of(row: DealRow) -> Deal:
    return Deal(DealType(row.type), row.declarer, Contract.parse(row.contract),
                _by_seat(row.whist), _by_seat(row.tricks), row.open)


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
