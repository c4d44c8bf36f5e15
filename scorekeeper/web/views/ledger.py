"""What the ledger's page and file show: one currency's balances by name, who owes since when (from the
balances), the obligations with their pulka, what is open on each and its status, and the payments, a page at a
time; every row as CSV. And where a pulka's players stand in the ledger now, as its settlement page and PDF show
it (docs/club.md §4)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from decimal import Decimal

from ...engine import SettleUp, Transfer
from ...render.text import amount
from ..domain.balances import TableStanding
from ..domain.ledger import Ledger, Line, Row
from ..domain.limits import PAGE_ROWS
from ..domain.paging import Older, Window, window
from .csvfile import CsvWriter, drained


@dataclass(frozen=True)
class Owing:
    """A player who owes: his balance is below 0."""

    player: str
    name: str
    amount: Decimal
    since: date | None  # when the pulka of his oldest obligation with an open part ended, in its own offset


@dataclass(frozen=True)
class LedgerPage:
    ledger: Ledger
    balances: tuple[tuple[str, str, Decimal], ...]  # (id, name, amount), by name
    owing: tuple[Owing, ...]  # by name
    shown: Window  # the page of obligations and payments; the balances and who owes count every row
    writable: tuple[tuple[str, str], ...]  # the own players a payment may be between: (id, name)
    settled: SettleUp[str]  # the suggested settle-up, in the cash unit if one is chosen
    cash: Decimal | None

    @property
    def lines(self) -> tuple[Line, ...]:
        return self.shown.lines

    @property
    def payments(self) -> tuple[Row, ...]:
        return self.shown.payments

    @property
    def older(self) -> str | None:
        """The cursor of the next page's link; None on the page of the oldest rows."""
        return None if self.shown.older is None else self.shown.older.text()


def page(book: Ledger, start: Older | None = None, size: int = PAGE_ROWS, cash: Decimal | None = None) -> LedgerPage:
    """The ledger's page: the page of obligations and payments `start` names (None: the latest `size` of each),
    below the balances, who owes and the settle-up, which are the whole ledger's on every page."""
    balances = tuple(sorted(((p, book.name(p), v) for p, v in book.balances.items()),
                            key=lambda b: b[1].casefold()))
    writable = tuple(sorted(((p.id, p.name) for p in book.players.values() if p.own), key=lambda p: p[1].casefold()))
    return LedgerPage(book, balances, owing(book), window(book, start, size), writable, book.settle_up_in(cash), cash)


def owing(book: Ledger) -> tuple[Owing, ...]:
    found = (Owing(o.player, book.name(o.player), o.amount, None if o.since is None else o.since.date())
             for o in book.owed)
    return tuple(sorted(found, key=lambda o: (o.name.casefold(), o.player)))


@dataclass(frozen=True)
class AtTheTable:
    """A pulka's players in the ledger now, by name: each one's balance; when they owe only each other, the
    fewest payments settling it (in the cash unit, if one is chosen)."""

    currency: str
    balances: tuple[tuple[str, Decimal], ...]  # (name, balance) by seat
    settled: bool  # every one at 0: nothing is listed
    among_themselves: bool  # their balances sum to 0
    payments: tuple[Transfer[str], ...]  # by name; only when among_themselves
    writable: bool  # the caller may record the payments
    cash: Decimal | None
    read: datetime  # when the figures were read, in the pulka's own offset


def at_the_table(table: TableStanding, zone: tzinfo, cash: Decimal | None = None) -> AtTheTable:
    book = table.ledger
    payments = table.settle_up(cash).payments if table.among_themselves else ()
    return AtTheTable(book.currency, tuple((book.name(p), v) for p, v in table.balances), table.settled,
                      table.among_themselves, tuple(Transfer(book.name(t.payer), book.name(t.payee), t.amount)
                                                    for t in payments),
                      table.writable, cash, table.read.astimezone(zone))


def table_lines(table: AtTheTable, language: str, gettext: Callable[[str], str]) -> tuple[str, tuple[str, ...]]:
    """The section as the PDF of a pulka writes it, in the words of its settlement page: its title (with the
    date and time its figures were read) and its lines."""
    def money(value: Decimal, sign: bool = False) -> str:
        return amount(value, table.currency, sign=sign, language=language)

    title = gettext("In the ledger on %(time)s") % {"time": table.read.strftime("%d.%m.%Y %H:%M")}
    if table.settled:
        return title, (gettext("Everyone at this table is at 0 in the ledger: nobody owes anything."),)
    lines = [gettext("%(name)s: %(amount)s") % {"name": name, "amount": money(value, sign=True)}
             for name, value in table.balances]
    if table.among_themselves:
        lines.append(gettext("They owe only each other. The fewest payments that settle it:"))
        lines += [gettext("%(payer)s pays %(payee)s %(amount)s") % {
            "payer": t.payer, "payee": t.payee, "amount": money(t.amount)} for t in table.payments]
    else:
        lines.append(gettext("The rest is owed to or by other players: see the ledger."))
    return title, tuple(lines)


def csv_text(book: Ledger) -> Iterator[str]:
    """One row per player who owes (`owed`: his id, since when, his name in `from`, what he owes), then per
    obligation (with what is paid and open on it, and its status) and per payment, in the ledger's currency,
    the latest first. When every balance is 0 there is no `owed` row."""
    out = io.StringIO()
    writer = CsvWriter(out)
    writer.writerow(["row", "id", "date", "from", "to", "amount", "currency", "pulka", "title", "paid", "open",
                     "status", "kind", "obligation", "reverses", "note", "by"])
    for debt in owing(book):
        writer.writerow(["owed", debt.player, debt.since.isoformat() if debt.since else "", debt.name, "",
                         debt.amount, book.currency, "", "", "", "", "", "", "", "", "", ""])
        yield drained(out)
    for line in book.lines:
        o, e = line.entry.obligation, line.entry
        writer.writerow(["obligation", o.id, e.day.isoformat(), book.name(o.debtor), book.name(o.creditor), o.amount,
                         o.currency, o.pulka, e.title, line.paid, line.open, line.status.value, "", "", "", "", ""])
        yield drained(out)
    for row in book.payments:
        p = row.payment
        writer.writerow(["payment", p.id, row.at.isoformat(timespec="seconds"), book.name(p.payer), book.name(p.payee),
                         p.amount, p.currency, "", "", "", "", "", p.kind.value, p.obligation or "", p.reverses or "",
                         row.note, row.by])
        yield drained(out)
    yield drained(out)
