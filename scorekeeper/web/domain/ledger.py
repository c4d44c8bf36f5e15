"""The club ledger (docs/club.md §3): what the players of a circle owe each other from one evening to the next.

Its rows are the transfers of frozen pulkas (obligations) and payments, each a row of its own; every figure
is the engine's (engine.ledger), derived from the rows each time it is read. An obligation's id names the
freeze it comes from: reopening a pulka withdraws its obligations, and freezing it again makes new ones, so a
payment made against the old ones stays, on no obligation.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timezone
from decimal import Decimal, InvalidOperation

from ...engine import (Obligation, ObligationStatus, Payment, PaymentKind, SettleUp, Transfer, balances, owed, paid,
                       settle_up, status)
from ...i18n.words import Msg
from .limits import CURRENCY_MAX, LEDGER_NOTE_MAX
from .players import Player
from .reading import one_line
from .refusals import Refused
from .results import Result

# The largest amount one payment moves: a billion in any currency is a typing mistake.
AMOUNT_MAX = Decimal("1000000000")


def obligation_id(pulka: str, frozen_at: datetime, index: int) -> str:
    """The id of the `index`-th transfer of a pulka's freeze at `frozen_at`: the same on every read, another
    for another freeze."""
    digest = hashlib.sha256(f"{pulka}|{frozen_at.isoformat()}|{index}".encode()).hexdigest()
    return digest[:16]


@dataclass(frozen=True)
class ObligationRow:
    """An obligation with the pulka it comes from; `own`: of the caller's pulka (he may mark it paid)."""

    obligation: Obligation[str, str]
    title: str
    day: date  # the pulka's date, in its players' time
    ended: datetime
    own: bool


def obligations_of(pulka: str, title: str, day: date, currency: str, own: bool, result: Result,
                   seats: Sequence[str]) -> list[ObligationRow]:
    """What a frozen pulka's result leaves owed, its transfers between its seats' players (`seats`: their ids
    by seat, a merged one as the one he is merged into): two seats of one merged player owe nobody."""
    return [ObligationRow(Obligation(obligation_id(pulka, result.at, i), pulka, seats[t.payer], seats[t.payee],
                                     t.amount, currency), title, day, result.at.astimezone(timezone.utc), own)
            for i, t in enumerate(result.transfers) if seats[t.payer] != seats[t.payee]]


@dataclass(frozen=True)
class Row:
    """A payment row as stored: who entered it and when; `own`: in the caller's ledger (he may take it
    back), not a row of a pulka shared with him."""

    payment: Payment[str, str]
    note: str
    by: str
    at: datetime
    own: bool


@dataclass(frozen=True)
class Reopened:
    """A frozen pulka of the caller reopened: its obligations withdrawn (a line of the ledger's log)."""

    pulka: str
    title: str
    by: str
    at: datetime


@dataclass(frozen=True)
class Rows:
    """Everything a caller's ledger is made of, in every currency: the players (by id, merged ones counted as
    the one they are merged into), the obligations of the frozen pulkas he may read, the payments of his
    ledger and those made on the obligations of pulkas shared with him, the reopenings of his pulkas."""

    players: Mapping[str, Player]
    obligations: tuple[ObligationRow, ...]
    payments: tuple[Row, ...]
    reopened: tuple[Reopened, ...] = ()
    # Each currency's ledger, worked out when first asked for: the store hands out one Rows while nothing it
    # is read from changes, so the requests until the next write share these figures. (Two threads that
    # both miss one work out the same figures, and setdefault keeps one.)
    _ledgers: dict[str, Ledger] = field(default_factory=dict, init=False, compare=False, repr=False)

    def ledger(self, currency: str) -> Ledger:
        """The ledger in `currency`."""
        return self._ledgers.get(currency) or self._ledgers.setdefault(currency, Ledger.of(self, currency))

    def currencies(self) -> tuple[str, ...]:
        """The currencies of the ledger, the latest used first."""
        latest: dict[str, datetime] = {}
        for when, currency in [(e.ended, e.obligation.currency) for e in self.obligations] + \
                [(r.at, r.payment.currency) for r in self.payments]:
            latest[currency] = max(when, latest.get(currency, when))
        return tuple(sorted(latest, key=lambda c: (-latest[c].timestamp(), c)))

    def obligation(self, id: str) -> ObligationRow | None:
        return next((e for e in self.obligations if e.obligation.id == id), None)

    def payment(self, id: str) -> Row | None:
        return next((r for r in self.payments if r.payment.id == id), None)

    def in_currency(self, currency: str) -> tuple[list[Obligation[str, str]], list[Payment[str, str]]]:
        """The engine's rows of one currency; a payment on an obligation withdrawn since counts on none."""
        obligations = [e.obligation for e in self.obligations if e.obligation.currency == currency]
        current = {o.id for o in obligations}
        payments = [r.payment if r.payment.obligation in current or r.payment.obligation is None else
                    _unlinked(r.payment) for r in self.payments if r.payment.currency == currency]
        return obligations, payments


