"""The ledger's use cases as a state machine (hypothesis): frozen pulkas arrive and are reopened, payments are
made and taken back, obligations marked paid and unmarked, the settle-up recorded; after every step the
balances of each currency sum to 0 and equal a recomputation from the rows, written here independently, and
who owes is read from them (docs/club.md §3); after a settle-up nothing is owed and every obligation is paid or
settled."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from scorekeeper.engine import Obligation, PaymentKind
from scorekeeper.web.domain.ledger import Ledger, MarkPaid, ObligationRow, RecordSettleUp, TakeBack, read_payment
from scorekeeper.web.services import ledger as service

from ..fakes import FakeLedger
from engine.test_ledger import _brute_force_fewest as brute_force_fewest

PLAYERS = tuple("abcdefg")
CURRENCIES = ("₽", "€")
ACCOUNT, BY = 1, "owner"
cents = st.integers(1, 5000).map(lambda c: Decimal(c).scaleb(-2))
pair = st.tuples(st.sampled_from(PLAYERS), st.sampled_from(PLAYERS)).filter(lambda p: p[0] != p[1])


def recomputed(repo: FakeLedger, currency: str) -> dict[str, Decimal]:
    """Obligations to him − from him − payments received + payments made; a reversal counts as minus."""
    total: dict[str, Decimal] = {}
    for e in repo.obligations:
        o = e.obligation
        if o.currency == currency:
            total[o.creditor] = total.get(o.creditor, Decimal(0)) + o.amount
            total[o.debtor] = total.get(o.debtor, Decimal(0)) - o.amount
    for r in repo.payments:
        p = r.payment
        if p.currency == currency:
            sign = -1 if p.kind is PaymentKind.REVERSAL else 1
            total[p.payer] = total.get(p.payer, Decimal(0)) + sign * p.amount
            total[p.payee] = total.get(p.payee, Decimal(0)) - sign * p.amount
    return {k: v for k, v in total.items()}


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.repo = FakeLedger(PLAYERS, CURRENCIES)  # the account's pulkas play for both
        self.pulkas = 0

    def balances(self, currency: str) -> dict[str, Decimal]:
        return dict(service.ledger(self.repo, ACCOUNT, currency).balances)

    @rule(transfers=st.lists(st.tuples(pair, cents), min_size=1, max_size=3), currency=st.sampled_from(CURRENCIES))
    def a_pulka_freezes(self, transfers, currency):
        self.pulkas += 1
        pulka = f"p{self.pulkas}"
        at = datetime(2026, 11, 1, tzinfo=timezone.utc) + timedelta(hours=self.pulkas)
        for i, ((debtor, creditor), amount) in enumerate(transfers):
            self.repo.obligations.append(ObligationRow(Obligation(f"{pulka}-{i}", pulka, debtor, creditor, amount,
                                                                  currency), pulka, date(2026, 11, 1), at, True))

    @precondition(lambda self: self.repo.obligations)
    @rule(data=st.data())
    def a_pulka_is_reopened(self, data):
        pulka = data.draw(st.sampled_from(sorted({e.obligation.pulka for e in self.repo.obligations})))
        self.repo.obligations = [e for e in self.repo.obligations if e.obligation.pulka != pulka]

    @rule(ends=pair, amount=cents, currency=st.sampled_from(CURRENCIES))
    def a_payment(self, ends, amount, currency):
        service.pay(self.repo, ACCOUNT, read_payment({"from": ends[0], "to": ends[1], "amount": str(amount),
                                                      "currency": currency}), BY)

    @precondition(lambda self: self.repo.payments)
    @rule(data=st.data())
    def a_payment_taken_back(self, data):
        row = data.draw(st.sampled_from([r for r in self.repo.payments if r.payment.kind is not PaymentKind.REVERSAL]
                                        or self.repo.payments))
        if row.payment.kind is PaymentKind.REVERSAL:
            return
        first = service.take_back(self.repo, ACCOUNT, TakeBack(row.payment.id), BY)
        after = self.balances(row.payment.currency)
        assert service.take_back(self.repo, ACCOUNT, TakeBack(row.payment.id), BY) == first  # twice: once
        assert self.balances(row.payment.currency) == after

    @precondition(lambda self: self.repo.obligations)
    @rule(data=st.data(), keep=st.booleans())
    def a_mark(self, data, keep):
        entry = data.draw(st.sampled_from(self.repo.obligations))
        currency = entry.obligation.currency
        before = self.balances(currency)
        marked = service.mark(self.repo, ACCOUNT, MarkPaid(entry.obligation.id), BY)
        once = self.balances(currency)
        assert service.mark(self.repo, ACCOUNT, MarkPaid(entry.obligation.id), BY) == marked  # a second mark: nothing
        assert self.balances(currency) == once
        assert marked.paid >= entry.obligation.amount
        if not keep:
            service.mark(self.repo, ACCOUNT, MarkPaid(entry.obligation.id, paid=False), BY)
            unmarked = self.balances(currency)
            if once != before:  # this mark paid it (no earlier one did): unmarking restores every balance, a
                # player the mark brought in staying listed at what he had, 0
                assert {p: v for p, v in unmarked.items() if v or p in before} == before

    @rule(currency=st.sampled_from(CURRENCIES))
    def the_settle_up_recorded(self, currency):
        book = service.ledger(self.repo, ACCOUNT, currency)
        suggested = book.settle_up.payments
        nonzero = [v for v in book.balances.values() if v]
        assert len(suggested) <= max(len(nonzero) - 1, 0)
        if len(nonzero) <= 8:
            assert len(suggested) == brute_force_fewest([int(v.scaleb(2)) for v in nonzero])
        service.settle(self.repo, ACCOUNT, RecordSettleUp(currency), BY)
        assert set(self.balances(currency).values()) <= {Decimal(0)}
        after = service.ledger(self.repo, ACCOUNT, currency)
        assert after.owed == ()
        assert {line.status.value for line in after.lines} <= {"paid", "settled"}
        assert all(line.open == 0 for line in after.lines)

    @invariant()
    def balances_sum_to_zero_and_equal_the_rows(self):
        for currency in CURRENCIES:
            balances = self.balances(currency)
            assert sum(balances.values(), Decimal(0)) == 0
            assert balances == recomputed(self.repo, currency)
            book = Ledger.of(self.repo.rows(ACCOUNT), currency)
            # who owes is each player below 0, owing minus his balance; nobody else
            assert {o.player: o.amount for o in book.owed} == {p: -v for p, v in balances.items() if v < 0}
            for debt in book.owed:  # since: the end of his oldest obligation's pulka with an open part
                still = [line.entry.ended for line in book.lines
                         if line.entry.obligation.debtor == debt.player and line.open > 0]
                assert debt.since == (min(still) if still else None)


LedgerMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=25, deadline=None)
test_the_ledger = LedgerMachine.TestCase
