"""The club ledger (docs/club.md §3-§4): an account's ledger in one currency; payments, their reversals, paid marks
taken back, the suggested settle-up recorded (of everyone, or of one table's players); and where a pulka's
players stand in it now.

Only the circle's owner writes: payments between his own players, marks on the obligations of his own pulkas.
Every write reads, under the ledger's lock, the rows it decides from and no others (the payments on one
obligation, the balances summed by the database), so that a mark sent twice pays once, and a write on a ledger
of thousands of rows holds the lock no longer than on one of ten."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from decimal import Decimal
from typing import Protocol

from ...engine import Payment, PaymentKind, mark_paid, reversal, unmark
from ...i18n.words import Msg
from ..domain.balances import Balances, TableStanding, line_among
from ..domain.ledger import (Ledger, Line, MarkPaid, ObligationRow, RecordPayment, RecordSettleUp, Row, Rows,
                             TakeBack, check_ends, payment_currency, read_currency)
from ..domain.players import Player
from ..domain.refusals import ErrorCode, Forbidden, NotFound, Refused

DRAFT = "new"  # the id of a payment not yet stored (the store gives it its own)


class LedgerWrite(Protocol):
    """One write's view of the ledger, under its lock: each load reads only what it names. A payment is counted
    as the ledger counts it (the account's own, and those of the pulkas shared with it made on their obligations);
    what `add` stored is counted by every load after it."""

    @property
    def players(self) -> Mapping[str, Player]:
        """The players of the circle, by id (a merged one as the one he is merged into)."""

    def obligation(self, id: str) -> ObligationRow | None:
        """The obligation of a frozen pulka the account reads, by id."""

    def obligations(self, currency: str) -> Sequence[ObligationRow]:
        """Every obligation of the currency."""

    def payment(self, id: str) -> Row | None: ...

    def reversal_of(self, id: str) -> Row | None:
        """The row that took the payment back, if one did."""

    def on(self, obligation: ObligationRow) -> Sequence[Row]:
        """The payments linked to the obligation, in its currency, the oldest first."""

    def paid_on(self, currency: str, obligations: Collection[str]) -> Mapping[str, Decimal]:
        """What the payments linked to each of these obligations paid, less their reversals (by id; none: absent)."""

    def paid_net(self, currency: str, players: Collection[str] | None = None) -> Mapping[str, Decimal]:
        """What each player (of `players`, or all) paid in the currency less what he received, reversals counted
        as minus: by player, each one on a payment listed, even at 0."""

    def currencies(self) -> Collection[str]:
        """The currencies of the ledger (its obligations' and payments') and those the account's own pulkas play
        for, finished or not."""

    def add(self, payment: Payment[str, str], note: str = "") -> Row: ...


class LedgerRepository(Protocol):
    def rows(self, account_id: int) -> Rows:
        """The account's ledger rows, every currency."""

    def writing(self, account_id: int, by: str) -> AbstractContextManager[LedgerWrite]:
        """One write, under the ledger's lock (in the unit of work's transaction)."""

    def seated(self, account_id: int, pulka: str) -> tuple[str, ...]:
        """The ids of the players of one of the account's readable pulkas, by seat (NotFound otherwise)."""


def ledger(repository: LedgerRepository, account_id: int, currency: str | None = None) -> Ledger:
    """The ledger in `currency`; none asked for: in the one used last. A currency of the ledger is looked up as
    it is spelled there (one kept before the short-text rule too); any other is read as a currency."""
    rows = repository.rows(account_id)
    held = rows.currencies()
    if currency is None:
        return rows.ledger(next(iter(held), ""))
    return rows.ledger(currency if currency in held else read_currency(currency))


def pay(repository: LedgerRepository, account_id: int, command: RecordPayment, by: str) -> Row:
    """A payment between two of the caller's own players, in a currency of his ledger or of his pulkas
    (domain.ledger.payment_currency), on one of his obligations in it or on none."""
    with repository.writing(account_id, by) as write:
        check_ends(command, write.players)
        currency = payment_currency(command.currency, write.currencies())
        if command.obligation is not None:
            entry = write.obligation(command.obligation)
            if entry is None or entry.obligation.currency != currency:
                raise Refused(Msg("obligation is the id of an obligation in this currency, or null"), "obligation")
            _own(entry.own)
        return write.add(Payment(DRAFT, command.payer, command.payee, command.amount, currency, command.obligation),
                         command.note)


def take_back(repository: LedgerRepository, account_id: int, command: TakeBack, by: str) -> Row:
    """The reversal of the payment: added, or the one that took it back already (nothing changes)."""
    payment = command.payment
    with repository.writing(account_id, by) as write:
        row = write.payment(payment)
        if row is None or not row.own:
            raise NotFound("payment")
        if row.payment.kind is PaymentKind.REVERSAL:
            raise Refused(Msg("a reversal is not taken back: record the payment again"), "id",
                          code=ErrorCode.NOT_REVERSIBLE)
        return write.reversal_of(payment) or write.add(reversal(row.payment, DRAFT), row.note)


def mark(repository: LedgerRepository, account_id: int, command: MarkPaid, by: str) -> Line:
    """Pay amount − paid on the obligation (`paid`), or take back what its paid marks paid; either twice
    changes nothing the second time. The line answered stands among every row of its currency: its debtor's
    balance and what is paid on each of his obligations, as the database sums them after the write."""
    with repository.writing(account_id, by) as write:
        entry = write.obligation(command.obligation)
        if entry is None:
            raise NotFound("obligation")
        _own(entry.own)
        o = entry.obligation
        on_it = list(write.on(entry))
        payments = [r.payment for r in on_it]
        if command.paid:
            made = mark_paid(o, payments, DRAFT)
            added = [write.add(made)] if made is not None else []
        else:
            added = [write.add(r) for r in unmark(o, payments, lambda _: DRAFT)]
        his = [e for e in write.obligations(o.currency) if o.debtor in (e.obligation.debtor, e.obligation.creditor)]
        theirs = [e for e in his if e.obligation.debtor == o.debtor]
        balance = Balances.of(o.currency, write.players, his, write.paid_net(o.currency, [o.debtor]))
        return line_among(entry, on_it + added, balance.balances[o.debtor], theirs,
                          write.paid_on(o.currency, [e.obligation.id for e in theirs]))


def settle(repository: LedgerRepository, account_id: int, command: RecordSettleUp, by: str) -> tuple[Row, ...]:
    """Record the suggested settle-up as payments, each with the `note`: after it every balance of the
    currency is 0 (in a `cash` unit: less than the unit, what its rounding left). With a `pulka`: the
    settle-up of its players alone, refused unless they owe only each other (docs/club.md §4)."""
    seats = None if command.pulka is None else repository.seated(account_id, command.pulka)
    with repository.writing(account_id, by) as write:
        paid = write.paid_net(command.currency)  # first: a player only a payment names is one of `players` then
        players = write.players
        book = Balances.of(command.currency, players, write.obligations(command.currency), paid)
        if seats is None:
            suggested = book.settle_up(command.cash).payments
        else:
            table = TableStanding(book, tuple(dict.fromkeys(seats)), datetime.now(timezone.utc))
            if not table.among_themselves:
                raise Refused(Msg("the players of this pulka owe others too: settle up in the ledger"), "pulka")
            suggested = table.settle_up(command.cash).payments
        if not all(players[p.payer].own and players[p.payee].own for p in suggested):
            raise Forbidden(Msg("the settle-up moves money between players of another's circle: their owner "
                                "records it"))
        return tuple(write.add(Payment(DRAFT, p.payer, p.payee, p.amount, command.currency), command.note)
                     for p in suggested)


def at_the_table(repository: LedgerRepository, account_id: int, pulka: str, currency: str) -> TableStanding:
    """Where the players of a pulka the account may read stand in its ledger now, in `currency`."""
    seats = repository.seated(account_id, pulka)
    return TableStanding(ledger(repository, account_id, currency), tuple(dict.fromkeys(seats)),
                         datetime.now(timezone.utc))


def _own(own: bool) -> None:
    if not own:
        raise Forbidden(Msg("the ledger lines of a pulka shared with you are its owner's to mark"))
