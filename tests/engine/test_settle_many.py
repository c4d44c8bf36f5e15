"""The settle-up of many balances (engine/ledger.py past EXACT_UP_TO) and what a ledger write works out from a
few rows: the greedy rule on heaps gives the answer the scan of every balance gave, payment for payment; every
balance is settled, the sums kept, at most n − 1 payments, and a club of 4,000 open balances settles. The
balances from what each player paid and received in all, and one debtor's obligations from his balance alone,
are those of the whole ledger."""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from scorekeeper.engine import ledger
from scorekeeper.engine.ledger import (
    Transfer, balances, balances_of, debtor_standing, ledger_standing, order_key, settle_up,
)
from scorekeeper.engine.settlement import _transfers

from .test_ledger import PULKAS, _apply, honest_rows, rows

D = Decimal
SETTINGS = settings(max_examples=60, deadline=None)


def scan_rule(cents: list[int]) -> list[Transfer[int]]:
    """The rule as it was, a scan of every balance for each payment: the largest debtor pays the largest
    creditor (ties: the earlier seat)."""
    left = list(cents)
    transfers = []
    while any(left):
        payer = min(range(len(left)), key=lambda i: (left[i], i))
        payee = min(range(len(left)), key=lambda i: (-left[i], i))
        amount = min(-left[payer], left[payee])
        left[payer] += amount
        left[payee] -= amount
        transfers.append(Transfer(payer, payee, Decimal(amount).scaleb(-2)))
    return transfers


def old_settle_up(money: dict[str, Decimal]) -> tuple[Transfer[str], ...]:
    """The settle-up past the bound as it was: opposite pairs matched in the order of the players (the earliest
    waiting first), then the scan rule on the rest."""
    players = sorted(money)
    cents = [int(money[p].scaleb(2)) for p in players]
    waiting: dict[int, list[int]] = {}
    groups = []
    for i in (i for i, c in enumerate(cents) if c):
        if waiting.get(-cents[i]):
            groups.append([waiting[-cents[i]].pop(0), i])
        else:
            waiting.setdefault(cents[i], []).append(i)
    paired = {i for group in groups for i in group}
    groups.append([i for i, c in enumerate(cents) if c and i not in paired])
    found = [Transfer(players[g[t.payer]], players[g[t.payee]], t.amount)
             for g in groups for t in scan_rule([cents[i] for i in g])]
    return tuple(sorted(found, key=lambda t: (t.payer, t.payee)))


def _zero_sum(values: list[int]) -> list[int]:
    return [*values[:-1], -sum(values[:-1])]


def _money(values: list[int]) -> dict[str, Decimal]:
    return {f"p{i:04}": D(v).scaleb(-2) for i, v in enumerate(values)}


# With zeros, ties and repeated values (the heaps' order must be the scan's), and wide ones.
any_cents = st.one_of(st.lists(st.integers(-5, 5), min_size=1, max_size=40),
                      st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=40)).map(_zero_sum)
# Past the bound: more than EXACT_UP_TO balances, some of them cash-like (many opposite pairs), some not.
many = st.one_of(
    st.lists(st.integers(-10**6, 10**6).filter(bool), min_size=ledger.EXACT_UP_TO + 2, max_size=120),
    st.lists(st.integers(-30, 30).filter(bool).map(lambda v: v * 1000), min_size=ledger.EXACT_UP_TO + 2,
             max_size=120),
).map(_zero_sum)


@SETTINGS
@given(any_cents)
def test_the_rule_on_heaps_pays_what_the_scan_paid(values):
    assert _transfers(values) == scan_rule(values)


def test_the_rule_on_heaps_by_hand():
    # the largest debtor pays the largest creditor; of equal ones the earlier seat, again and again
    assert _transfers([3, -5, 3, -1, 0]) == [Transfer(1, 0, D("0.03")), Transfer(1, 2, D("0.02")),
                                             Transfer(3, 2, D("0.01"))]
    assert _transfers([0, 0]) == [] and _transfers([]) == []


