"""In-memory repositories implementing the services' Protocols, so the use cases are tested without a
database. Each keeps plain rows (what the store would keep: deals and settings, never a replay), and a
write is applied only when its block ends without an error, as a transaction would be. They decide nothing:
limits, freezing and merges are the services' (they only raise what the store's own constraints would:
not found, a version gone, a name taken)."""

from __future__ import annotations

import copy
import dataclasses
import secrets
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from scorekeeper.engine import Deal, Record, Replay, replay
from scorekeeper.web.domain.accounts import Account, username_key
from scorekeeper.web.domain.idempotency import Answer, Key, KeyTaken
from scorekeeper.web.domain.players import Member, Player
from scorekeeper.web.domain.pulkas import Note, Pulka, Settings, Stamp, Successor, Summary
from scorekeeper.web.domain.refusals import Duplicate, KeyReused, NotFound, VersionConflict
from scorekeeper.web.domain.results import Result
from scorekeeper.web.domain.shares import Access, Role, Share, access_of
from scorekeeper.web.services.accounts import AccountRepository
from scorekeeper.web.services.ledger import LedgerRepository
from scorekeeper.web.services.players import PlayerRepository
from scorekeeper.web.services.pulkas import PulkaRepository
from scorekeeper.web.services.shares import ShareRepository
from scorekeeper.web.services.unit import UnitOfWork


def now() -> datetime:
    return datetime.now(timezone.utc)


@dataclasses.dataclass
class Row:
    """A stored pulka: its settings and deals, as the pulkas table and its deal rows hold them."""

    uid: str
    owner_id: int
    settings: Settings
    deals: list[Deal]
    version: int
    created_at: datetime
    updated_at: datetime
    last_change: Note | None = None
    table: str = ""
    result: Result | None = None


class FakePulkas:
    def __init__(self) -> None:
        self.rows: dict[str, Row] = {}
        self.circle: dict[int, set[str]] = {}

    def get(self, uid: str) -> Pulka:
        row = self.rows.get(uid)
        if row is None:
            raise NotFound()
        return _pulka(row)

    def known(self, uid: str) -> Pulka:
        return self.get(uid)

    def stamp(self, uid: str, seen: int = 0) -> Stamp:
        return self.get(uid).stamp

    def successor(self, uid: str) -> Successor | None:
        row = self.rows.get(uid)
        table = [other for other in self.rows.values() if row is not None and other.table == row.table]
        last = table[-1] if table else None  # the rows in the order made, as the store's ids
        return Successor(last.uid, last.settings.name) if last is not None and last.uid != uid else None

    def account_pulkas(self, account_id: int) -> int:
        return sum(row.owner_id == account_id for row in self.rows.values())

    def account_deals(self, account_id: int) -> int:
        return sum(len(row.deals) for row in self.rows.values() if row.owner_id == account_id)

    def summaries(self, account_id: int) -> list[Summary]:
        mine = [row for row in self.rows.values() if row.owner_id == account_id]
        return [Summary(row.uid, row.settings.name, row.settings.players, len(row.deals), row.updated_at)
                for row in sorted(mine, key=lambda row: row.updated_at, reverse=True)]

    def player_names(self, account_id: int) -> list[str]:
        return sorted(self.circle.get(account_id, ()))

    def circle_names(self, account_id: int) -> list[str]:
        return self.player_names(account_id)  # nothing is shared here: the circle is the account's own

    def create(self, owner_id: int, settings: Settings, deals: Sequence[Deal], replayed: Replay,
               started: datetime | None = None, table: str = "", frozen: Result | None = None) -> Pulka:
        uid = secrets.token_urlsafe(16)
        row = Row(uid, owner_id, settings, list(deals), 1, started or now(), now(), table=table or uid, result=frozen)
        pulka = _pulka(row, replayed)
        self.rows[row.uid] = row
        self.circle.setdefault(owner_id, set()).update(settings.players)
        return pulka

    @contextmanager
    def writing(self, uid: str, expected: int | None = None, adding: bool = False) -> Iterator[FakeChange]:
        row = self.rows.get(uid)
        if row is None:
            raise NotFound()
        if expected is not None and expected != row.version:
            raise VersionConflict()
        change = FakeChange(_pulka(row), copy.deepcopy(row),
                            self.account_deals(row.owner_id) if adding else None)
        yield change  # an error raised in the block leaves the stored row as it was
        if change.after is not None:
            change.row.version += 1
            change.row.updated_at = now()
            self.rows[uid] = change.row
            self.circle.setdefault(row.owner_id, set()).update(change.row.settings.players)

    def delete(self, uid: str) -> None:
        if self.rows.pop(uid, None) is None:
            raise NotFound()



