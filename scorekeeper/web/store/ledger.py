"""The club ledger in the database: an account's payments (rows never changed), and the obligations read from
the frozen results of the pulkas it may read (never stored twice: a reopened pulka has none).

What a ledger is read from besides its payments (the pulkas' obligations, the players, the reopenings) changes
only with the circle versions, and is kept by them; the payments are read afresh by each new count of ledger
writes. A write locks the account's ledger (its count of ledger writes, bumped first), so that two phones marking
one obligation paid at once pay it once: the second finds it paid. Under the lock it reads only what it names:
a payment, the payments on one obligation, or sums the database makes (the balances, what is paid on each
obligation), never the whole ledger."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta, timezone
from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, Select, case, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from ...engine import Payment, PaymentKind
from ..domain.ledger import ObligationRow, Reopened, Row, Rows, obligations_of
from ..domain.players import Player
from ..domain.results import Event, Result
from .cache import VersionCache
from .circles import readable, versions
from .db import Database
from .models import AccountRow, EventRow, PaymentRow, PulkaRow, now
from .players import PlayerStore, circle_of
from .rows import local_date
from .rows import aware
from .transaction import Writer

CHUNK = 500  # ids in one IN list: SQLite's older builds take at most 999 parameters a statement


@dataclass(frozen=True)
class LedgerCircle:
    """What an account's ledger is read from besides its payments, at one set of circle versions."""

    account_id: int
    players: Mapping[str, Player]  # by public id, merged ones counted as the one they are merged into
    roots: Mapping[int, str]  # each player's row id: the public id of his root (himself, or whom he is merged into)
    own: Mapping[str, int]  # the account's own players: their row ids, by public id
    obligations: tuple[ObligationRow, ...]
    by_id: Mapping[str, ObligationRow]
    by_currency: Mapping[str, tuple[ObligationRow, ...]]
    owners: frozenset[int]  # the owners of the pulkas shared with the account
    shared: tuple[str, ...]  # the obligations of those pulkas: their owners' payments on these are listed too
    reopened: tuple[Reopened, ...]

    def visible(self) -> ColumnElement[bool]:
        """The payments of this ledger: the account's own, and its sharing owners' on the shared obligations."""
        own = PaymentRow.owner_id == self.account_id
        if not self.shared:
            return own
        return or_(own, PaymentRow.owner_id.in_(self.owners) & PaymentRow.obligation.in_(self.shared))


Reversed = aliased(PaymentRow)
PAYMENT_COLUMNS = (PaymentRow.id, PaymentRow.uid, PaymentRow.payer_id, PaymentRow.payee_id, PaymentRow.cents,
                   PaymentRow.currency, PaymentRow.obligation, Reversed.uid, PaymentRow.kind, PaymentRow.note,
                   PaymentRow.by, PaymentRow.at, PaymentRow.owner_id)
SIGNED = case((PaymentRow.kind == PaymentKind.REVERSAL.value, -PaymentRow.cents), else_=PaymentRow.cents)


def payments(*where: ColumnElement[bool]) -> Select[*tuple[Any, ...]]:
    """The payments that meet `where`, the oldest first, each with the public id of the one it takes back."""
    return (select(*PAYMENT_COLUMNS).outerjoin(Reversed, Reversed.id == PaymentRow.reverses_id)
            .where(*where).order_by(PaymentRow.id))


class Reader:
    """The payments of one ledger as rows, their players by public id: a player none of the circle's pulkas
    seats (a sharing owner's, paid on a shared obligation) is looked up once."""

    def __init__(self, session: Session, circle: LedgerCircle):
        self.session = session
        self.circle = circle
        self.roots = dict(circle.roots)
        self.extra: dict[str, Player] = {}

    @property
    def players(self) -> Mapping[str, Player]:
        return {**self.circle.players, **self.extra} if self.extra else self.circle.players

    def uid(self, player_id: int) -> str:
        return self.uids([player_id])[player_id]

    def uids(self, player_ids: Collection[int]) -> Mapping[int, str]:
        missing = set(player_ids) - set(self.roots)
        if missing:
            roots, players = circle_of(self.session, self.circle.account_id, [], missing)
            self.roots |= {player_id: root.uid for player_id, root in roots.items()}
            self.extra |= {uid: player for uid, player in players.items() if uid not in self.circle.players}
        return self.roots

    def rows(self, found: list[Any]) -> tuple[Row, ...]:
        uids = self.uids({r.payer_id for r in found} | {r.payee_id for r in found})
        return tuple(Row(Payment(r[1], uids[r.payer_id], uids[r.payee_id], Decimal(r.cents).scaleb(-2), r.currency,
                                 r.obligation, r[7], PaymentKind(r.kind)), r.note, r.by, aware(r.at),
                         r.owner_id == self.circle.account_id) for r in found)


