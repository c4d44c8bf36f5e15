"""engine/ledger.py: the club ledger's arithmetic (docs/club.md §3), by hand and against a brute force. Who owes is
read from the balances, never pair by pair; each obligation's open part and status from its debtor's rows."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.engine import ledger
from scorekeeper.engine.ledger import (
    Obligation, ObligationStatus, Owed, Payment, PaymentKind, Transfer, balances, ledger_standing, mark_paid, paid,
    reversal, settle_up, unmark,
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


# ---- balances, paid, who owes, open and status -------------------------------------------------------------

# Two evenings: Boris owes Anna 10, Vera owes Anna 4 and Boris 6; Boris pays 4 on his debt, Vera 6 on no
# obligation, and a payment of Anna's to Vera is taken back.
OBLIGATIONS = [ob("o1", "boris", "anna", "10.00"), ob("o2", "vera", "anna", "4.00", "k2"),
               ob("o3", "vera", "boris", "6.00", "k2")]
ENDED = {"k1": 1, "k2": 2}  # when each pulka ended: k1 first
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


def states(obligations, payments, ended=None):
    """{obligation id: (paid, open, status)} and the owed list, as ledger_standing finds them."""
    found = ledger_standing(obligations, payments, ENDED if ended is None else ended)
    return {o.obligation.id: (o.paid, o.open, o.status) for o in found.obligations}, found.owed


S = ObligationStatus


def test_paid_open_and_status_by_hand():
    found, owed = states(OBLIGATIONS, PAYMENTS)
    # Boris: 10 − 4 paid = 6 open; C = −6 + 6 = 0 (nothing else of his): 6 stays open
    # Vera: 4 and 6 open; C = 6 paid on no obligation (Anna's 2.50 and its reversal cancel) closes the oldest
    # first, both of k2, so by id: o2 (4) settled, 2 of o3, 4 left
    assert found == {"o1": (D("4.00"), D("6.00"), S.PART), "o2": (D("0.00"), D("0.00"), S.SETTLED),
                     "o3": (D("0.00"), D("4.00"), S.PART)}
    assert owed == (Owed("boris", D("6.00"), 1), Owed("vera", D("4.00"), 2))


def test_an_overpaid_obligation_is_paid_and_what_is_over_covers_his_others():
    # d owes c 10 twice; 15 paid on the first: it is paid, its 5 over close 5 of the second
    obligations = [ob("o1", "d", "c", "10"), ob("o2", "d", "c", "10", "k2")]
    over = [pay("p1", "d", "c", "3.00", "o1"), pay("p2", "d", "c", "12.00", "o1")]
    assert states(obligations, over) == ({"o1": (D("15.00"), D("0.00"), S.PAID),
                                          "o2": (D("0.00"), D("5.00"), S.PART)}, (Owed("d", D("5.00"), 2),))
    taken_back = [over[0], reversal(over[0], "r1")]
    assert states(obligations, taken_back)[0]["o1"] == (D("0.00"), D("10.00"), S.OPEN)


def test_vera_pays_dima_what_she_owed_boris():
    """Вера owes Борис 50 (the first evening), Борис owes Дима 50 (the second); Вера pays Дима 50, on no
    obligation. Every balance is 0: nothing is owed, though no pair paid each other what it owed."""
    obligations = [ob("o1", "Вера", "Борис", "50", "k1"), ob("o2", "Борис", "Дима", "50", "k2")]
    payments = [pay("p1", "Вера", "Дима", "50")]
    assert balances(obligations, payments) == {"Борис": D("0.00"), "Вера": D("0.00"), "Дима": D("0.00")}
    # Вера: C = 50 paid on no obligation; Борис: C = 50 owed to him: each closes his one obligation
    assert states(obligations, payments) == ({"o1": (D("0.00"), D("0.00"), S.SETTLED),
                                              "o2": (D("0.00"), D("0.00"), S.SETTLED)}, ())
    assert settle_up(balances(obligations, payments)).payments == ()


def test_vera_pays_dima_part_of_what_she_owed_boris():
    """As above with 30 paid: Вера still owes 20, since the first evening; Борис owes nothing; Дима is owed 20."""
    obligations = [ob("o1", "Вера", "Борис", "50", "k1"), ob("o2", "Борис", "Дима", "50", "k2")]
    payments = [pay("p1", "Вера", "Дима", "30")]
    assert balances(obligations, payments) == {"Борис": D("0.00"), "Вера": D("-20.00"), "Дима": D("20.00")}
    assert states(obligations, payments) == ({"o1": (D("0.00"), D("20.00"), S.PART),
                                              "o2": (D("0.00"), D("0.00"), S.SETTLED)},
                                             (Owed("Вера", D("20.00"), 1),))
    assert settle_up(balances(obligations, payments)).payments == (Transfer("Вера", "Дима", D("20.00")),)


def test_paid_more_than_he_was_owed_leaves_his_obligations_open():
    """C < 0: Дима owes Борис 10 (4 paid on it) and was paid 30 by Вера on no obligation: C = 0 owed to him
    − 30 received = −30, so nothing closes: 6 stays open on the obligation, the other 30 owed on none."""
    obligations = [ob("o1", "Дима", "Борис", "10")]
    payments = [pay("p1", "Дима", "Борис", "4.00", "o1"), pay("p2", "Вера", "Дима", "30")]
    assert states(obligations, payments) == ({"o1": (D("4.00"), D("6.00"), S.PART)}, (Owed("Дима", D("36.00"), 1),))
    assert states(obligations, payments[1:])[0] == {"o1": (D("0.00"), D("10.00"), S.OPEN)}


def test_one_who_owes_on_no_obligation_owes_since_nothing():
    assert states([], [pay("p1", "boris", "vera", "15")]) == ({}, (Owed("vera", D("15.00"), None),))
    assert states([], []) == ({}, ())


def test_his_other_rows_close_his_obligations_oldest_first_by_pulka_then_id():
    """Three obligations of d; 12 owed to him closes the oldest first: by when their pulka ended, then by id as
    the API writes it (numbers numerically, text by code point)."""
    numbers = [Obligation(10, "late", "d", "c", D(5), "RUB"), Obligation(2, "late", "d", "c", D(5), "RUB"),
               Obligation(30, "early", "d", "c", D(5), "RUB")]
    credit = [Obligation(1, "early", "x", "d", D(12), "RUB")]
    found = ledger_standing(numbers + credit, [], {"early": 1, "late": 2})
    # 30 (early) closes first, then 2 before 10 (numerically): 5, 5, then 2 of 10's 5
    assert [(o.obligation.id, o.open, o.status) for o in found.obligations[:3]] == [
        (10, D("3.00"), S.PART), (2, D("0.00"), S.SETTLED), (30, D("0.00"), S.SETTLED)]
    assert Owed("d", D("3.00"), 2) in found.owed
    texts = [ob("10", "d", "c", "5", "late"), ob("2", "d", "c", "5", "late"), ob("x", "x", "d", "7", "late")]
    found = ledger_standing(texts, [], {"late": 1})
    # by code point "10" < "2": 10 closes first
    assert [(o.obligation.id, o.open) for o in found.obligations[:2]] == [("10", D("0.00")), ("2", D("3.00"))]


def test_since_is_the_end_of_the_pulka_of_his_oldest_obligation_with_an_open_part():
    obligations = [ob("o1", "d", "c", "5", "k1"), ob("o2", "d", "c", "5", "k2"), ob("o3", "d", "c", "5", "k3")]
    ended = {"k1": 1, "k2": 2, "k3": 3}
    assert ledger_standing(obligations, [], ended).owed == (Owed("d", D("15.00"), 1),)
    assert ledger_standing(obligations, [pay("p", "d", "c", "5", "o1")], ended).owed == (Owed("d", D("10.00"), 2),)
    # 7 on no obligation: k1 settled, 2 of k2's 5: still open since k2
    assert ledger_standing(obligations, [pay("p", "d", "c", "7")], ended).owed == (Owed("d", D("8.00"), 2),)
    assert ledger_standing(obligations, [pay("p", "d", "c", "10")], ended).owed == (Owed("d", D("5.00"), 3),)
    assert ledger_standing(obligations, [pay("p", "d", "c", "15")], ended).owed == ()


def test_marking_paid_pays_what_is_open_once():
    o1 = OBLIGATIONS[0]
    mark = mark_paid(o1, PAYMENTS, "m1")
    assert mark == Payment("m1", "boris", "anna", D("6.00"), "RUB", "o1", kind=PaymentKind.MARK)
    assert mark_paid(o1, [*PAYMENTS, mark], "m2") is None
    assert states(OBLIGATIONS, [*PAYMENTS, mark])[0]["o1"] == (D("10.00"), D("0.00"), ObligationStatus.PAID)


def test_a_mark_pays_amount_less_paid_even_where_other_rows_cover_some_of_it():
    """docs/club.md §3: a paid mark pays amount − paid. Vera's o3 is 4 open (her 6 on no obligation closed o2 and
    2 of it), yet the mark pays its whole 6: o3 was paid to Boris as such, so her other 6 to him is over what she
    owed: she is owed 2, and Boris owes 12 (6 open on o1, 6 on no obligation: C = −6 < 0)."""
    o3 = OBLIGATIONS[2]
    mark = mark_paid(o3, PAYMENTS, "m1")
    assert mark is not None and mark.amount == D("6.00")
    found, owed = states(OBLIGATIONS, [*PAYMENTS, mark])
    assert found["o3"] == (D("6.00"), D("0.00"), ObligationStatus.PAID)
    assert found["o2"] == (D("0.00"), D("0.00"), ObligationStatus.SETTLED)  # C = 6 still covers her 4
    assert found["o1"] == (D("4.00"), D("6.00"), ObligationStatus.PART)
    assert owed == (Owed("boris", D("12.00"), 1),)
    settled = ledger_standing([ob("o", "a", "b", "5")], [pay("p", "a", "b", "5")], {"k1": 1})
    assert settled.obligations[0].status is ObligationStatus.SETTLED
    assert mark_paid(settled.obligations[0].obligation, [pay("p", "a", "b", "5")], "m").amount == D("5.00")


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
PULKAS = {"k1": 3, "k2": 1, "k3": 2}  # when each ended: not in the order of their ids


@st.composite
def rows(draw: st.DrawFn) -> tuple[list[Obligation[str, str]], list[Payment[str, str]]]:
    """Any rows: payments on any obligation (listed or not), by anyone, over or under what it is."""
    obligations = [ob(f"o{i}", a, b, str(D(c).scaleb(-2)), pulka) for i, ((a, b), c, pulka) in enumerate(draw(
        st.lists(st.tuples(pair, st.integers(1, 10**5), st.sampled_from(sorted(PULKAS))), max_size=6)))]
    payments: list[Payment[str, str]] = []
    for i, ((a, b), c, on, kind) in enumerate(draw(st.lists(st.tuples(
            pair, st.integers(1, 10**5), st.none() | st.integers(0, 7), st.sampled_from([PaymentKind.PAYMENT,
                                                                                        PaymentKind.MARK])),
            max_size=8))):
        payments.append(pay(f"p{i}", a, b, str(D(c).scaleb(-2)), None if on is None else f"o{on}", kind))
    taken_back = draw(st.sets(st.integers(0, max(len(payments) - 1, 0)))) if payments else set()
    payments += [reversal(payments[i], f"r{i}") for i in sorted(taken_back)]
    return obligations, draw(st.permutations(payments))


@st.composite
def honest_rows(draw: st.DrawFn) -> tuple[list[Obligation[str, str]], list[Payment[str, str]]]:
    """Rows as the app makes them: a payment on an obligation is its debtor's, to its creditor, of at most what
    its own payments left; any payment on none."""
    obligations, _ = draw(rows())
    payments: list[Payment[str, str]] = []
    for i, o in enumerate(obligations):
        cents = int(o.amount.scaleb(2))
        part = draw(st.integers(0, cents))
        if part:
            payments.append(pay(f"l{i}", o.debtor, o.creditor, str(D(part).scaleb(-2)), o.id))
    for i, ((a, b), c) in enumerate(draw(st.lists(st.tuples(pair, st.integers(1, 10**5)), max_size=5))):
        payments.append(pay(f"n{i}", a, b, str(D(c).scaleb(-2))))
    return obligations, draw(st.permutations(payments))


def contract_cover(player: str, obligations, payments) -> Decimal:
    """docs/club.md §3's C, word for word: payments he made on no obligation (or on one not listed) +
    obligations others owe him − payments he received."""
    listed = {o.id for o in obligations}
    made = sum((p.amount if p.kind is not PaymentKind.REVERSAL else -p.amount for p in payments
                if p.payer == player and p.obligation not in listed), D(0))
    owed_to = sum((o.amount for o in obligations if o.creditor == player), D(0))
    received = sum((p.amount if p.kind is not PaymentKind.REVERSAL else -p.amount for p in payments
                    if p.payee == player), D(0))
    return made + owed_to - received


def _check_standing(obligations, payments) -> None:
    found = ledger_standing(obligations, payments, PULKAS)
    assert found.balances == balances(obligations, payments) and sum(found.balances.values()) == 0
    assert [o.obligation for o in found.obligations] == obligations
    by_id = {o.obligation.id: o for o in found.obligations}
    for o in found.obligations:
        assert o.paid == paid(o.obligation, payments)
        assert D(0) <= o.open <= max(D(0), o.obligation.amount - o.paid)
        expected = (S.PAID if o.paid >= o.obligation.amount else S.SETTLED if o.open == 0 else
                    S.OPEN if o.open == o.obligation.amount else S.PART)
        assert o.status is expected
    assert [w.player for w in found.owed] == [p for p, v in found.balances.items() if v < 0]
    for debt in found.owed:
        assert debt.amount == -found.balances[debt.player]
        theirs = sorted((o for o in obligations if o.debtor == debt.player), key=lambda o: (PULKAS[o.pulka], o.id))
        still = [o for o in theirs if by_id[o.id].open > 0]
        assert debt.since == (PULKAS[still[0].pulka] if still else None)
        # the oldest are closed first: an open one has none younger closed by the rest of his rows
        opens = [by_id[o.id].open for o in theirs]
        firsts = [i for i, v in enumerate(opens) if v > 0]
        if firsts:
            assert all(by_id[o.id].open == max(D(0), o.amount - by_id[o.id].paid) for o in theirs[firsts[0] + 1:])
    for player, balance in found.balances.items():
        if balance >= 0:
            assert all(by_id[o.id].open == 0 for o in obligations if o.debtor == player)


@SETTINGS
@given(rows())
def test_any_rows_stand_as_the_contract_says(ledger_rows):
    _check_standing(*ledger_rows)


@SETTINGS
@given(rows(), st.randoms(use_true_random=False))
def test_the_standing_is_the_same_for_the_rows_in_any_order(ledger_rows, rng):
    obligations, payments = ledger_rows
    found = ledger_standing(obligations, payments, PULKAS)
    shuffled = list(obligations)
    rng.shuffle(shuffled)
    again = ledger_standing(shuffled, payments[::-1], PULKAS)
    assert (again.balances, again.owed) == (found.balances, found.owed)
    assert {o.obligation.id: o for o in again.obligations} == {o.obligation.id: o for o in found.obligations}


@SETTINGS
@given(honest_rows())
def test_the_open_parts_add_up_to_what_he_owes_whenever_his_other_rows_cover_nothing_negative(ledger_rows):
    """Σ open of a debtor's obligations = max(0, −balance) whenever C ≥ 0 (C as the contract words it); when
    C < 0, each keeps amount − paid open."""
    obligations, payments = ledger_rows
    found = ledger_standing(obligations, payments, PULKAS)
    for player, balance in found.balances.items():
        theirs = [o for o in found.obligations if o.obligation.debtor == player]
        cover = contract_cover(player, obligations, payments)
        if cover >= 0:
            assert sum((o.open for o in theirs), D(0)) == max(D(0), -balance)
        else:
            assert all(o.open == o.obligation.amount - o.paid for o in theirs)
    _check_standing(obligations, payments)


@SETTINGS
@given(st.one_of(rows(), honest_rows()))
def test_after_a_complete_settle_up_nothing_is_owed_and_every_obligation_is_paid_or_settled(ledger_rows):
    obligations, payments = ledger_rows
    found = balances(obligations, payments)
    suggested = settle_up(found).payments
    settled = [*payments, *(pay(f"s{i}", t.payer, t.payee, str(t.amount)) for i, t in enumerate(suggested))]
    after = ledger_standing(obligations, settled, PULKAS)
    assert set(after.balances.values()) <= {D(0)} and after.owed == ()
    assert all(o.status in (S.PAID, S.SETTLED) and o.open == 0 for o in after.obligations)


@SETTINGS
@given(rows(), st.integers(0, 5))
def test_mark_then_unmark_restores_every_balance_and_a_second_mark_adds_nothing(ledger_rows, which):
    obligations, payments = ledger_rows
    if not obligations:
        return
    obligation = obligations[which % len(obligations)]
    unmarked = [*payments, *unmark(obligation, payments, back)]
    mark = mark_paid(obligation, unmarked, "new")
    if mark is not None:  # what it pays is amount − paid, whatever his other rows cover
        assert mark.amount == obligation.amount - paid(obligation, unmarked)
    marked = [*unmarked, *([mark] if mark else [])]
    state = next(o for o in ledger_standing(obligations, marked, PULKAS).obligations if o.obligation == obligation)
    assert (state.status, state.open) == (ObligationStatus.PAID, D(0))
    assert mark_paid(obligation, marked, "again") is None
    restored = [*marked, *unmark(obligation, marked, back)]
    assert balances(obligations, restored) == balances(obligations, unmarked)
    assert paid(obligation, restored) == paid(obligation, unmarked)
