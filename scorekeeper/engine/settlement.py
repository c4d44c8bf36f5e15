"""Settling a pulka (docs/rules.md §9, §15): exact balances, money in cents, the fewest transfers."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from heapq import heapify, heappop, heappush
from math import floor
from typing import Generic, TypeVar

from .rules import Rules
from .sheet import Points, Sheet


P = TypeVar("P")  # who pays and who is paid: a seat, a player's name or a player's id


@dataclass(frozen=True)
class Transfer(Generic[P]):
    """`payer` pays (or owes) `payee` `amount`: "who pays whom", the one shape of it in every settlement, in
    seats here, in names in `settled`, in the ledger's players in `ledger`."""

    payer: P
    payee: P
    amount: Decimal


@dataclass(frozen=True)
class Settlement:
    net: tuple[Fraction, ...]  # exact whists, summing to 0
    balance: tuple[Decimal, ...]  # whists, rounded half away from zero to 2 decimals
    money: tuple[Decimal, ...]  # cents, summing to exactly 0
    transfers: tuple[Transfer[int], ...]
    # The amnesty form a player checks by hand (§9.2): the smallest gora is
    # struck from every gora, each player then writes gora_whists[i] on i, and
    # pairwise[i][j] is what i wins from j (whists both ways, gora, pulya).
    amnesty: Points
    gora_whists: tuple[Fraction, ...]
    pairwise: tuple[tuple[Fraction, ...], ...]


def round_half_away(value: Fraction, places: int = 2) -> Decimal:
    # floor(|value| × 10^places + 1/2) in whole numbers: |p/q| × s + 1/2 = (2|p|s + q) / 2q.
    scaled, denominator = abs(value.numerator) * 10**places, value.denominator
    whole = (2 * scaled + denominator) // (2 * denominator)
    return Decimal(whole if value >= 0 else -whole).scaleb(-places)


def _cents(amounts: list[Fraction]) -> list[int]:
    """Largest-remainder rounding to whole cents that keeps the sum at exactly zero."""
    scaled = [amount * 100 for amount in amounts]
    cents = [floor(s) for s in scaled]
    missing = -sum(cents)
    by_remainder = sorted(range(len(amounts)), key=lambda i: (-(scaled[i] - cents[i]), i))
    for i in by_remainder[:missing]:
        cents[i] += 1
    return cents


def _transfers(cents: list[int]) -> list[Transfer[int]]:
    """The largest debtor pays the largest creditor, repeatedly (ties: the earlier seat).

    Each payment brings one of the two to 0, and the other goes back to its heap: at most n − 1 payments,
    each O(log n), where picking them by a scan of every balance was O(n) a payment (a ledger's settle-up
    past its exact bound has thousands of balances)."""
    debtors = [(c, i) for i, c in enumerate(cents) if c < 0]  # the largest debt first: the most negative
    creditors = [(-c, i) for i, c in enumerate(cents) if c > 0]
    heapify(debtors)
    heapify(creditors)
    transfers: list[Transfer[int]] = []
    while debtors and creditors:
        debt, payer = heappop(debtors)
        credit, payee = heappop(creditors)
        amount = min(-debt, -credit)
        if debt + amount:
            heappush(debtors, (debt + amount, payer))
        if credit + amount:
            heappush(creditors, (credit + amount, payee))
        transfers.append(Transfer(payer, payee, Decimal(amount).scaleb(-2)))
    return transfers


def settle(sheet: Sheet, rules: Rules) -> Settlement:
    n = sheet.n
    whists, gora, pulya = sheet.whists, sheet.gora, sheet.pulya
    per_gora, per_pulya = rules.gora_point_whists, rules.pulya_point_whists
    amnesty = min(gora)
    gora_whists = tuple(Fraction(per_gora * (g - amnesty), n) for g in gora)
    # What i wins from j, n times over: whists both ways, gora (gora_whists[j] - gora_whists[i], the amnesty
    # cancelling) and pulya, each in whole numbers (or the sheet's own fractions) until one division by n.
    times_n = [
        [
            0 if i == j else
            n * (whists[i][j] - whists[j][i]) + per_gora * (gora[j] - gora[i]) + per_pulya * (pulya[i] - pulya[j])
            for j in range(n)
        ]
        for i in range(n)
    ]
    pairwise = tuple(tuple(Fraction(value, n) for value in row) for row in times_n)
    net = tuple(Fraction(sum(row), n) for row in times_n)
    price = Fraction(rules.whist_price)
    cents = _cents([value * price for value in net])
    return Settlement(
        net=net,
        balance=tuple(round_half_away(value) for value in net),
        money=tuple(Decimal(c).scaleb(-2) for c in cents),
        transfers=tuple(_transfers(cents)),
        amnesty=amnesty,
        gora_whists=gora_whists,
        pairwise=pairwise,
    )
