"""engine/settlement.py: balances, money and transfers (docs/rules.md §9, §15), on sheets written by hand."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scorekeeper.engine import Rules, Sheet, Transfer, settle
from scorekeeper.engine.settlement import round_half_away

F, D = Fraction, Decimal

# docs/rules.md §10 Ex 10: the Sochi sheet after the ten deals (A, B, C; P = 10)
EX10 = Sheet(3, deals=10, pulya=(10, 10, 10), gora=(6, 39, 22), whists=((0, 40, 68), (8, 0, 2), (0, 18, 0)),
             finished=True)
SOCHI = Rules.of("sochi", pulya_size=10, whist_price=0.5)


def test_ex11_net_in_both_forms():
    settlement = settle(EX10, SOCHI)
    assert settlement.net == (F(790, 3), F(-644, 3), F(-146, 3))  # +263⅓, −214⅔, −48⅔
    # amnesty form: m = 6, g' = 0 / 33 / 16, each other player writes 110 on B and 53⅓ on C
    assert settlement.amnesty == 6
    assert settlement.gora_whists == (0, 110, F(160, 3))
    pairwise = settlement.pairwise
    assert (pairwise[0][1], pairwise[0][2], pairwise[1][2]) == (142, F(364, 3), F(-218, 3))
    assert all(pairwise[i][j] == -pairwise[j][i] for i in range(3) for j in range(3))


def test_ex11_balance_money_and_transfers():
    settlement = settle(EX10, SOCHI)
    assert settlement.balance == (D("263.33"), D("-214.67"), D("-48.67"))
    # exact money +131⅔, −107⅓, −24⅓: floors 131.66, −107.34, −24.34 miss two cents; equal remainders,
    # so the earliest seats get them (§15)
    assert settlement.money == (D("131.67"), D("-107.33"), D("-24.34"))
    assert settlement.transfers == (Transfer(1, 0, D("107.33")), Transfer(2, 0, D("24.34")))


def test_four_players_divide_the_gora_by_four():
    # §9.4: a gora point costs its owner 10 × 3/4 = 7.5 whists and gives 2.5 to each other player
    sheet = Sheet(4, pulya=(10, 10, 10, 10), gora=(0, 10, 0, 0), whists=((0,) * 4,) * 4)
    settlement = settle(sheet, Rules.of("sochi", pulya_size=10))
    assert settlement.net == (25, -75, 25, 25)
    assert settlement.transfers == (Transfer(1, 0, D("25.00")), Transfer(1, 2, D("25.00")), Transfer(1, 3, D("25.00")))


@pytest.mark.parametrize("preset,worth", [("sochi", 10), ("leningrad", 20)])
def test_an_unfinished_pulka_pays_for_missing_pulya(preset, worth):
    # §15: + pulya_point_whists × (pᵢ − p̄); p = 2, 0, 0 -> p̄ = 2/3
    sheet = Sheet(3, pulya=(2, 0, 0), gora=(0, 0, 0), whists=((0,) * 3,) * 3)
    settlement = settle(sheet, Rules.of(preset, whist_price=0.1))
    assert settlement.net == (F(4 * worth, 3), F(-2 * worth, 3), F(-2 * worth, 3))
    if preset == "sochi":
        # money 1.333.., −0.666.., −0.666..: floors 1.33, −0.67, −0.67 miss a cent; equal remainders -> A
        assert settlement.money == (D("1.34"), D("-0.67"), D("-0.67"))


def test_money_rounds_by_largest_remainder_to_exactly_zero():
    # §15: floor every amount to the cent, then the missing cents to the largest remainders
    sheet = Sheet(3, pulya=(0, 0, 0), gora=(0, 0, 0), whists=((0, F(1, 3) + 1, 0), (0, 0, 0), (0, F(4, 3), 0)))
    settlement = settle(sheet, Rules.of("sochi", whist_price=1))
    assert settlement.net == (F(4, 3), F(-8, 3), F(4, 3))
    # floors 1.33, −2.67, 1.33 sum −0.01; remainders .333, .333, .333 (exact): the earliest seat, A
    assert settlement.money == (D("1.34"), D("-2.67"), D("1.33"))
    assert sum(settlement.money) == 0


def test_transfers_largest_debtor_pays_largest_creditor():
    # §15: the fewest payments, at most n − 1
    sheet = Sheet(4, pulya=(0,) * 4, gora=(0,) * 4,
                  whists=((0, 30, 0, 0), (0, 0, 0, 0), (0, 0, 0, 10), (0, 0, 0, 0)))
    settlement = settle(sheet, Rules.of("sochi", whist_price=1))
    assert settlement.money == (D("30.00"), D("-30.00"), D("10.00"), D("-10.00"))
    assert settlement.transfers == (Transfer(1, 0, D("30.00")), Transfer(3, 2, D("10.00")))


@pytest.mark.parametrize("value,rounded", [
    (F(1, 200), "0.01"), (F(-1, 200), "-0.01"), (F(2, 3), "0.67"), (F(-2, 3), "-0.67"), (F(1, 3), "0.33"),
    (F(0), "0.00"), (F(263, 1) + F(1, 3), "263.33"),
])
def test_balances_round_half_away_from_zero(value, rounded):
    assert round_half_away(value) == D(rounded)  # §15