class Writing(Reader):
    """One write to an account's ledger under its lock (services.ledger.LedgerWrite): each load a query of what
    it names, in the write's transaction, so that it counts what the write added."""

    def __init__(self, session: Session, circle: LedgerCircle, by: str):
        super().__init__(session, circle)
        self.by = by

    def obligation(self, id: str) -> ObligationRow | None:
        return self.circle.by_id.get(id)

    def obligations(self, currency: str) -> tuple[ObligationRow, ...]:
        return self.circle.by_currency.get(currency, ())

    def payment(self, id: str) -> Row | None:
        return next(iter(self._rows(PaymentRow.uid == id)), None)

    def reversal_of(self, id: str) -> Row | None:
        return next(iter(self._rows(PaymentRow.reverses_id == select(PaymentRow.id).where(PaymentRow.uid == id)
                                    .scalar_subquery())), None)

    def on(self, obligation: ObligationRow) -> tuple[Row, ...]:
        o = obligation.obligation
        return self._rows(PaymentRow.obligation == o.id, PaymentRow.currency == o.currency)

    def paid_on(self, currency: str, obligations: Collection[str]) -> dict[str, Decimal]:
        ids, found = sorted(obligations), dict[str, Decimal]()
        for start in range(0, len(ids), CHUNK):
            found |= {id: Decimal(int(cents)).scaleb(-2) for id, cents in self.session.execute(
                select(PaymentRow.obligation, func.sum(SIGNED)).where(
                    self.circle.visible(), PaymentRow.currency == currency,
                    PaymentRow.obligation.in_(ids[start:start + CHUNK])).group_by(PaymentRow.obligation))}
        return found

    def paid_net(self, currency: str, players: Collection[str] | None = None) -> dict[str, Decimal]:
        chosen = None if players is None else [i for i, uid in self.roots.items() if uid in players]
        rows = [select(end, func.sum(SIGNED)).where(self.circle.visible(), PaymentRow.currency == currency,
                                                    *(() if chosen is None else (end.in_(chosen),))).group_by(end)
                for end in (PaymentRow.payer_id, PaymentRow.payee_id)]
        made, received = (self.session.execute(query).all() for query in rows)
        uids = self.uids({player for player, _ in made} | {player for player, _ in received})
        cents: dict[str, int] = {}
        for sums, sign in ((made, 1), (received, -1)):  # a player and one merged into him add up
            for player, total in sums:
                cents[uids[player]] = cents.get(uids[player], 0) + sign * int(total)
        return {player: Decimal(total).scaleb(-2) for player, total in cents.items()}

    def add(self, payment: Payment[str, str], note: str = "") -> Row:
        """Store the payment (its id is given here: the engine's draft id is ignored)."""
        reverses = None if payment.reverses is None else self.session.scalars(
            select(PaymentRow.id).where(PaymentRow.uid == payment.reverses)).one()
        row = PaymentRow(owner_id=self.circle.account_id, payer_id=self.circle.own[payment.payer],
                         payee_id=self.circle.own[payment.payee], cents=int(payment.amount.scaleb(2)),
                         currency=payment.currency, obligation=payment.obligation, kind=payment.kind.value,
                         reverses_id=reverses, note=note, by=self.by, at=now())
        self.session.add(row)
        self.session.flush()
        return Row(Payment(row.uid, payment.payer, payment.payee, payment.amount, payment.currency,
                           payment.obligation, payment.reverses, payment.kind), note, self.by, row.at, True)

    def _rows(self, *where: ColumnElement[bool]) -> tuple[Row, ...]:
        return self.rows(list(self.session.execute(payments(self.circle.visible(), *where))))

    def currencies(self) -> frozenset[str]:
        # The account's own payments suffice: the sharing owners' are on shared obligations, whose currencies the
        # circle holds. One pass over the (owner, currency) index, however many payments there are.
        paid = select(PaymentRow.currency).where(PaymentRow.owner_id == self.circle.account_id).distinct()
        played = select(PulkaRow.currency).where(PulkaRow.owner_id == self.circle.account_id).distinct()
        return frozenset(self.circle.by_currency) | {*self.session.scalars(paid), *self.session.scalars(played)}


