"""A sheet kept on paper: the totals a table wrote, settled as the app settles its own pulkas (docs/rules.md §9, §15).

A paper sheet is a `Sheet` with no deals behind it. It is settled by the one `settle`, so its
settlement is, by construction, that of a replay going on from it with no deal (docs/files.md §5);
what this module adds is the hand check a player does at the table, step by step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .rules import PulkaEnd, Rules
from .settlement import Settlement, settle
from .sheet import Points, Sheet


def exact(value: Points) -> Points:
    """A whole Fraction as an int: the sheet compares and writes whole points as ints."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def finished(rules: Rules, pulya: Sequence[int]) -> bool:
    """Whether pulyas like these end the pulka (§8.1), as a replay's last deal decides it."""
    size, n = rules.pulya_size, len(pulya)
    if rules.pulka_end is PulkaEnd.TOTAL:
        return sum(pulya) >= n * size
    return all(points == size for points in pulya)


def paper_sheet(n: int, pulya: Sequence[int] | None = None, gora: Sequence[Points] | None = None,
                whists: Mapping[tuple[int, int], Points] | None = None, rules: Rules | None = None,
                first_dealer: int = 0) -> Sheet:
    """The sheet with these totals by seat (absent: 0); `whists[(i, j)]` is what i wrote on j. With `rules`,
    whether the sheet already ends the pulka."""
    if n not in (3, 4):
        raise ValueError(f"a sheet has 3 or 4 players, not {n}")
    pulya_t = tuple(pulya) if pulya is not None else (0,) * n
    gora_t = tuple(exact(g) for g in gora) if gora is not None else (0,) * n
    given = whists or {}
    if len(pulya_t) != n or len(gora_t) != n or any(i == j or not (0 <= i < n and 0 <= j < n) for i, j in given):
        raise ValueError("a value for every seat, and whists only between two seats")
    matrix = tuple(tuple(exact(given.get((i, j), 0)) for j in range(n)) for i in range(n))
    done = rules is not None and finished(rules, pulya_t)
    return Sheet(n, first_dealer, 0, pulya_t, gora_t, matrix, 0, done)


def counted_down(rules: Rules, left: int) -> int:
    """The points written, for a pulya the table wrote down from pulya_size: what is no longer left."""
    return rules.pulya_size - left


@dataclass(frozen=True)
class Pair:
    """One pair of the pairwise table as it is checked by hand (§9.2, the amnesty form): what `winner` has
    written on `loser`, his own whists and those the others write for `loser`'s gora, against the same the
    other way, and the pulya term (§15). `net` is what `winner` wins from `loser` (never negative)."""

    winner: int
    loser: int
    mine: Fraction  # W_ij + the whists for j's gora left
    theirs: Fraction  # W_ji + the whists for i's gora left
    pulya: Fraction  # pulya_point_whists · (p_i − p_j) / n
    net: Fraction


def pairs(sheet: Sheet, rules: Rules, settlement: Settlement | None = None) -> tuple[Pair, ...]:
    """Every pair once, in seat order, each told from the side that wins it (the earlier seat on a tie)."""
    s = settlement or settle(sheet, rules)
    n, whists, gw = sheet.n, sheet.whists, s.gora_whists
    found = []
    for i in range(n):
        for j in range(i + 1, n):
            a, b = (i, j) if s.pairwise[i][j] >= 0 else (j, i)
            mine = Fraction(whists[a][b]) + gw[b]
            theirs = Fraction(whists[b][a]) + gw[a]
            pulya = Fraction(rules.pulya_point_whists * (sheet.pulya[a] - sheet.pulya[b]), n)
            found.append(Pair(a, b, mine, theirs, pulya, s.pairwise[a][b]))
    return tuple(found)
