"""A round's points (docs/tournament.md §2, `scoring`): a table's result, each player's exact whist balance b there
(docs/rules.md §15), becomes his points under the event's scheme; a bye scores the scheme's points for sitting
out. Exact fractions throughout; `rounded` is for the edge, where a number is shown."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from ..records import Who
from .terms import Scheme, Scoring


def _whists(scoring: Scoring, balances: Sequence[Fraction]) -> list[Fraction]:
    return [Fraction(b) for b in balances]


def banded(scoring: Scoring, balance: Fraction) -> Fraction:
    """|b| cut at the band limits, each part × its band's coefficient, with b's sign: with [[200, 1], [650, 0.1],
    [null, 0]], 300 → 200 + 100 × 0.1 = 210."""
    size, total, floor = abs(balance), Fraction(0), Fraction(0)
    for band in scoring.bands:
        top = size if band.limit is None else min(size, band.limit)
        if top <= floor:
            break
        total += (top - floor) * band.coefficient
        floor = top
    return total if balance >= 0 else -total


def _bands(scoring: Scoring, balances: Sequence[Fraction]) -> list[Fraction]:
    return [banded(scoring, b) for b in balances]


def _places(scoring: Scoring, balances: Sequence[Fraction]) -> list[Fraction]:
    """Places by b, highest first; players with equal b share their places' points equally (two tied for 2nd at a
    four with 3-2-1-0: (2 + 1) / 2 each); plus the bonus to each with b ≥ 0."""
    points = scoring.place_points(len(balances))
    ranked = sorted(balances, reverse=True)
    out = []
    for b in balances:
        first, count = ranked.index(b), ranked.count(b)
        out.append(sum(points[first:first + count], Fraction(0)) / count
                   + (scoring.bonus_positive if b >= 0 else 0))
    return out


_SCHEMES: dict[Scheme, Callable[[Scoring, Sequence[Fraction]], list[Fraction]]] = {
    Scheme.WHISTS: _whists, Scheme.BANDS: _bands, Scheme.PLACES: _places,
}


def table_points(scoring: Scoring, balances: Mapping[Who, Fraction]) -> dict[Who, Fraction]:
    """Each player's points for the round from his table's balances."""
    return dict(zip(balances, _SCHEMES[scoring.scheme](scoring, list(balances.values()))))


def bye_points(scoring: Scoring, table_size: int) -> Fraction:
    """A bye's points: 0 under whists and bands; under places the mean of the places' points at a table of the
    event's size (1.5 for 3-2-1-0)."""
    if scoring.scheme is not Scheme.PLACES:
        return Fraction(0)
    points = scoring.place_points(table_size)
    return sum(points, Fraction(0)) / len(points)


def rounded(value: Fraction) -> Decimal:
    """`value` rounded half away from zero to 2 decimals: 2.125 → 2.13, −2.125 → −2.13, 1/3 → 0.33."""
    scaled = abs(value) * 100
    whole, part = divmod(scaled.numerator, scaled.denominator)
    cents = whole + (2 * part >= scaled.denominator)
    return Decimal(-cents if value < 0 else cents).scaleb(-2)