@SETTINGS
@given(many)
def test_past_the_bound_the_answer_is_the_one_it_was(values):
    money = _money(values)
    found = settle_up(money)
    nonzero = sum(1 for v in values if v)
    if not found.exact:
        assert found.payments == old_settle_up(money)
    assert _apply(money, found.payments) == dict.fromkeys(money, D(0))  # every balance settled, sums kept
    assert len(found.payments) <= max(nonzero - 1, 0)


@SETTINGS
@given(many, st.sampled_from(["1", "10", "0.50", "100"]))
def test_past_the_bound_in_cash_each_balance_settles_to_less_than_a_unit(values, unit):
    money = _money(values)
    found = settle_up(money, D(unit))
    assert all(p.amount % D(unit) == 0 for p in found.payments)
    left = _apply(money, found.payments)
    assert sum(left.values()) == 0 and all(abs(v) < D(unit) for v in left.values())
    assert len(found.payments) <= max(sum(1 for v in values if v) - 1, 0)


def test_a_club_of_four_thousand_open_balances_settles():
    """The issue's club: 1,000 finished pulkas of 4 players, each player's balance his own; settled to the cent
    and in tens, in at most n − 1 payments (no clock: the cost is the benchmark's)."""
    rng = random.Random(29)
    values = _zero_sum([rng.choice([-1, 1]) * rng.randint(1, 400_000) for _ in range(4000)])
    money = _money(values)
    found = settle_up(money)
    assert not found.exact
    assert _apply(money, found.payments) == dict.fromkeys(money, D(0))
    assert len(found.payments) <= len(money) - 1
    in_tens = settle_up(money, D(10))
    left = _apply(money, in_tens.payments)
    assert all(abs(v) < 10 for v in left.values()) and len(in_tens.payments) <= len(money) - 1


def test_many_opposite_pairs_each_settle_in_one_payment():
    """2,000 players owing 10 and 2,000 owed 10: 2,000 payments, each pair on its own (the rule alone would too,
    but a queue of equal balances matched earliest first keeps the pairs of the players' order)."""
    money = {f"a{i:04}": D(-10) for i in range(2000)} | {f"b{i:04}": D(10) for i in range(2000)}
    found = settle_up(money)
    assert len(found.payments) == 2000
    assert Counter(p.payer for p in found.payments) == Counter(f"a{i:04}" for i in range(2000))
    assert _apply(money, found.payments) == dict.fromkeys(money, D(0))


@SETTINGS
@given(st.one_of(rows(), honest_rows()))
def test_balances_from_what_each_player_paid_and_received_are_those_of_the_rows(ledger_rows):
    obligations, payments = ledger_rows
    paid: dict[str, Decimal] = {}
    for p in payments:
        paid[p.payer] = paid.get(p.payer, D(0)) + D(p.cents).scaleb(-2)
        paid[p.payee] = paid.get(p.payee, D(0)) - D(p.cents).scaleb(-2)
    assert balances_of(obligations, paid) == balances(obligations, payments)


@SETTINGS
@given(st.one_of(rows(), honest_rows()))
def test_one_debtors_obligations_from_his_balance_are_those_of_the_ledger(ledger_rows):
    obligations, payments = ledger_rows
    whole = {o.obligation.id: o for o in ledger_standing(obligations, payments, PULKAS).obligations}
    found = balances(obligations, payments)
    listed = {o.id for o in obligations}
    paid = Counter({o.id: 0 for o in obligations})
    for p in payments:
        if p.obligation in listed:
            paid[p.obligation] += p.cents
    for debtor in {o.debtor for o in obligations}:
        theirs = sorted((o for o in obligations if o.debtor == debtor), key=lambda o: order_key(o, PULKAS[o.pulka]))
        alone = debtor_standing(found[debtor], theirs, {i: D(c).scaleb(-2) for i, c in paid.items() if c})
        assert list(alone) == [whole[o.id] for o in theirs]