class FakeChange:
    def __init__(self, before: Pulka, row: Row, owner_deals: int | None = None):
        self.before = before
        self.row = row
        self.owner_deals = owner_deals
        self.after: Pulka | None = None

    def append(self, deal: Deal) -> None:
        self.row.deals.append(deal)

    def replace(self, number: int, deal: Deal) -> None:
        self.row.deals[number - 1] = deal

    def remove(self, number: int) -> None:
        del self.row.deals[number - 1]

    def set_settings(self, settings: Settings) -> None:
        self.row.settings = settings

    def freeze(self, result: Result) -> None:
        self.row.result = result

    def thaw(self, by: str) -> None:
        self.row.result = None

    def done(self, deals: Sequence[Deal], replayed: Replay, note: Note, settings: Settings | None = None) -> Pulka:
        assert list(deals) == self.row.deals, "what the use case said it wrote is what it wrote"
        self.row.last_change = note
        s = settings or self.before.settings
        self.after = dataclasses.replace(
            self.before, version=self.before.version + 1, name=s.name, currency=s.currency, players=s.players,
            first_dealer=s.first_dealer, rules=s.rules, deals=tuple(deals), replay=replayed, last_change=note,
            frozen=self.row.result, played_on=s.played_on)
        return self.after


def _pulka(row: Row, replayed: Replay | None = None) -> Pulka:
    s = row.settings
    replayed = replayed or replay(s.rules, len(s.players), row.deals, s.first_dealer, s.opening)
    return Pulka(row.uid, row.version, s.name, s.currency, s.players, s.first_dealer, s.rules, tuple(row.deals),
                 replayed, row.created_at, row.updated_at, row.owner_id, row.last_change, row.table, s.opening,
                 row.result, played_on=s.played_on)


