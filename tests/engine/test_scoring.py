"""engine/scoring.py: what a valid deal writes, line by line, each with a reason a player can read.

Values are worked out by hand from docs/rules.md, the section cited at each test; a reason is
checked for the figures that make its points.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorekeeper.engine import Column, Contract, Deal, DealType, Rules, Sheet
from scorekeeper.engine.scoring import Tally

F = Fraction
A, B, C, D = range(4)
NAMES = ("A", "B", "C", "D")
SOCHI = Rules.of("sochi", pulya_size=10)


def sheet_for(dealer: int, n: int = 3, streak: int = 0) -> Sheet:
    """The sheet of a pulka whose next deal `dealer` deals (first dealer A)."""
    return Sheet(n, 0, dealer, (0,) * n, (0,) * n, ((0,) * n,) * n, streak)


def score(rules: Rules, deal: Deal, sheet: Sheet, pulya: tuple[int, ...] = ()) -> tuple[Tally, list[tuple]]:
    """The lines the deal writes, as (player, column, on, points, reason with names)."""
    tally = Tally(rules, sheet.n)
    tally.pulya = list(pulya or sheet.pulya)
    tally.score(deal, sheet)
    return tally, [(e.player, e.column, e.on, e.points, e.text(NAMES[:sheet.n])) for e in tally.entries]


def game(declarer: int, contract: str, whist: dict[int, str] | None, tricks: dict[int, int] | None = None) -> Deal:
    return Deal(DealType.GAME, declarer, Contract.parse(contract), whist, tricks)


def totals(lines: list[tuple]) -> dict[tuple, Fraction]:
    out: dict[tuple, Fraction] = {}
    for player, column, on, points, _ in lines:
        out[player, column, on] = out.get((player, column, on), F(0)) + points
    return out


def W(who: int, on: int, points) -> tuple:  # whists `who` writes on `on`
    return (who, Column.WHISTS, on), F(points)


def PU(who: int, points) -> tuple:
    return (who, Column.PULYA, None), F(points)


def GO(who: int, points) -> tuple:
    return (who, Column.GORA, None), F(points)


# ---- games (§4, §5)


def test_ex2_remiz_with_two_whisters():
    # §10 Ex 2: B deals, B declares 8♦, C (his left) and A whist; B 6, A 3, C 1 -> remiz by 2
    _, lines = score(SOCHI, game(B, "8D", {C: "whist", A: "whist"}, {B: 6, A: 3, C: 1}), sheet_for(B))
    assert totals(lines) == dict([GO(B, 12), W(A, B, 12 + 18), W(C, B, 12 + 6)])
    reasons = [line[4] for line in lines]
    assert reasons[0] == "B is remiz by 2 on 8♦: gora 2 × 6"
    assert sorted(reasons[1:]) == ["A writes consolation on B: 2 undertricks × 6",
                                   "A writes whists on B: 3 tricks × 6 on 8♦",
                                   "C writes consolation on B: 2 undertricks × 6",
                                   "C writes whists on B: 1 trick × 6 on 8♦"]


@pytest.mark.parametrize("option,expected", [
    ("whister_all", [PU(A, 4), W(B, A, 8)]),  # §10 Ex 1: B writes for both hands, 2 tricks × 4
    ("each_own", [PU(A, 4), W(B, A, 4), W(C, A, 4)]),  # §14 single_whist_made each_own
])
def test_ex1_made_with_one_whister(option, expected):
    deal = game(A, "7H", {B: "whist", C: "pass"}, {A: 8, B: 1, C: 1})
    _, lines = score(Rules.of("sochi", single_whist_made=option), deal, sheet_for(C))
    assert totals(lines) == dict(expected)


@pytest.mark.parametrize("option,expected", [
    ("greedy", [GO(C, 2), W(A, C, 2 + 10), W(B, C, 2)]),  # §10 Ex 4: the passer writes consolation only
    ("gentleman", [GO(C, 2), W(A, C, 2 + 5), W(B, C, 2 + 5)]),  # §5.1: half of 5 tricks × 2 each
])
def test_ex4_remiz_with_one_whister(option, expected):
    deal = game(C, "6H", {A: "whist", B: "pass"}, {C: 5, A: 3, B: 2})
    _, lines = score(Rules.of("sochi", single_whist_remiz=option), deal, sheet_for(B))
    assert totals(lines) == dict(expected)
    if option == "gentleman":
        assert "B writes whists on C: half of the defence's 5 tricks × 2 on 6♥ (gentleman's whist)" in \
            [line[4] for line in lines]


def test_ex3_whisters_short():
    # §10 Ex 3: C 6♣, A and B whist; C 8, A 2, B 0: B is short 2 of his quota 2, at the full price 2
    _, lines = score(SOCHI, game(C, "6C", {A: "whist", B: "whist"}, {C: 8, A: 2, B: 0}), sheet_for(B))
    assert totals(lines) == dict([PU(C, 2), W(A, C, 4), GO(B, 4)])
    assert "B took 0 of his 2 on 6♣: short 2 × 2" in [line[4] for line in lines]


@pytest.mark.parametrize("option,first,second", [("second_whister", 0, 6), ("split", 3, 3), ("both", 6, 6)])
def test_q1_responsible(option, first, second):
    # §5.3: an 8 made with two whisters who took nothing; B is A's left (first), C the second
    deal = game(A, "8S", {B: "whist", C: "whist"}, {A: 10, B: 0, C: 0})
    _, lines = score(Rules.of("sochi", q1_responsible=option), deal, sheet_for(C))
    assert totals(lines) == dict([PU(A, 6), *([GO(B, first)] if first else []), GO(C, second)])


def test_ex34_half_whist():
    # §1.6, Ex 34: A 7♦, B passes, C says half, no play: C writes 1 trick × 4
    _, lines = score(SOCHI, game(A, "7D", {B: "pass", C: "half"}), sheet_for(C))
    assert [line[3:] for line in lines] == [(4, "A plays 7♦, C half-whists: pulya +4"),  # not "both pass" (issue 17)
                                            (4, "C half-whists 7♦: 1 trick × 4")]


def test_checked_ten_failed_at_four():
    # §14 fixed rules: both defenders and the sitting-out dealer write consolation; each defender whists
    # for his own tricks; nobody is short. D deals; A declares 10♠ and takes 9 (Sochi p = 10)
    _, lines = score(SOCHI, game(A, "10S", None, {A: 9, B: 1, C: 0}), sheet_for(D, n=4))
    assert totals(lines) == dict([GO(A, 10), W(B, A, 10 + 10), W(C, A, 10), W(D, A, 10)])


# ---- misère and raspasy (§6, §7)


@pytest.mark.parametrize("preset,gora", [("sochi", 30), ("leningrad", 60)])
def test_failed_misere(preset, gora):
    # §6: gora per trick taken, 3 tricks
    _, lines = score(Rules.of(preset), Deal(DealType.MISERE, A, tricks={A: 3}), sheet_for(C))
    assert totals(lines) == dict([GO(A, gora)])


def test_ex40_fourth_raspasy_of_a_streak():
    # §7.1, Ex 40 (cap-3 scheme): the 4th raspasy costs 3 per trick, and 3 into the pulya for no trick
    _, lines = score(Rules.of("sochi", pulya_size=50), Deal(DealType.RASPASY, tricks={A: 2, B: 0, C: 8}),
                     sheet_for(A, streak=3))
    assert totals(lines) == dict([GO(A, 6), GO(C, 24), PU(B, 3)])
    assert "A took 2 tricks on raspasy #4: gora 2 × 3" in [line[4] for line in lines]


TALON_WHISTS = Rules.of("rostov", raspasy_dealer="talon")


@pytest.mark.parametrize("tricks,expected", [
    # the dealer D took fewest overall with his talon trick, but only A, B, C compete: A writes, on D too
    ({A: 2, B: 3, C: 4, D: 1}, [W(A, B, 15), W(A, C, 20), W(A, D, 5)]),
    # A and B tie for fewest among the active (split): each writes half on C and on D; D, also on 2, never writes
    ({A: 2, B: 2, C: 4, D: 2}, [W(A, C, 10), W(A, D, 5), W(B, C, 10), W(B, D, 5)]),
    # A took none: 5 × each other's tricks, the dealer's talon tricks included, and pulya +1 (§7.3)
    ({A: 0, B: 5, C: 3, D: 2}, [W(A, B, 25), W(A, C, 15), W(A, D, 10), PU(A, 1)]),
    # the talon took nothing: nothing is written on D, and he gets no zero-trick pulya (§14 raspasy_dealer)
    ({A: 3, B: 3, C: 4}, [W(A, C, 10), W(B, C, 10)]),
])
def test_four_players_talon_raspasy_in_whists(tricks, expected):
    # §14 raspasy_whists_per_trick: at 4 players with raspasy_dealer talon the fewest is sought among the
    # three active players only; the sitting-out dealer never writes, and his talon tricks are written on
    # him like anyone's. D deals and sits out; 5 whists per trick (Rostov).
    _, lines = score(TALON_WHISTS, Deal(DealType.RASPASY, tricks=tricks), sheet_for(D, n=4))
    assert totals(lines) == dict(expected)
    assert all(line[0] != D for line in lines)
    if tricks == {A: 2, B: 3, C: 4, D: 1}:
        assert (A, Column.WHISTS, D, 5, "A took fewest on raspasy and writes whists on D: his 1 trick × 5") in lines


# ---- pulya overflow and the end (§8)


def test_ex7_help_largest_first():
    # §10 Ex 7: A (5) makes a misère, P = 10: 5 fit, C (6) is helped to 10 first, then B (2) gets the last 1
    tally, lines = score(SOCHI, Deal(DealType.MISERE, A, tricks={A: 0}), sheet_for(A), pulya=(5, 2, 6))
    assert totals(lines) == dict([PU(A, 5), PU(C, 4), W(A, C, 40), PU(B, 1), W(A, B, 10)])
    assert tally.pulya == [10, 3, 10]
    assert [line[4] for line in lines][:3] == ["A made misère: pulya +10 (5 of 10 fit: the pulya closes at 10)",
                                               "A closes over the pulya and helps C: pulya +4",
                                               "A helps C with 4 pulya: 4 × 10 whists"]


def test_ex9_write_off_when_nobody_needs_help():
    # §10 Ex 9: B (3) writes 8 with A and C closed: 7 fit, 1 is written off B's gora
    tally, lines = score(SOCHI, game(B, "9NT", {C: "pass", A: "pass"}), sheet_for(A), pulya=(10, 3, 10))
    assert totals(lines) == dict([PU(B, 7), GO(B, -1)])
    assert lines[-1][4] == "B's pulya is closed and nobody needs help: 1 surplus × 1 written off the gora"
    assert tally.finished  # §8.1: every pulya closed


def test_total_has_no_cap():
    # §8.1 pulka_end total: nobody's pulya is capped; finished once they add up to n × P
    rules = Rules.of("leningrad", pulya_size=5)
    tally, lines = score(rules, Deal(DealType.MISERE, A, tricks={A: 0}), sheet_for(C), pulya=(0, 4, 0))
    assert totals(lines) == dict([PU(A, 10)]) and not tally.finished  # 14 < 15
    tally, _ = score(rules, Deal(DealType.MISERE, A, tricks={A: 0}), sheet_for(C), pulya=(0, 5, 0))
    assert tally.finished  # 15 >= 3 × 5
