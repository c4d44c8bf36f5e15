"""Settling in cash: the money of a settlement rounded to a unit the table pays in (1 ₽, 10 ₽, 0.50 €),
still summing to exactly zero. Each amount goes down to a multiple of the unit, and the units missing from
the sum go to the largest remainders (ties to the earlier seat), as docs/rules.md §15 spreads the cents."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from .settlement import Transfer
from .settlement import _transfers as fewest_payments


def in_cash(money: Sequence[Decimal], unit: Decimal) -> tuple[Decimal, ...]:
    """`money` (cents, summing to 0) as multiples of `unit` (a positive whole number of cents), summing to 0."""
    cents = [int(amount.scaleb(2)) for amount in money]
    step = int(unit.scaleb(2))
    if step <= 0 or Decimal(step).scaleb(-2) != unit:
        raise ValueError(f"a cash unit is a positive whole number of cents, not {unit}")
    if sum(cents):
        raise ValueError("the money to pay in cash sums to zero")
    floors = [amount // step * step for amount in cents]
    missing = -sum(floors) // step  # the remainders add up to whole units, since the amounts sum to 0
    order = sorted(range(len(cents)), key=lambda i: (-(cents[i] - floors[i]), i))
    for i in order[:missing]:
        floors[i] += step
    return tuple(Decimal(amount).scaleb(-2) for amount in floors)


def cash_transfers(cash: Sequence[Decimal]) -> tuple[Transfer[int], ...]:
    """The fewest payments that settle amounts already in cash (each a multiple of the unit, so every
    payment is too)."""
    return tuple(fewest_payments([int(amount.scaleb(2)) for amount in cash]))


def left_owed(money: Sequence[Decimal], cash: Sequence[Decimal]) -> tuple[Transfer[int], ...]:
    """What paying `cash` (in_cash of `money`) leaves owed, as the fewest payments: each player's exact money
    less his cash, which sums to zero too (a payment is less than the unit: each remainder is)."""
    return tuple(fewest_payments([int((exact - paid).scaleb(2)) for exact, paid in zip(money, cash)]))