class FakeAccounts:
    def __init__(self) -> None:
        self.rows: dict[int, Account] = {}
        self.hashes: dict[int, str] = {}
        self.tokens: dict[str, int] = {}
        self.sessions: set[str] = set()
        self.failed: list[tuple[str, datetime]] = []

    def create_account(self, username: str, password_hash: str) -> Account:
        if any(username_key(a.username) == username_key(username) for a in self.rows.values()):
            raise Duplicate()
        account = Account(len(self.rows) + 1, username, is_admin=not self.rows, created_at=now())
        self.rows[account.id], self.hashes[account.id] = account, password_hash
        return account

    def account(self, *, account_id: int | None = None, username: str | None = None,
                token_hash: str | None = None, remembered: bool = False) -> Account | None:
        if account_id is None and username is not None:
            account_id = next((a.id for a in self.rows.values() if username_key(a.username) == username_key(username)),
                              None)
        elif account_id is None:
            account_id = self.tokens.get(token_hash or "")
        return self.rows.get(account_id) if account_id is not None else None

    def password_hash(self, account_id: int) -> str:
        return self.hashes[account_id]

    def accounts(self) -> list[tuple[Account, int]]:
        return [(account, 0) for account in self.rows.values()]

    def update_account(self, account_id: int, *, password_hash: str | None = None, disabled: bool | None = None,
                       language: str | None = None, end_sessions: bool = False) -> None:
        account = self.rows.get(account_id)
        if account is None:
            raise NotFound("account")
        if password_hash is not None:
            self.hashes[account_id] = password_hash
        changes: dict[str, Any] = {"disabled": disabled, "language": language}
        account = dataclasses.replace(account, **{k: v for k, v in changes.items() if v is not None})
        if end_sessions:
            account = dataclasses.replace(account, session_epoch=account.session_epoch + 1)
            self.tokens = {token: owner for token, owner in self.tokens.items() if owner != account_id}
        self.rows[account_id] = account

    def add_token(self, account_id: int, token_hash: str) -> None:
        self.tokens[token_hash] = account_id

    def delete_token(self, token_hash: str) -> None:
        self.tokens.pop(token_hash, None)

    def start_session(self, session_hash: str, account_id: int | None, expired_before: datetime) -> None:
        self.sessions.add(session_hash)

    def session_alive(self, session_hash: str, remembered: bool = False) -> bool:
        return session_hash in self.sessions

    def end_session(self, session_hash: str) -> None:
        self.sessions.discard(session_hash)

    def failures(self, keys: Sequence[str], since: datetime) -> dict[str, int]:
        counts: dict[str, int] = {}
        for key, at in self.failed:
            if key in keys and at >= since:
                counts[key] = counts.get(key, 0) + 1
        return counts

    def record_failure(self, keys: Sequence[str], older_than: datetime) -> None:
        self.failed = [(key, at) for key, at in self.failed if at >= older_than] + [(key, now()) for key in keys]

    def forget_failures(self, key: str) -> None:
        self.failed = [(k, at) for k, at in self.failed if k != key]

    def claim(self, account_id: int) -> int:
        return 0  # nothing here comes from before accounts


class FakeShares:
    def __init__(self, pulkas: FakePulkas):
        self.pulkas = pulkas
        self.links: dict[str, Share] = {}
        self.granted: set[tuple[int, str]] = set()

    def add_share(self, uid: str, role: Role, label: str, player: int | None = None) -> Share:
        self.pulkas.get(uid)  # NotFound
        share = Share(secrets.token_urlsafe(9), uid, secrets.token_urlsafe(24), role, label, now(), None, player)
        self.links[share.id] = share
        return share

    def _table(self, uid: str) -> str | None:
        row = self.pulkas.rows.get(uid)
        return row.table if row else None

    def shares(self, uid: str) -> list[Share]:
        return [share for share in self.links.values() if self._table(share.pulka_uid) == self._table(uid)]

    def share(self, token: str) -> Share | None:
        """For the table's last pulka (dicts keep the order they were made in)."""
        share = next((share for share in self.links.values() if share.token == token), None)
        if share is None:
            return None
        table = self._table(share.pulka_uid)
        last = [row.uid for row in self.pulkas.rows.values() if row.table == table][-1]
        return dataclasses.replace(share, pulka_uid=last)

    def delete_share(self, uid: str, share_id: str) -> None:
        share = self.links.get(share_id)
        if share is None or self._table(share.pulka_uid) != self._table(uid):
            raise NotFound("share link")
        del self.links[share_id]

    def grant(self, account_id: int, share: Share) -> None:
        self.granted.add((account_id, share.id))

    def access(self, uid: str, account_id: int | None, share_tokens: Sequence[str],
               remembered: bool = False) -> Access | None:
        row = self.pulkas.rows.get(uid)
        if row is None:
            return None
        held = [s for s in self.shares(uid) if s.token in share_tokens or (account_id, s.id) in self.granted]
        return access_of(account_id is not None and row.owner_id == account_id,
                         [Access(s.role, s.label, s.id, s.player) for s in held])


