"""The club ledger (docs/club.md §3-§4): what the players of a circle owe from one evening to the next.

Its rows are the transfers of frozen pulkas (obligations) and payments, each a row of its own; every figure
is the engine's (engine.ledger), derived from the rows each time it is read. Who owes is read from the
balances, never pair by pair. An obligation's id names the freeze it comes from: reopening a pulka withdraws
its obligations, and freezing it again makes new ones, so a payment made against the old ones stays, on no
obligation.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import defaultdict
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, tzinfo
from decimal import Decimal
from typing import Any, Protocol

from ...engine import (Obligation, ObligationStatus, Open, Owed, Payment, PaymentKind, SettleUp, ledger_standing,
                       settle_up)
from ...i18n.words import Msg
from .limits import CURRENCY_MAX, LEDGER_NOTE_MAX
from .players import Player
from .reading import number_of, read_text, within
from .refusals import Refused
from .results import Result

# The largest amount one payment moves: a billion in any currency is a typing mistake.
AMOUNT_MAX = Decimal("1000000000")
CENT = Decimal("0.01")


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
    ended: datetime  # when the pulka was frozen, in its own offset: its date is the `since` of a debt
    own: bool


def obligations_of(pulka: str, title: str, day: date, currency: str, own: bool, result: Result,
                   seats: Sequence[str], zone: tzinfo) -> list[ObligationRow]:
    """What a frozen pulka's result leaves owed, its transfers between its seats' players (`seats`: their ids
    by seat, a merged one as the one he is merged into; `zone`: the pulka's own offset): two seats of one
    merged player owe nobody."""
    return [ObligationRow(Obligation(obligation_id(pulka, result.at, i), pulka, seats[t.payer], seats[t.payee],
                                     t.amount, currency), title, day, result.at.astimezone(zone), own)
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


class Memo(Protocol):
    """Where a ledger keeps what it works out on asking, shared by the requests that read it (the store's cache,
    keyed by the versions the rows were read at, so that it is dropped with them)."""

    def get(self, key: Hashable) -> Any: ...

    def put(self, key: Hashable, item: Any) -> Any: ...


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
    memo: Memo | None = field(default=None, compare=False, repr=False)  # what its settle-ups in cash keep

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
    """An obligation as the ledger shows it: what is paid on it, what is still open on it once its debtor's other
    rows are counted, its status, and its latest paid mark."""

    entry: ObligationRow
    paid: Decimal
    open: Decimal
    status: ObligationStatus
    marked: Row | None  # the paid mark not taken back, if one paid it


def line_key(line: Line) -> tuple[datetime, str]:
    """Where an obligation stands in the ledger's list, the latest pulka first: when its pulka ended, then its id
    (a page of the list goes on after the last key it showed)."""
    return line.entry.ended, line.entry.obligation.id


def row_key(row: Row) -> tuple[datetime, str]:
    """Where a payment stands in the ledger's list, the latest first: when it was entered, then its id."""
    return row.at, row.payment.id


def line_of(entry: ObligationRow, state: Open[str, str], on_it: Sequence[Payment[str, str]],
            stored: Mapping[str, Row]) -> Line:
    """The obligation's line, from its standing and the payments made on it (`stored`: their rows, by id)."""
    taken_back = {p.reverses for p in on_it}
    mark = next((stored[p.id] for p in reversed(on_it) if p.kind is PaymentKind.MARK and p.id not in taken_back),
                None)
    return Line(entry, state.paid, state.open, state.status, mark)


@dataclass(frozen=True)
class Ledger:
    """One currency of a caller's ledger, every figure derived from the rows."""

    currency: str
    currencies: tuple[str, ...]
    players: Mapping[str, Player]
    balances: Mapping[str, Decimal]
    owed: tuple[Owed[str, datetime], ...]  # who owes, by player id; `since`: in the pulka's own offset
    lines: tuple[Line, ...]  # the latest pulka first
    payments: tuple[Row, ...]  # the latest first
    taken_back: frozenset[str]  # ids of the payments a reversal took back
    settle_up: SettleUp[str]
    reopened: tuple[Reopened, ...]
    memo: Memo | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, rows: Rows, currency: str) -> Ledger:
        obligations, payments = rows.in_currency(currency)
        entries = [e for e in rows.obligations if e.obligation.currency == currency]
        found = ledger_standing(obligations, payments, {e.obligation.pulka: e.ended for e in entries})
        by_obligation: dict[str | None, list[Payment[str, str]]] = defaultdict(list)
        for p in payments:
            by_obligation[p.obligation].append(p)
        taken_back = frozenset(p.reverses for p in payments if p.reverses is not None)
        stored = {r.payment.id: r for r in rows.payments}
        lines = [line_of(entry, state, by_obligation[entry.obligation.id], stored)
                 for entry, state in zip(entries, found.obligations)]
        lines.sort(key=line_key, reverse=True)
        return cls(currency, rows.currencies(), rows.players, found.balances, found.owed, tuple(lines),
                   tuple(sorted((replace(stored[p.id], payment=p) for p in payments),
                                key=row_key, reverse=True)),
                   taken_back, settle_up(found.balances), rows.reopened, rows.memo)

    def name(self, player: str) -> str:
        return self.players[player].name if player in self.players else "?"

    def line(self, obligation: str) -> Line | None:
        return next((line for line in self.lines if line.entry.obligation.id == obligation), None)

    def settle_up_in(self, unit: Decimal | None) -> SettleUp[str]:
        """The suggested settle-up, in a cash unit if one is given (each balance rounded to it first): worked out
        once for these rows and that unit, however many ask (each request would otherwise settle the whole
        ledger again)."""
        if unit is None:
            return self.settle_up
        key = ("settle-up", self.currency, unit)
        found: SettleUp[str] | None = None if self.memo is None else self.memo.get(key)
        if found is None:
            found = settle_up(self.balances, unit)
            if self.memo is not None:
                found = self.memo.put(key, found)
        return found


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
    pulka: str | None = None  # only the players of this pulka, who owe only each other (docs/club.md §4)


