"""The club ledger in the database: an account's payments (rows never changed), and the obligations read from
the frozen results of the pulkas it may read (never stored twice: a reopened pulka has none).

A write locks the account's ledger (its count of ledger writes, bumped first), so that two phones marking
one obligation paid at once pay it once: the second finds it paid."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta, timezone
from decimal import Decimal

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from ...engine import Payment, PaymentKind
from ..domain.ledger import Reopened, Row, Rows, obligations_of
from ..domain.results import Event, Result
from .cache import VersionCache
from .circles import readable
from .db import Database
from .models import AccountRow, EventRow, PaymentRow, PulkaRow, now
from .players import PlayerStore, circle_of
from .rows import local_date
from .rows import aware
from .transaction import Writer


@dataclass
class Writing:
    """One write to an account's ledger: its rows as they stand under the lock, and the payments it adds."""

    session: Session
    account_id: int
    rows: Rows
    by: str
    _player_ids: dict[str, int]
    _payment_ids: dict[str, int]
    added: list[Row] = field(default_factory=list)

    def add(self, payment: Payment[str, str], note: str = "") -> Row:
        """Store the payment (its id is given here: the engine's draft id is ignored)."""
        row = PaymentRow(owner_id=self.account_id, payer_id=self._player_ids[payment.payer],
                         payee_id=self._player_ids[payment.payee], cents=int(payment.amount.scaleb(2)),
                         currency=payment.currency, obligation=payment.obligation, kind=payment.kind.value,
                         reverses_id=None if payment.reverses is None else self._payment_ids[payment.reverses],
                         note=note, by=self.by, at=now())
        self.session.add(row)
        self.session.flush()
        stored = Row(Payment(row.uid, payment.payer, payment.payee, payment.amount, payment.currency,
                             payment.obligation, payment.reverses, payment.kind), note, self.by, row.at, True)
        self.added.append(stored)
        return stored


class LedgerStore(Writer):
    """The ledgers of one database (services.ledger.LedgerRepository)."""

    def __init__(self, db: Database, players: PlayerStore, remember: int = 64):
        self.db = db
        self.players = players
        self._known: VersionCache[Rows] = VersionCache(remember)  # by account and the versions read from

    def rows(self, account_id: int) -> Rows:
        """The account's ledger, read again only when a version it is read from moved on: the circle versions
        of the account and of the owners of the pulkas it reads (a freeze, a reopening, a rename, a merge, a
        link), and their counts of ledger writes (a payment in the account's ledger or a sharing owner's)."""
        key = (account_id, self.players.versions(account_id, AccountRow.ledger_writes))
        known = self._known.get(key)
        if known is not None:
            return known
        with self.db.Session() as session:
            rows, _, _ = _read(session, account_id)
        return self._known.put(key, rows)

    @contextmanager
    def writing(self, account_id: int, by: str) -> Iterator[Writing]:
        """One write on the account's ledger, under its lock, in the unit of work's transaction (else in one
        of its own, committed when the block ends); rolled back if it raises."""
        with self._writes() as transaction:
            yield self._locked(transaction.session, account_id, by)

    def _locked(self, session: Session, account_id: int, by: str) -> Writing:
        session.execute(update(AccountRow).where(AccountRow.id == account_id)
                        .values(ledger_writes=AccountRow.ledger_writes + 1))
        rows, player_ids, payment_ids = _read(session, account_id)
        return Writing(session, account_id, rows, by, player_ids, payment_ids)

    def seated(self, account_id: int, pulka: str) -> tuple[str, ...]:
        return self.players.seated(account_id, pulka)


def _read(session: Session, account_id: int) -> tuple[Rows, dict[str, int], dict[str, int]]:
    """The rows, with the row ids of the account's own players and of the payments, by public id."""
    pulkas = list(session.scalars(select(PulkaRow).where(readable(account_id), PulkaRow.result.is_not(None))))
    payers = select(PaymentRow.payer_id).where(PaymentRow.owner_id == account_id)
    payees = select(PaymentRow.payee_id).where(PaymentRow.owner_id == account_id)
    roots, players = circle_of(session, account_id, pulkas, session.scalars(payers.union(payees)))
    entries = []
    for row in pulkas:
        result = Result.read(row.result)
        assert result is not None
        seats = [roots[seat.player_id].uid for seat in sorted(row.seats, key=lambda s: s.seat)]
        entries += obligations_of(row.uid, row.name, local_date(row), row.currency, row.owner_id == account_id,
                                  result, seats, timezone(timedelta(minutes=row.utc_offset or 0)))
    shared = {e.obligation.id for e in entries if not e.own}
    owners = {row.owner_id for row in pulkas if row.owner_id != account_id}
    query = select(PaymentRow).where(or_(PaymentRow.owner_id == account_id, PaymentRow.owner_id.in_(owners) &
                                         PaymentRow.obligation.in_(shared))).order_by(PaymentRow.id)
    stored = list(session.scalars(query))
    missing = {r.payer_id for r in stored} | {r.payee_id for r in stored}
    if missing - set(roots):
        roots, players = circle_of(session, account_id, pulkas, missing)
    uid_of = {r.id: r.uid for r in stored}
    payments = tuple(Row(Payment(r.uid, roots[r.payer_id].uid, roots[r.payee_id].uid, Decimal(r.cents).scaleb(-2),
                                 r.currency, r.obligation, None if r.reverses_id is None else uid_of[r.reverses_id],
                                 PaymentKind(r.kind)), r.note, r.by, aware(r.at), r.owner_id == account_id)
                     for r in stored)
    titles = {id: (uid, name) for id, uid, name in session.execute(
        select(PulkaRow.id, PulkaRow.uid, PulkaRow.name).where(PulkaRow.owner_id == account_id))}
    reopened = tuple(Reopened(*titles[e.pulka_id], e.by, aware(e.at)) for e in session.scalars(
        select(EventRow).where(EventRow.what == Event.REOPENED.value, EventRow.pulka_id.in_(titles))
        .order_by(EventRow.id)))
    own_players = {root.uid: root.id for root in roots.values() if root.owner_id == account_id}
    return Rows(players, tuple(entries), payments, reopened), own_players, {r.uid: r.id for r in stored}