class FakeStore:
    """The fakes together, shaped as the app's Store; also its own unit of work (services.unit.UnitOfWork):
    each fake keeps a write as its block ends, so a unit only keeps the keys."""

    def __init__(self) -> None:
        self.pulkas = FakePulkas()
        self.accounts = FakeAccounts()
        self.shares = FakeShares(self.pulkas)
        self.ledger = FakeLedger(())
        self.players = FakePlayers({})
        self.keys: dict[tuple[str, str, str], tuple[str, Answer]] = {}

    def unit(self) -> FakeStore:
        return self

    def answered(self, key: Key) -> Answer | None:
        found = self.keys.get((key.scope, key.route, key.key))
        if found is not None and found[0] != key.fingerprint:
            raise KeyReused()
        return found[1] if found is not None else None

    def remember(self, key: Key, answer: Answer) -> None:
        if (key.scope, key.route, key.key) in self.keys:
            raise KeyTaken()
        self.keys[key.scope, key.route, key.key] = (key.fingerprint, answer)

    def commit(self) -> None:
        pass

    def rollback(self) -> None:
        pass


def rows(store: FakeStore) -> object:
    """Everything the fakes hold, to show that a refused use case changed nothing."""
    return copy.deepcopy((store.pulkas.rows, store.keys, store.accounts.rows, store.accounts.hashes,
                          store.accounts.tokens, store.shares.links))


class FakeLedger:
    """The ledger's rows in memory (services.ledger.LedgerRepository): obligations as frozen pulkas leave
    them, and payments appended by writes, kept only when the write's block ends without an error."""

    def __init__(self, players: Sequence[str], currencies: Iterable[str] = ()) -> None:
        self.players = {p: Player(p, p.upper()) for p in players}
        self.obligations: list[Any] = []
        self.payments: list[Any] = []
        self.seats: dict[str, tuple[str, ...]] = {}
        self.currencies = frozenset(currencies)  # what the account's pulkas play for

    def rows(self, account_id: int) -> Any:
        from scorekeeper.web.domain.ledger import Rows
        return Rows(self.players, tuple(self.obligations), tuple(self.payments))

    @contextmanager
    def writing(self, account_id: int, by: str) -> Iterator[Any]:
        write = _FakeLedgerWrite(self.rows(account_id), by, self.currencies)
        yield write
        self.payments.extend(write.added)

    def seated(self, account_id: int, pulka: str) -> tuple[str, ...]:
        if pulka not in self.seats:
            raise NotFound()
        return self.seats[pulka]


class _FakeLedgerWrite:
    """One write's loads (services.ledger.LedgerWrite), from the rows as they stand and what it added: filters
    and sums, as the store's queries are."""

    def __init__(self, rows: Any, by: str, currencies: frozenset[str]) -> None:
        self.rows, self.by, self.added, self.pulka_currencies = rows, by, list[Any](), currencies

    def currencies(self) -> Any:
        return {*self.rows.currencies(), *(r.payment.currency for r in self.added), *self.pulka_currencies}

    @property
    def players(self) -> Any:
        return self.rows.players

    def _payments(self) -> list[Any]:
        return [*self.rows.payments, *self.added]

    def obligation(self, id: str) -> Any:
        return next((e for e in self.rows.obligations if e.obligation.id == id), None)

    def obligations(self, currency: str) -> Any:
        return [e for e in self.rows.obligations if e.obligation.currency == currency]

    def payment(self, id: str) -> Any:
        return next((r for r in self._payments() if r.payment.id == id), None)

    def reversal_of(self, id: str) -> Any:
        return next((r for r in self._payments() if r.payment.reverses == id), None)

    def on(self, obligation: Any) -> Any:
        o = obligation.obligation
        return [r for r in self._payments() if r.payment.obligation == o.id and r.payment.currency == o.currency]

    def paid_on(self, currency: str, obligations: Any) -> Any:
        found: dict[str, Any] = {}
        for r in self._payments():
            p = r.payment
            if p.currency == currency and p.obligation in obligations:
                found[p.obligation] = found.get(p.obligation, 0) + p.cents
        return {id: Decimal(cents).scaleb(-2) for id, cents in found.items()}

    def paid_net(self, currency: str, players: Any = None) -> Any:
        found: dict[str, int] = {}
        for r in self._payments():
            p = r.payment
            if p.currency == currency:
                found[p.payer] = found.get(p.payer, 0) + p.cents
                found[p.payee] = found.get(p.payee, 0) - p.cents
        return {player: Decimal(cents).scaleb(-2) for player, cents in found.items()
                if players is None or player in players}

    def add(self, payment: Any, note: str = "") -> Any:
        from scorekeeper.web.domain.ledger import Row
        row = Row(dataclasses.replace(payment, id=secrets.token_hex(6)), note, self.by, now(), True)
        self.added.append(row)
        return row


