"""engine/paper.py: a sheet kept on paper, settled as the app settles (docs/rules.md §9, §15), on worked examples
computed by hand, and the cases the other calculators get wrong."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import Rules, Transfer, pairs, paper_sheet, replay, settle
from scorekeeper.engine.paper import counted_down, finished

F, D = Fraction, Decimal
SOCHI = Rules.of("sochi", whist_price=0.5)


# [MM]'s example (docs/rules.md §9.2): gora 42/96/132, amnesty 42, 180 whists on Борис from each, 300 on Вера.
MM = paper_sheet(3, (20, 14, 20), (42, 96, 132),
                 {(0, 1): 170, (0, 2): 60, (1, 0): 64, (1, 2): 178, (2, 0): 88, (2, 1): 95}, SOCHI)


def test_mm_amnesty_and_gora_in_whists():
    s = settle(MM, SOCHI)
    assert s.amnesty == 42
    assert s.gora_whists == (0, 180, 300)  # 54 × 10 / 3, 90 × 10 / 3


def test_mm_pairs_as_checked_by_hand():
    found = {(p.winner, p.loser): p for p in pairs(MM, SOCHI)}
    ab = found[(0, 1)]  # Аня–Борис: (170 + 180) − (64 + 0) = 286, and Борис's pulya short by 6: + 10·6/3 = 20
    assert (ab.mine, ab.theirs, ab.pulya, ab.net) == (350, 64, 20, 306)
    av = found[(0, 2)]  # Аня–Вера: (60 + 300) − 88 = 272, pulyas equal
    assert (av.mine, av.theirs, av.pulya, av.net) == (360, 88, 0, 272)
    bv = found[(1, 2)]  # Борис–Вера: (178 + 300) − (95 + 180) = 203, minus 20 for Борис's pulya
    assert (bv.mine, bv.theirs, bv.pulya, bv.net) == (478, 275, -20, 183)


def test_mm_balance_money_transfers():
    s = settle(MM, SOCHI)
    assert s.net == (578, -123, -455)
    assert s.money == (D("289.00"), D("-61.50"), D("-227.50"))
    assert s.transfers == (Transfer(2, 0, D("227.50")), Transfer(1, 0, D("61.50")))


def test_rules_ex11_from_the_sheet_of_ex10():
    rules = Rules.of("sochi", pulya_size=10, whist_price=0.5)
    sheet = paper_sheet(3, (10, 10, 10), (6, 39, 22), {(0, 1): 40, (0, 2): 68, (1, 0): 8, (1, 2): 2, (2, 1): 18}, rules)
    assert sheet.finished
    s = settle(sheet, rules)
    assert s.net == (F(790, 3), F(-644, 3), F(-146, 3))
    assert s.gora_whists == (0, 110, F(160, 3))
    assert s.money == (D("131.67"), D("-107.33"), D("-24.34"))
    found = {(p.winner, p.loser): p.net for p in pairs(sheet, rules)}
    assert found == {(0, 1): 142, (0, 2): F(364, 3), (2, 1): F(218, 3)}  # C wins 72⅔ from B


def test_four_players_divide_by_four_not_three():
    # [K-4.1]: with four, 6 gora points "will cost each not 20 but 15 whists"
    rules = Rules.of("sochi")
    sheet = paper_sheet(4, (20,) * 4, (0, 6, 0, 0), None, rules)
    s = settle(sheet, rules)
    assert s.gora_whists == (0, 15, 0, 0)
    assert s.net == (15, -45, 15, 15)  # ÷3 would be 20 each; n − 1 would be ÷3 as well


def test_a_leningrad_four_unfinished():
    # pulya 30/10/20/20 (total end), gora 4/12/0/8; A on B 40, C on D 25.5, D on A 10; pulya point 20 whists
    rules = Rules.of("leningrad")
    sheet = paper_sheet(4, (30, 10, 20, 20), (4, 12, 0, 8), {(0, 1): 40, (2, 3): F(51, 2), (3, 0): 10}, rules)
    s = settle(sheet, rules)
    # gora 10·(6 − g): 20, −60, 60, −20; pulya 20·(p − 20): 200, −200, 0, 0; whists 30, −40, 25.5, −15.5
    assert s.net == (250, -300, F(171, 2), F(-71, 2))
    assert s.amnesty == 0 and s.gora_whists == (10, 30, 0, 20)
    assert s.pairwise[0][1] == (40 + 30) - (0 + 10) + F(20 * 20, 4)  # 160
    assert s.money == (D("250.00"), D("-300.00"), D("85.50"), D("-35.50"))
    assert s.transfers == (Transfer(1, 0, D("250.00")), Transfer(1, 2, D("50.00")), Transfer(3, 2, D("35.50")))


def test_rostov_halves():
    rules = Rules.of("rostov")
    sheet = paper_sheet(3, (20, 20, 20), (10, 0, 5), {(0, 1): F(25, 2), (1, 2): F(15, 2), (2, 0): 3}, rules)
    s = settle(sheet, rules)
    # ḡ = 5: −50, 50, 0; whists 9.5, −5, −4.5
    assert s.net == (F(-81, 2), 45, F(-9, 2))
    assert s.pairwise[1][0] == F(100, 3) - F(25, 2)  # B wins 20⅚ from A
    assert s.balance == (D("-40.50"), D("45.00"), D("-4.50"))


@pytest.mark.parametrize("preset,worth", [("sochi", 10), ("rostov", 10), ("leningrad", 20)])
def test_an_unclosed_pulya_is_paid_for(preset, worth):
    # nobody wrote anything but A's 2 pulya points: + worth × (2 − ⅔), the others − worth × ⅔ — not ignored,
    # not divided as integers (13, −6, −6)
    rules = Rules.of(preset, whist_price=Decimal("0.1"))
    s = settle(paper_sheet(3, (2, 0, 0), (0, 0, 0), None, rules), rules)
    assert s.net == (F(4 * worth, 3), F(-2 * worth, 3), F(-2 * worth, 3))
    assert sum(s.money) == 0


def test_a_negative_gora_keeps_its_sign():
    rules = Rules.of("sochi")
    s = settle(paper_sheet(3, (20, 20, 20), (-4, 6, 1), None, rules), rules)
    assert s.amnesty == -4  # g' = 0 / 10 / 5
    assert s.gora_whists == (0, F(100, 3), F(50, 3))
    assert s.net == (50, -50, 0)


def test_money_is_not_each_balance_rounded():
    # exact −6⅔, 3⅓, 3⅓: rounding each to the cent gives −6.67 + 3.33 + 3.33 = −0.01; the missing cent goes
    # to the largest remainder (all equal: the earliest seat)
    rules = Rules.of("sochi", whist_price=1)
    s = settle(paper_sheet(3, (20, 20, 20), (1, 0, 0), None, rules), rules)
    assert s.balance == (D("-6.67"), D("3.33"), D("3.33"))
    assert s.money == (D("-6.66"), D("3.33"), D("3.33"))


def test_three_players_divide_by_three_not_two():
    rules = Rules.of("sochi")
    s = settle(paper_sheet(3, (20, 20, 20), (0, 6, 0), None, rules), rules)
    assert s.net == (20, -40, 20)  # n − 1 = 2 would make it 30, −60, 30


def test_own_rates():
    rules = Rules.of("sochi", pulya_point_whists=20, gora_point_whists=5)
    s = settle(paper_sheet(3, (20, 14, 20), (0, 3, 0), None, rules), rules)
    # gora 5·(1 − g): 5, −10, 5; pulya 20·(p − 18): 40, −80, 40
    assert s.net == (45, -90, 45)


def test_a_pulya_counted_down_is_what_is_no_longer_left():
    assert [counted_down(SOCHI, left) for left in (0, 6, 20)] == [20, 14, 0]


def test_whether_a_sheet_ends_the_pulka():
    assert finished(SOCHI, (20, 20, 20)) and not finished(SOCHI, (20, 19, 20))
    assert finished(Rules.of("leningrad"), (30, 10, 20)) and not finished(Rules.of("leningrad"), (20, 10, 20))


# -- properties ----------------------------------------------------------------

halves = st.integers(-2000, 2000).map(lambda h: F(h, 2))


@st.composite
def sheets(draw: st.DrawFn):
    n = draw(st.sampled_from([3, 4]))
    rules = Rules.of(draw(st.sampled_from(["sochi", "leningrad", "rostov"])),
                     whist_price=draw(st.sampled_from([Decimal("0.5"), Decimal("1"), Decimal("0.1"), Decimal("3")])))
    pulya = draw(st.lists(st.integers(0, 20), min_size=n, max_size=n))
    gora = draw(st.lists(halves, min_size=n, max_size=n))
    cells = {(i, j): draw(st.integers(0, 600).map(lambda h: F(h, 2))) for i in range(n) for j in range(n) if i != j}
    return rules, paper_sheet(n, pulya, gora, cells, rules)


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_settling_paper_is_replaying_it_as_an_opening_with_no_deals(case):
    rules, sheet = case
    assert settle(replay(rules, sheet.n, [], start=sheet).sheet, rules) == settle(sheet, rules)


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_pairwise_is_antisymmetric_sums_to_the_balances_and_money_to_zero(case):
    rules, sheet = case
    s = settle(sheet, rules)
    n = sheet.n
    assert all(s.pairwise[i][j] == -s.pairwise[j][i] for i in range(n) for j in range(n))
    assert tuple(sum(row, F(0)) for row in s.pairwise) == s.net
    assert sum(s.net) == 0 and sum(s.money) == 0
    assert all(abs(Fraction(m) - v * Fraction(rules.whist_price)) < F(1, 100) for m, v in zip(s.money, s.net))
    assert {(p.winner, p.loser) for p in pairs(sheet, rules)} | {(p.loser, p.winner) for p in pairs(sheet, rules)} == \
        {(i, j) for i in range(n) for j in range(n) if i != j}
    assert all(p.net == p.mine - p.theirs + p.pulya >= 0 for p in pairs(sheet, rules))
