"""What the ledger's page and file show: one currency's balances by name, who owes whom since when, every
obligation with its pulka and status, every payment; the same rows as CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from ...engine import SettleUp, Transfer
from ...render.text import amount
from ..domain.ledger import Carried, Ledger, Line, Row


@dataclass(frozen=True)
class Owing:
    debtor: str
    creditor: str
    amount: Decimal
    since: date | None  # the oldest obligation still open between the two


@dataclass(frozen=True)
class LedgerPage:
    ledger: Ledger
    balances: tuple[tuple[str, str, Decimal], ...]  # (id, name, amount), by name
    owing: tuple[Owing, ...]
    lines: tuple[Line, ...]
    payments: tuple[Row, ...]
    writable: tuple[tuple[str, str], ...]  # the own players a payment may be between: (id, name)
    cut: bool  # only the latest SHOWN obligations and payments are listed
    settled: SettleUp[str]  # the suggested settle-up, in the cash unit if one is chosen
    cash: Decimal | None


# A club's ledger grows by a few rows an evening: the page lists the latest ones (everything on asking, and the
# balances and who owes whom always count every row).
SHOWN = 50


def page(book: Ledger, everything: bool = False, cash: Decimal | None = None) -> LedgerPage:
    balances = tuple(sorted(((p, book.name(p), v) for p, v in book.balances.items()),
                            key=lambda b: b[1].casefold()))
    writable = tuple(sorted(((p.id, p.name) for p in book.players.values() if p.own), key=lambda p: p[1].casefold()))
    most = None if everything else SHOWN
    return LedgerPage(book, balances, tuple(owing(book, d) for d in book.owed), book.lines[:most],
                      book.payments[:most], writable, max(len(book.lines), len(book.payments)) > (most or 0) > 0,
                      book.settle_up_in(cash), cash)


def owing(book: Ledger, debt: Transfer[str]) -> Owing:
    return Owing(book.name(debt.payer), book.name(debt.payee), debt.amount, book.since(debt))


@dataclass(frozen=True)
class CarryOver:
    """What a pulka's players owed each other before it, and the fewest payments settling it with the pulka."""

    owing: tuple[Owing, ...]
    together: tuple[Transfer[str], ...]  # by name


def carry_over(carried: Carried, money: Sequence[Decimal], cash: Decimal | None = None) -> CarryOver | None:
    if not carried.debts:
        return None
    book = carried.ledger
    together = tuple(Transfer(book.name(p.payer), book.name(p.payee), p.amount)
                     for p in carried.with_money(money, cash).payments)
    return CarryOver(tuple(owing(book, d) for d, _ in carried.debts), together)


def owed_lines(before: CarryOver, currency: str, language: str,
         gettext: Callable[[str], str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The carry-over as the PDF of a pulka writes it, in the words of its settlement page: who owed whom
    before (since when), and the payments settling that with this pulka."""
    def money(value: Decimal) -> str:
        return amount(value, currency, language=language)

    owing = tuple(gettext("%(debtor)s owes %(creditor)s %(amount)s since %(date)s") % {
        "debtor": d.debtor, "creditor": d.creditor, "amount": money(d.amount), "date": d.since.strftime("%d.%m.%Y")}
        if d.since else gettext("%(debtor)s owes %(creditor)s %(amount)s") % {
        "debtor": d.debtor, "creditor": d.creditor, "amount": money(d.amount)} for d in before.owing)
    together = tuple(gettext("%(payer)s pays %(payee)s %(amount)s") % {
        "payer": t.payer, "payee": t.payee, "amount": money(t.amount)} for t in before.together)
    return owing, together


def csv_text(book: Ledger) -> str:
    """One row per obligation and per payment, in the ledger's currency, the latest first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["row", "id", "date", "from", "to", "amount", "currency", "pulka", "title", "paid", "status",
                     "kind", "obligation", "reverses", "note", "by"])
    for line in book.lines:
        o, e = line.entry.obligation, line.entry
        writer.writerow(["obligation", o.id, e.day.isoformat(), book.name(o.debtor), book.name(o.creditor), o.amount,
                         o.currency, o.pulka, e.title, line.paid, line.status.value, "", "", "", "", ""])
    for row in book.payments:
        p = row.payment
        writer.writerow(["payment", p.id, row.at.isoformat(timespec="seconds"), book.name(p.payer), book.name(p.payee),
                         p.amount, p.currency, "", "", "", "", p.kind.value, p.obligation or "", p.reverses or "",
                         row.note, row.by])
    return out.getvalue()
