"""How templates write values (Jinja filters), and exact values as JSON numbers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from markupsafe import Markup

from ...engine import json_value
from ...render.svg import ORIENTATIONS
from ...render.text import amount, points, signed, unbroken


def chain_html(values: Sequence[int | Fraction], language: str = "en") -> Markup:
    """A chain on a page (2.6.10): each number unbreakable, and a line may break after each dot, so a long
    chain on a phone wraps between numbers, never inside one. Every page shows chains through this filter."""
    if not values:
        return Markup("—")
    # A number as points() writes it holds digits, signs, vulgar fractions and separators only: nothing to escape.
    return Markup(".<wbr>".join(f'<span class="n">{points(value, language)}</span>' for value in values))


def clock(moment: datetime, language: str = "en") -> str:
    """A time of day as a table says it ("2:10", "23:40"), in the moment's own offset."""
    return f"{moment.hour}:{moment.minute:02d}"


def day(value: date, language: str = "en") -> str:
    """A date as players say it, the month in words ("12 November 2026", "12 ноября 2026")."""
    from babel.dates import format_date

    return str(format_date(value, "d MMMM y", locale=language))


# How templates write numbers; each takes the page's `language` (edge.i18n gives it the request's).
FILTERS: dict[str, Callable[..., Any]] = {"points": points, "signed": signed, "chain": chain_html, "amount": amount,
                                          "clock": clock, "day": day, "unbroken": lambda text, language="en": unbroken(text)}


def jsonable(value: Any) -> Any:
    """Exact values as JSON numbers (ints stay ints); containers recursively."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (Fraction, Decimal)):
        return json_value(value)
    return value


def orientation_of(value: str | None) -> str:
    """The drawing's orientation from a query or a cookie; anything unknown is the paper's own."""
    return value if value in ORIENTATIONS else "table"
