"""engine/ledger.py: the club ledger's arithmetic (docs/club.md §3), by hand and against a brute force."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.engine import ledger
from scorekeeper.engine.ledger import (
    Obligation, ObligationStatus, Payment, PaymentKind, Transfer, balances, mark_paid, open_amount, owed, paid,
    reversal, settle_up, status, unmark,
)

D = Decimal
SETTINGS = settings(max_examples=100, deadline=None)


def ob(id: str, debtor: str, creditor: str, amount: str, pulka: str = "k1", currency: str = "RUB") -> Obligation[str, str]:
    return Obligation(id, pulka, debtor, creditor, D(amount), currency)


def pay(id: str, payer: str, payee: str, amount: str, obligation: str | None = None,
        kind: PaymentKind = PaymentKind.PAYMENT, currency: str = "RUB") -> Payment[str, str]:
    return Payment(id, payer, payee, D(amount), currency, obligation, kind=kind)


def back(payment: Payment[str, str]) -> str:
    return f"{payment.id}-back"


# ---- the rows ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("amount", ["0", "-1.00", "0.001", "NaN", "Infinity"])
def test_an_amount_is_a_positive_whole_number_of_cents(amount):
    with pytest.raises(ValueError):
        ob("o", "a", "b", amount)
    with pytest.raises(ValueError):
        pay("p", "a", "b", amount)


def test_a_row_is_between_two_players_and_only_a_reversal_names_what_it_takes_back():
    with pytest.raises(ValueError):
        ob("o", "a", "a", "1")
    with pytest.raises(ValueError):
        pay("p", "a", "a", "1")
    with pytest.raises(ValueError):
        Payment("p", "a", "b", D(1), "RUB", reverses="q")
    with pytest.raises(ValueError):
        Payment("p", "a", "b", D(1), "RUB", kind=PaymentKind.REVERSAL)


def test_a_ledger_is_of_one_currency_with_distinct_ids_and_honest_reversals():
    p = pay("p1", "a", "b", "5.00")
    with pytest.raises(ValueError, match="currency"):
        balances([ob("o1", "a", "b", "5")], [pay("p1", "a", "b", "5", currency="EUR")])
    with pytest.raises(ValueError, match="id"):
        balances([], [p, pay("p1", "b", "a", "1")])
    with pytest.raises(ValueError, match="twice"):
        balances([], [p, reversal(p, "r1"), reversal(p, "r2")])
    with pytest.raises(ValueError, match="repeat"):
        balances([], [p, Payment("r1", "a", "b", D(4), "RUB", reverses="p1", kind=PaymentKind.REVERSAL)])
    with pytest.raises(ValueError):
        reversal(reversal(p, "r1"), "r2")
    assert balances([], [reversal(p, "r1")]) == {"a": D("-5.00"), "b": D("5.00")}  # its payment not listed


# ---- balances, paid, owed ---------------------------------------------------------------------------------

# Two evenings: Boris owes Anna 10, Vera owes Anna 4 and Boris 6; Boris pays 4 on his debt, Vera 6 on no
# obligation, and a payment of Anna's to Vera is taken back.
OBLIGATIONS = [ob("o1", "boris", "anna", "10.00"), ob("o2", "vera", "anna", "4.00", "k2"),
               ob("o3", "vera", "boris", "6.00", "k2")]
TAKEN_BACK = pay("p3", "anna", "vera", "2.50")
PAYMENTS = [pay("p1", "boris", "anna", "4.00", "o1"), pay("p2", "vera", "boris", "6.00"), TAKEN_BACK,
            reversal(TAKEN_BACK, "p4")]


def test_balances_by_hand():
    # anna: +10 +4 − 4 received; boris: −10 +6 +4 paid −6 received; vera: −4 −6 +6 paid
    assert balances(OBLIGATIONS, PAYMENTS) == {"anna": D("10.00"), "boris": D("-6.00"), "vera": D("-4.00")}
    assert list(balances(OBLIGATIONS, PAYMENTS)) == ["anna", "boris", "vera"]
    assert balances(OBLIGATIONS[::-1], PAYMENTS[::-1]) == balances(OBLIGATIONS, PAYMENTS)
    assert balances([], []) == {}


def test_an_even_player_is_listed_at_zero():
    assert balances([ob("o1", "a", "b", "3")], [pay("p1", "a", "b", "3")]) == {"a": D("0.00"), "b": D("0.00")}


def test_paid_open_and_status_by_hand():
    o1, o2, o3 = OBLIGATIONS
    assert (paid(o1, PAYMENTS), open_amount(o1, PAYMENTS), status(o1, PAYMENTS)) == (
        D("4.00"), D("6.00"), ObligationStatus.PARTLY_PAID)
    # Vera's 6 to Boris was on no obligation: o3 is still open
    assert (paid(o3, PAYMENTS), open_amount(o3, PAYMENTS), status(o3, PAYMENTS)) == (
        D("0.00"), D("6.00"), ObligationStatus.OPEN)
    over = [pay("p1", "vera", "anna", "3.00", "o2"), pay("p2", "vera", "anna", "2.00", "o2")]
    assert (paid(o2, over), open_amount(o2, over), status(o2, over)) == (D("5.00"), D("-1.00"), ObligationStatus.PAID)
    taken_back = [over[0], reversal(over[0], "r1")]
    assert (paid(o2, taken_back), status(o2, taken_back)) == (D("0.00"), ObligationStatus.OPEN)


def test_owed_by_hand():
    # anna–boris: 10 − 4 paid; anna–vera: 4, and the 2.50 and its reversal cancel; boris–vera: 6 − 6 = even
    assert owed(OBLIGATIONS, PAYMENTS) == (Transfer("boris", "anna", D("6.00")), Transfer("vera", "anna", D("4.00")))
    # a payment beyond the debt turns the pair round
    assert owed([ob("o1", "b", "a", "5")], [pay("p1", "b", "a", "7.50", "o1")]) == (Transfer("a", "b", D("2.50")),)
    assert owed([], []) == ()


def test_marking_paid_pays_what_is_open_once():
    o1 = OBLIGATIONS[0]
    mark = mark_paid(o1, PAYMENTS, "m1")
    assert mark == Payment("m1", "boris", "anna", D("6.00"), "RUB", "o1", kind=PaymentKind.MARK)
    assert mark_paid(o1, [*PAYMENTS, mark], "m2") is None
    assert status(o1, [*PAYMENTS, mark]) is ObligationStatus.PAID


def test_unmarking_takes_back_the_marks_not_yet_taken_back_and_nothing_else():
    o1 = ob("o1", "b", "a", "10")
    by_hand = pay("p1", "b", "a", "3.00", "o1")
    first = Payment("m1", "b", "a", D("7.00"), "RUB", "o1", kind=PaymentKind.MARK)
    rows = [by_hand, first, reversal(first, "r1")]
    second = mark_paid(o1, rows, "m2")
    assert second is not None and second.amount == D("7.00")
    rows.append(second)
    assert unmark(o1, rows, back) == (reversal(second, "m2-back"),)
    rows += unmark(o1, rows, back)
    assert paid(o1, rows) == D("3.00")
    assert unmark(o1, rows, back) == ()


# ---- settle_up --------------------------------------------------------------------------------------------


def _apply(balances_: dict[str, Decimal], payments: tuple[Transfer[str], ...]) -> dict[str, Decimal]:
    left = dict(balances_)
    for p in payments:
        assert p.amount > 0 and p.payer != p.payee
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    return left


def test_the_issue_counterexample_takes_three_payments_not_four():
    money = {"a": D(4), "b": D(3), "c": D(3), "d": D(-6), "e": D(-4)}
    result = settle_up(money)
    assert result.exact
    assert result.payments == (Transfer("d", "b", D("3.00")), Transfer("d", "c", D("3.00")),
                               Transfer("e", "a", D("4.00")))
    assert len(ledger.fewest_payments([4, 3, 3, -6, -4])) == 4  # the greedy rule of docs/rules.md §15


def test_settle_up_of_nothing_and_of_zeros():
    assert settle_up({}).payments == ()
    assert settle_up({"a": D(0), "b": D("0.00")}).payments == ()


def test_settle_up_refuses_what_does_not_sum_to_zero():
    with pytest.raises(ValueError):
        settle_up({"a": D(1), "b": D(-2)})
    with pytest.raises(ValueError):
        settle_up({"a": D("0.005"), "b": D("-0.005")})


def test_settle_up_is_the_same_for_the_same_balances_in_any_order():
    money = {"e": D(-4), "b": D(3), "a": D(4), "d": D(-6), "c": D(3)}
    assert settle_up(money) == settle_up(dict(sorted(money.items())))


def test_past_the_bound_the_greedy_rule_within_the_pairs_found():
    n = ledger.EXACT_UP_TO + 2
    money = {f"p{i:02}": D(i + 1) for i in range(n - 1)}
    money["p99"] = -sum(money.values())
    money |= {"x": D(50), "y": D(-50)}  # a pair, still found (the greedy rule alone would not)
    result = settle_up(money)
    assert not result.exact
    assert Transfer("y", "x", D("50.00")) in result.payments
    assert _apply(money, result.payments) == dict.fromkeys(money, D(0))
    assert len(result.payments) == n


def test_twelve_balances_with_many_zero_groups():
    values = [1, 1, 2, 2, 3, 3, -2, -2, -2, -2, -2, -2]
    money = {f"p{i:02}": D(v) for i, v in enumerate(values)}
    result = settle_up(money)
    # {2 −2} twice; then 1 1 3 3 and four −2s make two groups at most, {1 3 −2 −2} twice or {1 1 −2} and
    # {3 3 −2 −2 −2}: 4 groups, 8 payments
    assert len(result.payments) == 8 == _brute_force_fewest(values)
    assert _apply(money, result.payments) == dict.fromkeys(money, D(0))


# ---- properties -------------------------------------------------------------------------------------------


def _zero_sum(values: list[int]) -> list[int]:
    return [*values[:-1], -sum(values[:-1])]


# small values, so that many subsets sum to 0; and wide ones, so that few do
cents = st.one_of(st.lists(st.integers(-6, 6), min_size=1, max_size=9),
                  st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=9)).map(_zero_sum)


def _money(values: list[int]) -> dict[str, Decimal]:
    return {f"p{i}": D(v).scaleb(-2) for i, v in enumerate(values)}


def _brute_force_fewest(values: list[int]) -> int:
    """n − the most blocks of a partition of the nonzero values into zero-sum blocks, over every partition."""
    nonzero = [v for v in values if v]

    def most(rest: list[int]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = -1
        for pick in range(1 << len(others)):  # the block of `first`: it and the picked others
            block = first + sum(v for i, v in enumerate(others) if pick >> i & 1)
            if block == 0:
                left = most([v for i, v in enumerate(others) if not pick >> i & 1])
                if left >= 0:
                    best = max(best, 1 + left)
        return best

    return len(nonzero) - most(nonzero)


def _bfs_fewest(values: list[int]) -> int:
    """The fewest payments by search: each payment settles its payer or its payee, which some fewest
    payments do (pay a tree's leaves first)."""
    frontier, steps = {tuple(sorted(v for v in values if v))}, 0
    while () not in frontier:
        following = set()
        for state in frontier:
            for i, debt in enumerate(state):
                for j, credit in enumerate(state):
                    if debt < 0 < credit:
                        left = list(state)
                        amount = min(-debt, credit)
                        left[i] += amount
                        left[j] -= amount
                        following.add(tuple(sorted(v for v in left if v)))
        frontier, steps = following, steps + 1
    return steps


@SETTINGS
@given(cents)
def test_settle_up_zeroes_every_balance_with_the_fewest_payments(values):
    money = _money(values)
    result = settle_up(money)
    assert result.exact
    assert _apply(money, result.payments) == dict.fromkeys(money, D(0))
    nonzero = sum(1 for v in values if v)
    assert len(result.payments) <= max(nonzero - 1, 0)
    assert len(result.payments) == _brute_force_fewest(values)
    assert len({(p.payer, p.payee) for p in result.payments}) == len(result.payments)


@SETTINGS
@given(st.lists(st.integers(-4, 4), min_size=1, max_size=6).map(_zero_sum))
def test_the_fewest_are_those_of_a_search(values):
    assert len(settle_up(_money(values)).payments) == _bfs_fewest(values)


def test_settle_up_in_cash_by_hand():
    """+743.50 −644 −99.50 in tens: floors 740 −650 −100 leave one ten, to the largest remainder (B's 6.00)."""
    result = settle_up({"A": D("743.50"), "B": D("-644"), "C": D("-99.50")}, D(10))
    assert result.payments == (Transfer("B", "A", D("640.00")), Transfer("C", "A", D("100.00")))
    assert _apply({"A": D("743.50"), "B": D("-644"), "C": D("-99.50")}, result.payments) == {
        "A": D("3.50"), "B": D("-4.00"), "C": D("0.50")}


@SETTINGS
@given(cents, st.sampled_from([D("0.50"), D(1), D(10), D(100), D(1000)]))
def test_settle_up_in_cash_pays_whole_units_and_leaves_less_than_one_each(values, unit):
    money = _money(values)
    result = settle_up(money, unit)
    assert all(p.amount % unit == 0 for p in result.payments)
    assert all(abs(left) < unit for left in _apply(money, result.payments).values())
    assert len(result.payments) <= max(sum(1 for v in values if v) - 1, 0)
    assert settle_up(money, D("0.01")) == settle_up(money)  # a cent is no rounding


PLAYERS = ["anna", "boris", "vera", "gleb"]
pair = st.permutations(PLAYERS).map(lambda p: (p[0], p[1]))


@st.composite
def rows(draw: st.DrawFn) -> tuple[list[Obligation[str, str]], list[Payment[str, str]]]:
    obligations = [ob(f"o{i}", a, b, str(D(c).scaleb(-2)))
                   for i, ((a, b), c) in enumerate(draw(st.lists(st.tuples(pair, st.integers(1, 10**5)), max_size=6)))]
    payments: list[Payment[str, str]] = []
    for i, ((a, b), c, on, kind) in enumerate(draw(st.lists(st.tuples(
            pair, st.integers(1, 10**5), st.none() | st.integers(0, 7), st.sampled_from([PaymentKind.PAYMENT,
                                                                                        PaymentKind.MARK])),
            max_size=8))):
        payments.append(pay(f"p{i}", a, b, str(D(c).scaleb(-2)), None if on is None else f"o{on}", kind))
    taken_back = draw(st.sets(st.integers(0, max(len(payments) - 1, 0)))) if payments else set()
    payments += [reversal(payments[i], f"r{i}") for i in sorted(taken_back)]
    return obligations, draw(st.permutations(payments))


@SETTINGS
@given(rows())
def test_balances_sum_to_zero_and_owed_adds_up_to_them(ledger_rows):
    obligations, payments = ledger_rows
    found = balances(obligations, payments)
    assert sum(found.values()) == 0
    from_owed = dict.fromkeys(found, D(0))
    for debt in owed(obligations, payments):
        assert debt.amount > 0
        from_owed[debt.payer] -= debt.amount
        from_owed[debt.payee] += debt.amount
    assert from_owed == found
    pairs = [frozenset((d.payer, d.payee)) for d in owed(obligations, payments)]
    assert len(set(pairs)) == len(pairs)
    assert _apply(found, settle_up(found).payments) == dict.fromkeys(found, D(0))


@SETTINGS
@given(rows(), st.integers(0, 5))
def test_mark_then_unmark_restores_every_balance_and_a_second_mark_adds_nothing(ledger_rows, which):
    obligations, payments = ledger_rows
    if not obligations:
        return
    obligation = obligations[which % len(obligations)]
    unmarked = [*payments, *unmark(obligation, payments, back)]
    mark = mark_paid(obligation, unmarked, "new")
    marked = [*unmarked, *([mark] if mark else [])]
    assert open_amount(obligation, marked) <= 0
    assert status(obligation, marked) is ObligationStatus.PAID
    assert mark_paid(obligation, marked, "again") is None
    restored = [*marked, *unmark(obligation, marked, back)]
    assert balances(obligations, restored) == balances(obligations, unmarked)
    assert paid(obligation, restored) == paid(obligation, unmarked)
