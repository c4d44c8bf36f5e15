"""Settling in cash (engine.cash): money rounded to the unit a table pays in, still summing to zero."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, strategies as st

from scorekeeper.engine.cash import cash_transfers, in_cash, left_owed

D = Decimal


def test_the_sochi_example_in_roubles_and_tens():
    """docs/rules.md §10: +131.67, −107.33, −24.34 at 0.5 a whist."""
    money = (D("131.67"), D("-107.33"), D("-24.34"))
    assert in_cash(money, D("1")) == (D("132"), D("-107"), D("-25"))  # remainders .67 .67 .66: the first two
    assert in_cash(money, D("10")) == (D("130"), D("-110"), D("-20"))
    assert in_cash(money, D("0.01")) == money
    transfers = cash_transfers(in_cash(money, D("10")))
    assert [(t.payer, t.payee, t.amount) for t in transfers] == [(1, 0, D("110")), (2, 0, D("20"))]


def test_ties_go_to_the_earlier_seat():
    assert in_cash((D("0.05"), D("-0.05")), D("0.10")) == (D("0.10"), D("-0.10"))
    assert in_cash((D("-0.05"), D("0.05")), D("0.10")) == (D("0"), D("0"))


@pytest.mark.parametrize("unit", [D("0"), D("-1"), D("0.005")])
def test_a_unit_is_a_whole_number_of_cents(unit):
    with pytest.raises(ValueError):
        in_cash((D("1"), D("-1")), unit)


money = st.lists(st.integers(-10**6, 10**6), min_size=2, max_size=4).map(
    lambda cents: [D(c).scaleb(-2) for c in cents[:-1]] + [D(-sum(cents[:-1])).scaleb(-2)])


@given(money, st.sampled_from([D("0.01"), D("0.50"), D("1"), D("5"), D("10"), D("100")]))
def test_cash_sums_to_zero_and_each_is_within_a_unit(amounts, unit):
    cash = in_cash(amounts, unit)
    assert sum(cash) == 0
    assert all(c % unit == 0 for c in cash)
    assert all(abs(c - a) < unit for c, a in zip(cash, amounts))
    assert sum(t.amount for t in cash_transfers(cash)) == sum(c for c in cash if c > 0)


def test_what_the_rounding_leaves_is_said_as_who_still_owes_whom():
    """docs/rules.md §10 in tens: +130, −110, −20 paid for +131.67, −107.33, −24.34: C still owes 4.34, of
    which B is owed 2.67 and A 1.67."""
    money = (D("131.67"), D("-107.33"), D("-24.34"))
    left = left_owed(money, in_cash(money, D("10")))
    assert [(t.payer, t.payee, t.amount) for t in left] == [(2, 1, D("2.67")), (2, 0, D("1.67"))]
    assert left_owed(money, money) == ()  # to the cent: nothing left


@given(money, st.sampled_from([D("0.50"), D("1"), D("5"), D("10"), D("100")]))
def test_the_cash_and_what_it_leaves_owed_settle_the_money_exactly(amounts, unit):
    cash = in_cash(amounts, unit)
    settled = list(cash)
    for t in left_owed(amounts, cash):
        assert 0 < t.amount < unit
        settled[t.payer] -= t.amount
        settled[t.payee] += t.amount
    assert settled == list(amounts)