def read_amount(value: object, field: str = "amount") -> Decimal:
    """A positive amount of whole cents: a JSON number, or a number as people type it ("340", "12.5", "12,50";
    reading.number_text: never '١٢', '１２', '1_000' or '1e3')."""
    amount = number_of(value)
    if not within(amount, 0, AMOUNT_MAX, CENT, above=True):
        raise Refused(Msg("{field} is an amount above 0 and at most {most}, in whole cents")(
            field=field, most=f"{AMOUNT_MAX:,}".replace(",", " ")), field)
    assert amount is not None  # within() said so
    return amount.quantize(CENT)


def read_cash(value: object) -> Decimal | None:
    """A cash unit to settle up in (absent or empty: to the cent)."""
    return None if value is None or value == "" else read_amount(value, "cash")


def read_currency(value: object) -> str:
    """A currency as a request names it (reading.read_text: blank is none)."""
    return read_text(value, "currency", CURRENCY_MAX)


def payment_currency(currency: str, known: Collection[str]) -> str:
    """The currency a payment is recorded in, given the `known` ones (those the caller's pulkas play for and his
    ledger holds): one of them as it is spelled there when `currency` is it in another Unicode normal form; a new
    one when it reads as none of them (a loan in another currency opens its own ledger, docs/club.md §3).
    Refused, on the currency, when it is one of them written otherwise ("eur" for "EUR", "ＥＵＲ"): that would
    start a second ledger of one currency, and neither would settle."""
    spelled = {unicodedata.normalize("NFC", c): c for c in sorted(known)}
    found = spelled.get(unicodedata.normalize("NFC", currency))
    if found is not None:
        return found
    other = next((c for c in sorted(known) if _currency_key(c) == _currency_key(currency)), None)
    if other is not None:
        raise Refused(Msg("currency {currency} is {other} of your ledger written otherwise: write {other}")(
            currency=f"«{currency}»", other=f"«{other}»"), "currency")
    return currency


def _currency_key(currency: str) -> str:
    """A currency as compared for look-alikes: compatibility forms (fullwidth letters) and case aside."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", currency).casefold())


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


def read_settle_up(currency: object, note: object, cash: object, pulka: object = None) -> RecordSettleUp:
    if pulka is not None and not (isinstance(pulka, str) and 0 < len(pulka) <= 40):
        raise Refused(Msg("pulka is the id of a pulka, or null"), "pulka")
    return RecordSettleUp(read_currency(currency), read_note(note), read_cash(cash), pulka or None)


def read_note(note: object) -> str:
    return "" if note is None else read_text(note, "note", LEDGER_NOTE_MAX)
