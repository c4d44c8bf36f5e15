"""The club ledger (docs/club.md §3-§4): an account's ledger in one currency; payments, their reversals, paid marks
taken back, the suggested settle-up recorded (of everyone, or of one table's players); and where a pulka's
players stand in it now.

Only the circle's owner writes: payments between his own players, marks on the obligations of his own pulkas.
Every write reads the rows under the ledger's lock and decides from them, so a mark sent twice pays once."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime, timezone
from typing import Protocol

from ...engine import Payment, PaymentKind, mark_paid, reversal, unmark
from ...i18n.words import Msg
from ..domain.ledger import (Ledger, Line, MarkPaid, RecordPayment, RecordSettleUp, Row, Rows, TableStanding,
                             TakeBack, check_ends, payment_currency, read_currency)
from ..domain.refusals import ErrorCode, Forbidden, NotFound, Refused

DRAFT = "new"  # the id of a payment not yet stored (the store gives it its own)


class LedgerWrite(Protocol):
    @property
    def rows(self) -> Rows: ...

    def add(self, payment: Payment[str, str], note: str = "") -> Row: ...

    def pulka_currencies(self) -> frozenset[str]:
        """The currencies the account's own pulkas play for, finished or not."""


class LedgerRepository(Protocol):
    def rows(self, account_id: int) -> Rows:
        """The account's ledger rows, every currency."""

    def writing(self, account_id: int, by: str) -> AbstractContextManager[LedgerWrite]:
        """One write, under the ledger's lock, with the rows as they stand (in the unit of work's transaction)."""

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
        check_ends(command, write.rows.players)
        currency = payment_currency(command.currency, {*write.rows.currencies(), *write.pulka_currencies()})
        if command.obligation is not None:
            entry = write.rows.obligation(command.obligation)
            if entry is None or entry.obligation.currency != currency:
                raise Refused(Msg("obligation is the id of an obligation in this currency, or null"), "obligation")
            _own(entry.own)
        return write.add(Payment(DRAFT, command.payer, command.payee, command.amount, currency, command.obligation),
                         command.note)


def take_back(repository: LedgerRepository, account_id: int, command: TakeBack, by: str) -> Row:
    """The reversal of the payment: added, or the one that took it back already (nothing changes)."""
    payment = command.payment
    with repository.writing(account_id, by) as write:
        row = write.rows.payment(payment)
        if row is None or not row.own:
            raise NotFound("payment")
        if row.payment.kind is PaymentKind.REVERSAL:
            raise Refused(Msg("a reversal is not taken back: record the payment again"), "id",
                          code=ErrorCode.NOT_REVERSIBLE)
        done = next((r for r in write.rows.payments if r.payment.reverses == payment), None)
        return done or write.add(reversal(row.payment, DRAFT), row.note)


def mark(repository: LedgerRepository, account_id: int, command: MarkPaid, by: str) -> Line:
    """Pay amount − paid on the obligation (`paid`), or take back what its paid marks paid; either twice
    changes nothing the second time. The line answered stands among every row of its currency."""
    with repository.writing(account_id, by) as write:
        entry = write.rows.obligation(command.obligation)
        if entry is None:
            raise NotFound("obligation")
        _own(entry.own)
        o = entry.obligation
        _, payments = write.rows.in_currency(o.currency)
        on_it = [p for p in payments if p.obligation == o.id]
        if command.paid:
            made = mark_paid(o, on_it, DRAFT)
            added = [write.add(made)] if made is not None else []
        else:
            added = [write.add(r) for r in unmark(o, on_it, lambda _: DRAFT)]
        line = Ledger.of(write.rows.with_payments(added), o.currency).line(o.id)
        assert line is not None  # the obligation is a row of its currency
        return line


def settle(repository: LedgerRepository, account_id: int, command: RecordSettleUp, by: str) -> tuple[Row, ...]:
    """Record the suggested settle-up as payments, each with the `note`: after it every balance of the
    currency is 0 (in a `cash` unit: less than the unit, what its rounding left). With a `pulka`: the
    settle-up of its players alone, refused unless they owe only each other (docs/club.md §4)."""
    seats = None if command.pulka is None else repository.seated(account_id, command.pulka)
    with repository.writing(account_id, by) as write:
        book = Ledger.of(write.rows, command.currency)
        if seats is None:
            suggested = book.settle_up_in(command.cash).payments
        else:
            table = TableStanding(book, tuple(dict.fromkeys(seats)), datetime.now(timezone.utc))
            if not table.among_themselves:
                raise Refused(Msg("the players of this pulka owe others too: settle up in the ledger"), "pulka")
            suggested = table.settle_up(command.cash).payments
        players = write.rows.players
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
