"""engine/scoring.py: what a valid deal writes, line by line, each with its reason.

Expected values are worked out by hand from rules.md; the section is cited at each test.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorekeeper.engine import Column, Deal, DealType, Rules, replay

F = Fraction
A, B, C, D = range(4)
NAMES = ("A", "B", "C", "D")


def written(rules: Rules, deals: list[Deal], n: int = 3, first_dealer: int = 0) -> dict[tuple, Fraction]:
    """What the last deal wrote: points by (player, column, on), with the reasons checked for names."""
    result = replay(rules, n, deals, first_dealer).results[-1]
    totals: dict[tuple, Fraction] = {}
    for entry in result.entries:
        assert entry.text(NAMES[:n])  # every line has a reason a player can read
        key = (entry.player, entry.column, entry.on)
        totals[key] = totals.get(key, F(0)) + entry.points
    return {key: points for key, points in totals.items() if points}


def W(who: int, on: int, points) -> tuple:  # whists `who` writes on `on`
    return (who, Column.WHISTS, on), F(points)


def PU(who: int, points) -> tuple:
    return (who, Column.PULYA, None), F(points)


# ---- raspasy in whists at 4 players with the talon the dealer's


TALON_WHISTS = Rules.of("rostov", raspasy_dealer="talon")


@pytest.mark.parametrize("tricks,expected", [
    # the dealer D took fewest overall with his talon trick, but only A, B, C compete: A writes, on D too
    ({A: 2, B: 3, C: 4, D: 1}, [W(A, B, 15), W(A, C, 20), W(A, D, 5)]),
    # A and B tie for fewest among the active (split): each writes half on C and on D; D, also on 2, never writes
    ({A: 2, B: 2, C: 4, D: 2}, [W(A, C, 10), W(A, D, 5), W(B, C, 10), W(B, D, 5)]),
    # A took none: 5 x each other's tricks, the dealer's talon tricks included, and pulya +1 (§7.3)
    ({A: 0, B: 5, C: 3, D: 2}, [W(A, B, 25), W(A, C, 15), W(A, D, 10), PU(A, 1)]),
    # the dealer's talon took nothing: nothing is written on him, and he gets no zero-trick pulya (§14 raspasy_dealer)
    ({A: 3, B: 3, C: 4}, [W(A, C, 10), W(B, C, 10)]),
])
def test_four_players_talon_raspasy_in_whists(tricks, expected):
    # §14 raspasy_whists_per_trick: at 4 players with raspasy_dealer talon the fewest is sought among the
    # three active players only; the sitting-out dealer never writes, and his talon tricks are written on
    # him like anyone's. D deals and sits out; 5 whists per trick (Rostov).
    deal = Deal(DealType.RASPASY, tricks=tricks)
    assert written(TALON_WHISTS, [deal], n=4, first_dealer=D) == dict(expected)


def test_the_line_written_on_the_dealer_says_why():
    result = replay(TALON_WHISTS, 4, [Deal(DealType.RASPASY, tricks={A: 2, B: 3, C: 4, D: 1})], D).results[0]
    on_dealer = [entry for entry in result.entries if entry.on == D]
    assert [entry.text(NAMES) for entry in on_dealer] == \
        ["A took fewest on raspasy and writes whists on D: his 1 trick × 5"]