def _unlinked(payment: Payment[str, str]) -> Payment[str, str]:
    return replace(payment, obligation=None)


@dataclass(frozen=True)
class Line:
    """An obligation as the ledger shows it: what is paid on it, its status, and its latest paid mark."""

    entry: ObligationRow
    paid: Decimal
    status: ObligationStatus
    marked: Row | None  # the paid mark not taken back, if one paid it


def line_of(entry: ObligationRow, on_it: Sequence[Payment[str, str]], stored: Mapping[str, Row]) -> Line:
    """The obligation's line, from the payments made on it (`stored`: their rows, by id)."""
    o = entry.obligation
    taken_back = {p.reverses for p in on_it}
    mark = next((stored[p.id] for p in reversed(on_it) if p.kind is PaymentKind.MARK and p.id not in taken_back),
                None)
    return Line(entry, paid(o, on_it), status(o, on_it), mark)


@dataclass(frozen=True)
class Ledger:
    """One currency of a caller's ledger, every figure derived from the rows."""

    currency: str
    currencies: tuple[str, ...]
    players: Mapping[str, Player]
    balances: Mapping[str, Decimal]
    owed: tuple[Transfer[str], ...]
    lines: tuple[Line, ...]  # the latest pulka first
    payments: tuple[Row, ...]  # the latest first
    taken_back: frozenset[str]  # ids of the payments a reversal took back
    settle_up: SettleUp[str]
    reopened: tuple[Reopened, ...]
    oldest_open: Mapping[frozenset[str], date]  # by pair: the date of the oldest obligation not paid

    @classmethod
    def of(cls, rows: Rows, currency: str) -> Ledger:
        obligations, payments = rows.in_currency(currency)
        by_obligation: dict[str | None, list[Payment[str, str]]] = defaultdict(list)
        for p in payments:
            by_obligation[p.obligation].append(p)
        taken_back = frozenset(p.reverses for p in payments if p.reverses is not None)
        stored = {r.payment.id: r for r in rows.payments}
        lines = [line_of(entry, by_obligation[entry.obligation.id], stored) for entry in rows.obligations
                 if entry.obligation.currency == currency]
        lines.sort(key=lambda line: (line.entry.ended, line.entry.obligation.id), reverse=True)
        money = balances(obligations, payments)
        oldest: dict[frozenset[str], date] = {}
        for line in lines:  # the latest first: the oldest is written last
            if line.status is not ObligationStatus.PAID:
                oldest[frozenset((line.entry.obligation.debtor, line.entry.obligation.creditor))] = line.entry.day
        return cls(currency, rows.currencies(), rows.players, money, owed(obligations, payments), tuple(lines),
                   tuple(sorted((replace(stored[p.id], payment=p) for p in payments),
                                key=lambda r: (r.at, r.payment.id), reverse=True)),
                   taken_back, settle_up(money), rows.reopened, oldest)

    def name(self, player: str) -> str:
        return self.players[player].name if player in self.players else "?"

    def settle_up_in(self, unit: Decimal | None) -> SettleUp[str]:
        """The suggested settle-up, in a cash unit if one is given (each balance rounded to it first)."""
        return self.settle_up if unit is None else settle_up(self.balances, unit)

    def owed_among(self, players: Sequence[str], but: str | None = None) -> tuple[Transfer[str], ...]:
        """What these players still owe each other, netted, leaving out the pulka `but` (the one being settled:
        its transfers, and what was paid on them, are its own settlement, not carried over)."""
        lines = [line.entry.obligation for line in self.lines if line.entry.obligation.pulka != but]
        left_out = {line.entry.obligation.id for line in self.lines if line.entry.obligation.pulka == but}
        payments = [r.payment for r in self.payments if r.payment.obligation not in left_out or
                    r.payment.obligation is None]
        return tuple(d for d in owed(lines, payments) if d.payer in players and d.payee in players)

    def since(self, debt: Transfer[str]) -> date | None:
        """The date of the oldest obligation still open between the two ("since 12.11")."""
        return self.oldest_open.get(frozenset((debt.payer, debt.payee)))