class FakePlayers:
    """One account's own players in memory (services.players.PlayerRepository): each one's name, whom he is
    merged into, the pulkas he sat in, and the pairs a payment row stands between; a write is kept only when
    its block ends without an error."""

    def __init__(self, pulkas: dict[str, set[str]], paid: Iterable[tuple[str, str]] = ()) -> None:
        self.names = {uid: uid.upper() for uid in pulkas}
        self.into: dict[str, str | None] = dict.fromkeys(pulkas)
        self.pulkas = pulkas
        self.paid = set(paid)  # (payer, payee) of each payment row

    def records(self, account_id: int, unfinished: bool = False
                ) -> tuple[list[Player], tuple[Record[str], ...], dict[str, str]]:
        return [Player(uid, name) for uid, name in self.names.items() if self.into[uid] is None], (), {}

    def merged_ones(self, account_id: int, uid: str) -> list[Player]:
        def above(p: str) -> list[str]:  # whom he is merged into, and whom that one is, in turn
            chain: list[str] = []
            while (into := self.into[p]) is not None and into not in chain:
                chain.append(into)
                p = into
            return chain

        return [Player(p, self.names[p]) for p in sorted(self.names, key=self.names.__getitem__) if uid in above(p)]

    def seated(self, account_id: int, pulka: str) -> tuple[str, ...]:
        return tuple(uid for uid, pulkas in self.pulkas.items() if pulka in pulkas)

    @contextmanager
    def writing(self, account_id: int) -> Iterator[FakePlayers]:
        kept = copy.deepcopy((self.names, self.into))
        try:
            yield self
        except BaseException:
            self.names, self.into = kept
            raise

    def member(self, uid: str) -> Member | None:
        if uid not in self.names:
            return None
        return Member(uid, self.into[uid], tuple(p for p, into in self.into.items() if into == uid),
                      frozenset(self.pulkas[uid]))

    def counterparts(self, uids: Iterable[str]) -> frozenset[str]:
        them = set(uids)
        return frozenset(b for a, b in self.paid if a in them) | frozenset(a for a, b in self.paid if b in them)

    def rename(self, uid: str, name: str) -> Player:
        if any(other != uid and taken == name for other, taken in self.names.items()):
            raise Duplicate()  # the unique index on (owner, name)
        self.names[uid] = name
        return Player(uid, name)

    def circle(self) -> dict[str, str]:
        return dict(self.names)

    def beside(self, uids: Iterable[str]) -> frozenset[str]:
        them = set(uids)
        tables = {pulka for uid in them for pulka in self.pulkas[uid]}
        return frozenset(self.names[uid] for uid, pulkas in self.pulkas.items() if uid not in them and pulkas & tables)

    def merge(self, uids: Iterable[str], into: str | None) -> None:
        for uid in uids:
            self.into[uid] = into



# Each fake is what its Protocol asks (mypy checks these lines when it checks the tests).
_: tuple[PulkaRepository, AccountRepository, ShareRepository, LedgerRepository, PlayerRepository, UnitOfWork] = (
    FakePulkas(), FakeAccounts(), FakeShares(FakePulkas()), FakeLedger(()), FakePlayers({}), FakeStore().unit())