class LedgerStore(Writer):
    """The ledgers of one database (services.ledger.LedgerRepository)."""

    def __init__(self, db: Database, players: PlayerStore, remember: int = 64):
        self.db = db
        self.players = players
        self._known: VersionCache[Rows] = VersionCache(remember)  # by account and the versions read from
        self._circles: VersionCache[LedgerCircle] = VersionCache(remember)  # by account and its circle versions
        # What the ledgers work out on asking (a settle-up in cash), by the key of the rows it is worked out from:
        # as many as the rows kept, so that a caller trying every cash unit keeps no more than that.
        self._worked: VersionCache[Any] = VersionCache(remember)

    def rows(self, account_id: int) -> Rows:
        """The account's ledger, read again only when a version it is read from moved on: the circle versions
        of the account and of the owners of the pulkas it reads (a freeze, a reopening, a rename, a merge, a
        link), and their counts of ledger writes (a payment in the account's ledger or a sharing owner's); of
        those, only the payments when only a count of ledger writes moved."""
        read = self.players.versions(account_id, AccountRow.ledger_writes)
        key = (account_id, read)
        known = self._known.get(key)
        if known is not None:
            return known
        with self.db.Session() as session:
            reader = Reader(session, self._circle(session, account_id, tuple(v[:2] for v in read)))
            found = reader.rows(list(session.execute(payments(reader.circle.visible()))))
            circle = reader.circle
            rows = Rows(reader.players, circle.obligations, found, circle.reopened,
                        memo=self._worked.section(key))
        return self._known.put(key, rows)

    @contextmanager
    def writing(self, account_id: int, by: str) -> Iterator[Writing]:
        """One write on the account's ledger, under its lock, in the unit of work's transaction (else in one
        of its own, committed when the block ends); rolled back if it raises."""
        with self._writes() as transaction:
            session = transaction.session
            session.execute(update(AccountRow).where(AccountRow.id == account_id)
                            .values(ledger_writes=AccountRow.ledger_writes + 1))
            circle = versions(session.connection(), account_id, AccountRow.circle_version)
            yield Writing(session, self._circle(session, account_id, circle), by)

    def seated(self, account_id: int, pulka: str) -> tuple[str, ...]:
        return self.players.seated(account_id, pulka)

    def _circle(self, session: Session, account_id: int, circle_versions: tuple[tuple[Any, ...], ...]) -> LedgerCircle:
        """The account's circle at these versions: kept, or read in `session` (at those versions, whatever the
        session has written: a ledger write changes no pulka nor player)."""
        key = (account_id, circle_versions)
        return self._circles.get(key) or self._circles.put(key, _read_circle(session, account_id))


def _read_circle(session: Session, account_id: int) -> LedgerCircle:
    """The obligations of the frozen pulkas the account reads, their players and the account's own, and the
    reopenings of its pulkas."""
    pulkas = list(session.scalars(select(PulkaRow).where(readable(account_id), PulkaRow.result.is_not(None))))
    roots, players = circle_of(session, account_id, pulkas)
    entries = []
    for row in pulkas:
        result = Result.read(row.result)
        assert result is not None
        seats = [roots[seat.player_id].uid for seat in sorted(row.seats, key=lambda s: s.seat)]
        entries += obligations_of(row.uid, row.name, local_date(row), row.currency, row.owner_id == account_id,
                                  result, seats, timezone(timedelta(minutes=row.utc_offset or 0)))
    by_currency: dict[str, list[ObligationRow]] = {}
    for entry in entries:
        by_currency.setdefault(entry.obligation.currency, []).append(entry)
    titles = {id: (uid, name) for id, uid, name in session.execute(
        select(PulkaRow.id, PulkaRow.uid, PulkaRow.name).where(PulkaRow.owner_id == account_id))}
    reopened = tuple(Reopened(*titles[e.pulka_id], e.by, aware(e.at)) for e in session.scalars(
        select(EventRow).where(EventRow.what == Event.REOPENED.value, EventRow.pulka_id.in_(titles))
        .order_by(EventRow.id)))
    return LedgerCircle(account_id, players, {player_id: root.uid for player_id, root in roots.items()},
                  {root.uid: root.id for root in roots.values() if root.owner_id == account_id}, tuple(entries),
                  {e.obligation.id: e for e in entries}, {c: tuple(found) for c, found in by_currency.items()},
                  frozenset(row.owner_id for row in pulkas if row.owner_id is not None and row.owner_id != account_id),
                  tuple(e.obligation.id for e in entries if not e.own), reopened)