@dataclass(frozen=True)
class RecordPayment:
    """A payment to record, as read from a request: its players are checked against the circle under the
    ledger's lock (`check_ends`)."""

    payer: str
    payee: str
    amount: Decimal
    currency: str
    obligation: str | None = None
    note: str = ""


@dataclass(frozen=True)
class TakeBack:
    """A payment taken back by its reversal."""

    payment: str


@dataclass(frozen=True)
class MarkPaid:
    """An obligation marked paid (what is still open on it paid), or its paid marks taken back."""

    obligation: str
    paid: bool = True


@dataclass(frozen=True)
class RecordSettleUp:
    """The suggested settle-up of a currency recorded as payments, each with the note; in a cash unit if given."""

    currency: str
    note: str = ""
    cash: Decimal | None = None


def read_amount(value: object, field: str = "amount") -> Decimal:
    """A positive amount of whole cents: a number or a decimal string ("340", "12.5", 12.50)."""
    amount: Decimal | None = None
    if isinstance(value, (int, float, str)) and not isinstance(value, bool):
        try:
            amount = Decimal(str(value).strip().replace(",", "."))
        except InvalidOperation:
            amount = None
    if amount is None or not amount.is_finite() or amount <= 0 or amount > AMOUNT_MAX or \
            amount.scaleb(2) != amount.scaleb(2).to_integral_value():
        raise Refused(Msg("{field} is an amount above 0 and at most {most}, in whole cents")(
            field=field, most=f"{AMOUNT_MAX:,}".replace(",", " ")), field)
    return amount.quantize(Decimal("0.01"))


def read_cash(value: object) -> Decimal | None:
    """A cash unit to settle up in (absent or empty: to the cent)."""
    return None if value is None or value == "" else read_amount(value, "cash")


def read_currency(value: object) -> str:
    if not isinstance(value, str) or len(value) > CURRENCY_MAX or not one_line(value):
        raise Refused(Msg("currency is at most {most} characters")(most=CURRENCY_MAX), "currency")
    return value.strip()


def read_payment(body: Mapping[str, object]) -> RecordPayment:
    """A payment from a request's fields (docs/club.md §3: from, to, amount, currency, obligation, note): Refused
    naming the first field that is not right. `from` and `to` are players' ids, checked by `check_ends`."""
    payer, payee = (value if isinstance(value, str) else "" for value in (body.get("from"), body.get("to")))
    amount = read_amount(body.get("amount"))
    currency = read_currency(body.get("currency", ""))
    obligation = body.get("obligation")
    if obligation is not None and not (isinstance(obligation, str) and 0 < len(obligation) <= 40):
        raise Refused(Msg("obligation is the id of an obligation, or null"), "obligation")
    return RecordPayment(payer, payee, amount, currency, obligation, read_note(body.get("note")))


def check_ends(payment: RecordPayment, players: Mapping[str, Player]) -> None:
    """`from` and `to` are two players of the caller's own circle; Refused naming the one that is not."""
    for field, id in (("from", payment.payer), ("to", payment.payee)):
        player = players.get(id)
        if player is None or not player.own:
            raise Refused(Msg("{field} is a player of your circle, by his id")(field=field), field)
    if payment.payer == payment.payee:
        raise Refused(Msg("a payment is from one player to another"), "to")


def read_settle_up(currency: object, note: object, cash: object) -> RecordSettleUp:
    return RecordSettleUp(read_currency(currency), read_note(note), read_cash(cash))


def read_note(note: object) -> str:
    if note is None:
        return ""
    if not isinstance(note, str) or len(note) > LEDGER_NOTE_MAX or not one_line(note):
        raise Refused(Msg("note is one line of at most {most} characters")(most=LEDGER_NOTE_MAX), "note")
    return note.strip()


@dataclass(frozen=True)
class Carried:
    """What the players of a pulka owed each other before it, in its currency: each debt with the date of the
    oldest obligation still open between the two, and the settle-up of the pulka's money with them."""

    ledger: Ledger
    debts: tuple[tuple[Transfer[str], date | None], ...]
    seats: tuple[str, ...]  # the players' ids by seat

    def with_money(self, money: Sequence[Decimal], unit: Decimal | None = None) -> SettleUp[str]:
        """The fewest payments that settle both the pulka's money (by seat) and what is carried over (in a
        cash unit, when one is given)."""
        total: dict[str, Decimal] = {player: Decimal(0) for player in self.seats}
        for seat, amount in enumerate(money):
            total[self.seats[seat]] += amount
        for debt in self.debts:
            total[debt[0].payer] -= debt[0].amount
            total[debt[0].payee] += debt[0].amount
        return settle_up(total, unit)
