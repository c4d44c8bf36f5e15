"""The only module that reads and writes rows: it turns them into engine objects and back.

Rows hold seats (ints) and rules as the pulka file writes them; a pulka comes
out as a `domain.Pulka`, replayed, and is kept by (uid, version). A write
bumps the version first, which locks the pulka's row for the transaction.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import bindparam, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from ..engine import Contract, Deal, DealType, Replay, Rules, replay
from .cache import Section, VersionCache
from .db import Database, cannot_save
from .domain import Account, AccountInvalid, Answer, Answered, KeyReused, Msg, NotFound, Once, Pulka, Role, Settings, Share
from .models import (AccessRow, AccountRow, DealRow, IdempotencyRow, LoginFailureRow, PlayerRow, PulkaRow, SeatRow,
                     ShareRow, TokenRow, now)


@dataclass(frozen=True)
class Summary:
    uid: str
    name: str
    players: tuple[str, ...]
    deals: int
    updated_at: datetime
    role: Role = Role.OWNER


_VERSION = select(PulkaRow.version).where(PulkaRow.uid == bindparam("uid"))
# A pulka's owner, and the share links of it that the caller holds (built once: it runs on every request).
_ACCESS = (
    select(PulkaRow.owner_id, ShareRow.id.label("share_id"), ShareRow.role, ShareRow.label, ShareRow.last_used_at)
    .select_from(PulkaRow)
    .outerjoin(ShareRow, (ShareRow.pulka_id == PulkaRow.id) & or_(
        ShareRow.token.in_(bindparam("tokens", expanding=True)),
        ShareRow.id.in_(select(AccessRow.share_id).where(AccessRow.account_id == bindparam("account")))))
    .where(PulkaRow.uid == bindparam("uid"))
)
_ACCOUNTS = select(*AccountRow.__table__.c)
_ACCOUNT_BY = {
    "id": _ACCOUNTS.where(AccountRow.id == bindparam("value")),
    "username": _ACCOUNTS.where(AccountRow.username_key == bindparam("value")),
    "token": _ACCOUNTS.join(TokenRow, TokenRow.account_id == AccountRow.id).where(TokenRow.token_hash == bindparam("value")),
}
# INSERT … ON CONFLICT is each dialect's own construct (the same SQL in both).
_INSERT = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}
# A share link's last use is written at most this often: reading the sheet should not write every time.
LAST_USED_EVERY = timedelta(minutes=10)
# An idempotency key answers its retries this long at least; each process drops older keys about once an hour.
KEEP_ANSWERS = timedelta(hours=24)
SWEEP_EVERY = 3600.0  # seconds


def new_uid() -> str:
    """128 random bits, URL-safe: a pulka's address cannot be guessed, and no two pulkas ever share one."""
    return secrets.token_urlsafe(16)


class Repository:
    """One per app: the database, and this process's pulkas by version."""

    def __init__(self, db: Database, cache: Section[Pulka] | None = None, max_deals: int = 1000):
        self.db = db
        self.max_deals = max_deals  # the app's limit on a pulka's deals, which the use cases keep
        # The app gives its share of one budget in bytes; alone (tests, commands): the 256 latest pulkas.
        self.cache = cache or VersionCache(256).section("pulkas")
        self._swept: float | None = None  # when this process last dropped old idempotency keys

    # -- reading ------------------------------------------------------------------------

    def get(self, uid: str) -> Pulka:
        # A plain connection for the version: the ORM session costs more than the page it guards.
        with self.db.reads.connect() as connection:
            version = connection.execute(_VERSION, {"uid": uid}).scalar()
        if version is None:
            raise NotFound()
        pulka = self.cache.get((uid, version))
        if pulka is None:
            with self.db.Session() as session:
                row = session.scalars(select(PulkaRow).where(PulkaRow.uid == uid)).one_or_none()
                if row is None:
                    raise NotFound()
                pulka = _pulka(row, _deals(session, row.id))
            self.cache.put((uid, pulka.version), pulka)
        return pulka

    def summaries(self, account_id: int) -> list[Summary]:
        """The account's pulkas and those shared with it (the best role it holds), newest first."""
        with self.db.Session() as session:
            shared: dict[int, list[str]] = {}
            for pulka_id, role in session.execute(
                    select(ShareRow.pulka_id, ShareRow.role).join(AccessRow, AccessRow.share_id == ShareRow.id)
                    .where(AccessRow.account_id == account_id)):
                shared.setdefault(pulka_id, []).append(role)
            rows = list(session.scalars(
                select(PulkaRow).where(or_(PulkaRow.owner_id == account_id, PulkaRow.id.in_(shared)))
                .order_by(PulkaRow.updated_at.desc(), PulkaRow.id.desc())))
            counts = dict(session.execute(select(DealRow.pulka_id, func.count())
                                          .where(DealRow.pulka_id.in_([r.id for r in rows]))
                                          .group_by(DealRow.pulka_id)).all())
            return [Summary(r.uid, r.name, _players(r), counts.get(r.id, 0), _aware(r.updated_at),
                            Role.OWNER if r.owner_id == account_id else _best(shared[r.id])) for r in rows]

    def player_names(self, account_id: int) -> list[str]:
        """The names the account has seated (its circle)."""
        with self.db.Session() as session:
            return list(session.scalars(
                select(PlayerRow.name).where(PlayerRow.owner_id == account_id).order_by(PlayerRow.name)))

    def role(self, uid: str, account_id: int | None,
             share_tokens: Sequence[str]) -> tuple[Role, str, str | None] | None:
        """What this caller may do with the pulka, and the name and id of the share link that allows it: its
        owner (no link), a share link it holds (a token it brings, or a link its account opened), or nothing
        (None, whether or not the pulka exists). One query: every watching phone asks this every few seconds."""
        with self.db.reads.connect() as connection:
            rows = connection.execute(_ACCESS, {"uid": uid, "account": account_id, "tokens": list(share_tokens)}).all()
        if not rows:
            return None
        if rows[0].owner_id is not None and rows[0].owner_id == account_id:
            return Role.OWNER, "", None
        shares = [row for row in rows if row.share_id is not None]
        if not shares:
            return None
        self._used([share.share_id for share in shares
                    if share.last_used_at is None or now() - _aware(share.last_used_at) > LAST_USED_EVERY])
        best = min(shares, key=lambda share: share.role != Role.SCORER)  # a scorer link, if it holds one
        return Role(best.role), best.label, best.share_id

    def _used(self, share_ids: Sequence[str]) -> None:
        if share_ids:
            with _noting(), self.db.engine.begin() as connection:
                connection.execute(update(ShareRow).where(ShareRow.id.in_(share_ids)).values(last_used_at=now()))

    # -- writing ------------------------------------------------------------------------

    def create(self, owner_id: int, settings: Settings, deals: Sequence[Deal], replayed: Replay,
               started: datetime | None = None, once: Once | None = None) -> Pulka:
        """A new pulka of the account with its deals (an import brings some, and when it started), already
        replayed by the caller; made once under the idempotency key `once`."""
        self._sweep(once)
        try:
            with self.db.Session.begin() as session:
                row = PulkaRow(uid=new_uid(), owner_id=owner_id, name=settings.name, currency=settings.currency,
                               rules=settings.rules.overrides(), first_dealer=settings.first_dealer, version=1,
                               created_at=started or now())
                row.seats = _seats(session, owner_id, settings.players)
                session.add(row)
                session.flush()
                session.add_all(DealRow(pulka_id=row.id, position=number, **deal_values(deal))
                                for number, deal in enumerate(deals, 1))
                session.flush()
                pulka = _pulka(row, tuple(deals), replayed)
                _remember(session, once, pulka)
        except IntegrityError:
            # A new pulka locks nothing that a retry would wait for: the same request sent again while this
            # one was made stored the key first, and the key's unique constraint refused this one.
            answer = self.answered(once) if once is not None else None
            if answer is None:
                raise
            raise Answered(answer) from None
        return self.cache.put((pulka.uid, pulka.version), pulka)

    @contextmanager
    def writing(self, uid: str, once: Once | None = None) -> Iterator[Change]:
        """One transaction on one pulka: committed when the block ends, rolled back if it raises. Under the
        idempotency key `once`, the key and its answer are stored in the same transaction; Answered if the
        key's write was made already."""
        self._sweep(once)
        with self.db.Session.begin() as session:
            # Bumping the version first locks the pulka (a row lock in PostgreSQL, the write lock in
            # SQLite), so concurrent writes to one pulka queue up instead of interleaving.
            found = session.execute(
                update(PulkaRow).where(PulkaRow.uid == uid)
                .values(version=PulkaRow.version + 1, updated_at=now())
                .returning(PulkaRow.id, PulkaRow.version)).first()
            if found is None:
                raise NotFound()
            # Looked for under the lock: the same request sent again while the first was being written
            # waited for the lock above, and finds the first one's key here.
            if once is not None and (answer := _answer(session, once)) is not None:
                raise Answered(answer)
            pulka_id, version = found
            before = self.cache.get((uid, version - 1))
            if before is None:
                row = session.get(PulkaRow, pulka_id)
                before = dataclasses.replace(_pulka(row, _deals(session, pulka_id)), version=version - 1)
            change = Change(session, pulka_id, before)
            yield change
            _remember(session, once, change.after)
        if change.after is not None:
            self.cache.put((uid, change.after.version), change.after)

    def answered(self, once: Once) -> Answer | None:
        """What the write of this idempotency key answered, if it was made (KeyReused if the key came with
        another request)."""
        with self.db.reads.connect() as connection:
            return _answer(connection, once)

    def _sweep(self, once: Once | None) -> None:
        """Drop the idempotency keys older than KEEP_ANSWERS, at most once an hour in each process: one
        DELETE along the index on their time, in a transaction of its own before a write with a key."""
        if once is None or (self._swept is not None and time.monotonic() - self._swept < SWEEP_EVERY):
            return
        self._swept = time.monotonic()
        with self.db.engine.begin() as connection:
            connection.execute(delete(IdempotencyRow).where(IdempotencyRow.created_at < now() - KEEP_ANSWERS))

    def delete(self, uid: str) -> None:
        with self.db.Session.begin() as session:
            row = session.scalars(select(PulkaRow).where(PulkaRow.uid == uid)).one_or_none()
            if row is None:
                raise NotFound()
            session.delete(row)


    # -- accounts -------------------------------------------------------------------------

    def create_account(self, username: str, password_hash: str) -> Account:
        """A new account; the first of the instance is its administrator and takes over the pulkas and
        players from before accounts existed."""
        try:
            with self.db.Session.begin() as session:
                first = session.scalar(select(func.count()).select_from(AccountRow)) == 0
                row = AccountRow(username=username, username_key=username_key(username),
                                 password_hash=password_hash, is_admin=first)
                session.add(row)
                session.flush()
                if first:
                    _claim(session, row.id)
                return _account(row)
        except IntegrityError:
            raise AccountInvalid(Msg("the username {username} is taken")(username=repr(username)), "username") from None

    def account(self, *, account_id: int | None = None, username: str | None = None,
                token_hash: str | None = None) -> Account | None:
        """An account by its id, its username, or the hash of one of its API tokens (one of these is
        looked up on every request that carries a session or a token)."""
        if account_id is not None:
            statement, value = _ACCOUNT_BY["id"], account_id
        elif username is not None:
            statement, value = _ACCOUNT_BY["username"], username_key(username)
        else:
            statement, value = _ACCOUNT_BY["token"], token_hash
        with self.db.reads.connect() as connection:
            row = connection.execute(statement, {"value": value}).first()
        return _account(row) if row is not None else None

    def password_hash(self, account_id: int) -> str:
        with self.db.reads.connect() as connection:
            return connection.execute(select(AccountRow.password_hash).where(AccountRow.id == account_id)).scalar_one()

    def accounts(self) -> list[tuple[Account, int]]:
        """Every account with the number of its pulkas."""
        with self.db.Session() as session:
            counts = dict(session.execute(select(PulkaRow.owner_id, func.count()).group_by(PulkaRow.owner_id)).all())
            return [(_account(row), counts.get(row.id, 0))
                    for row in session.scalars(select(AccountRow).order_by(AccountRow.username_key))]

    def update_account(self, account_id: int, *, end_sessions: bool = False, **values: object) -> None:
        """Change an account's password hash or flags; `end_sessions` signs out every browser."""
        if end_sessions:
            values["session_epoch"] = AccountRow.session_epoch + 1
        with self.db.engine.begin() as connection:
            if not connection.execute(update(AccountRow).where(AccountRow.id == account_id).values(**values)).rowcount:
                raise NotFound("account")
            if end_sessions:
                connection.execute(delete(TokenRow).where(TokenRow.account_id == account_id))

    def add_token(self, account_id: int, token_hash: str) -> None:
        with self.db.Session.begin() as session:
            session.add(TokenRow(account_id=account_id, token_hash=token_hash))

    def delete_token(self, token_hash: str) -> None:
        with self.db.engine.begin() as connection:
            connection.execute(delete(TokenRow).where(TokenRow.token_hash == token_hash))

    def failures(self, keys: Sequence[str], since: datetime) -> dict[str, int]:
        """Failed log-ins since `since`, by key."""
        with self.db.reads.connect() as connection:
            return dict(connection.execute(
                select(LoginFailureRow.key, func.count()).where(LoginFailureRow.key.in_(keys), LoginFailureRow.at >= since)
                .group_by(LoginFailureRow.key)).all())

    def record_failure(self, keys: Sequence[str], older_than: datetime) -> None:
        """Count a failed log-in under each key; what is older than the window is of no use any more."""
        with self.db.Session.begin() as session:
            session.execute(delete(LoginFailureRow).where(LoginFailureRow.at < older_than))
            session.add_all(LoginFailureRow(key=key) for key in keys)

    def forget_failures(self, key: str) -> None:
        with _noting(), self.db.engine.begin() as connection:
            connection.execute(delete(LoginFailureRow).where(LoginFailureRow.key == key))

    def claim(self, account_id: int) -> int:
        """Give the pulkas and players from before accounts to the account; how many pulkas it got."""
        with self.db.Session.begin() as session:
            return _claim(session, account_id)

    # -- share links ----------------------------------------------------------------------

    def add_share(self, uid: str, role: Role, label: str) -> Share:
        with self.db.Session.begin() as session:
            pulka_id = session.scalar(select(PulkaRow.id).where(PulkaRow.uid == uid))
            if pulka_id is None:
                raise NotFound()
            row = ShareRow(id=secrets.token_urlsafe(9), pulka_id=pulka_id, token=secrets.token_urlsafe(24),
                           role=role.value, label=label)
            session.add(row)
            session.flush()
            return _share(row, uid)

    def shares(self, uid: str) -> list[Share]:
        with self.db.Session() as session:
            rows = session.scalars(select(ShareRow).join(PulkaRow, PulkaRow.id == ShareRow.pulka_id)
                                   .where(PulkaRow.uid == uid).order_by(ShareRow.created_at, ShareRow.id))
            return [_share(row, uid) for row in rows]

    def share(self, token: str) -> Share | None:
        with self.db.Session() as session:
            found = session.execute(select(ShareRow, PulkaRow.uid).join(PulkaRow, PulkaRow.id == ShareRow.pulka_id)
                                    .where(ShareRow.token == token)).first()
            return _share(*found) if found else None

    def delete_share(self, uid: str, share_id: str) -> None:
        with self.db.engine.begin() as connection:
            pulka_id = select(PulkaRow.id).where(PulkaRow.uid == uid).scalar_subquery()
            gone = connection.execute(delete(ShareRow).where(ShareRow.id == share_id, ShareRow.pulka_id == pulka_id))
            if not gone.rowcount:
                raise NotFound("share link")

    def grant(self, account_id: int, share: Share) -> None:
        """The account opened the share link: the pulka joins its list (unless it is the owner's own)."""
        with self.db.Session.begin() as session:
            if session.get(AccessRow, (account_id, share.id)) is None:
                session.add(AccessRow(account_id=account_id, share_id=share.id))
        self._used([share.id])


class Change:
    """The rows of one write: what the use case decided, said in deals and settings."""

    def __init__(self, session: Session, pulka_id: int, before: Pulka):
        self.session = session
        self.pulka_id = pulka_id
        self.before = before
        self.after: Pulka | None = None

    def append(self, deal: Deal) -> None:
        self.session.add(DealRow(pulka_id=self.pulka_id, position=len(self.before.deals) + 1, **deal_values(deal)))

    def replace(self, number: int, deal: Deal) -> None:
        self._execute(update(DealRow).where(self._at(number)).values(**deal_values(deal)))

    def remove(self, number: int) -> None:
        mine = DealRow.pulka_id == self.pulka_id
        self._execute(delete(DealRow).where(self._at(number)))
        # Two steps, because (pulka_id, position) is unique at every row update in PostgreSQL.
        self._execute(update(DealRow).where(mine & (DealRow.position > number)).values(position=-DealRow.position))
        self._execute(update(DealRow).where(mine & (DealRow.position < 0)).values(position=-DealRow.position - 1))

    def set_settings(self, settings: Settings) -> None:
        row = self.session.get(PulkaRow, self.pulka_id)
        row.name, row.currency = settings.name, settings.currency
        if settings.seating != self.before.settings.seating:
            row.rules, row.first_dealer = settings.rules.overrides(), settings.first_dealer
            if settings.players != self.before.players:
                for seat in list(row.seats):
                    self.session.delete(seat)
                self.session.flush()
                row.seats = _seats(self.session, row.owner_id, settings.players)

    def done(self, deals: Sequence[Deal], replayed: Replay, note: dict[str, object],
             settings: Settings | None = None) -> Pulka:
        """The pulka this write makes, kept by its new version once the transaction commits. `note` says what
        the write did and who did it, for the phones that watch the sheet."""
        self._execute(update(PulkaRow).where(PulkaRow.id == self.pulka_id).values(last_change=note))
        self.session.flush()
        s = settings or self.before.settings
        self.after = dataclasses.replace(
            self.before, version=self.before.version + 1, name=s.name, currency=s.currency, players=s.players,
            first_dealer=s.first_dealer, rules=s.rules, deals=tuple(deals), replay=replayed, updated_at=now(),
            last_change=note)
        return self.after

    def _at(self, number: int):
        return (DealRow.pulka_id == self.pulka_id) & (DealRow.position == number)

    def _execute(self, statement) -> None:
        # No deal row is loaded in this session, so there is nothing to keep in step with the statement.
        self.session.execute(statement, execution_options={"synchronize_session": False})


@contextmanager
def _noting() -> Iterator[None]:
    """A write that only notes something (when a link was last used, log-in failures to forget) is left
    out while the database cannot save (db.cannot_save), so that reading and logging in still work."""
    try:
        yield
    except SQLAlchemyError as error:
        if not cannot_save(error):
            raise


# -- idempotency keys ------------------------------------------------------------------------------


def _key(once: Once):
    return ((IdempotencyRow.scope == once.scope) & (IdempotencyRow.route == once.route)
            & (IdempotencyRow.key == once.key))


def _answer(connection, once: Once) -> Answer | None:
    """The stored answer of the key (through a session or a plain connection); KeyReused for another request."""
    row = connection.execute(select(IdempotencyRow.fingerprint, IdempotencyRow.status, IdempotencyRow.body,
                                    IdempotencyRow.location, IdempotencyRow.flashes).where(_key(once))).first()
    if row is None:
        return None
    if row.fingerprint != once.fingerprint:
        raise KeyReused()
    return Answer(row.status, row.body, row.location, tuple((category, text) for category, text in row.flashes or ()))


def _remember(session: Session, once: Once | None, pulka: Pulka | None) -> None:
    """Store the key with the answer to the write that made `pulka`, in the write's transaction."""
    if once is None or pulka is None:
        return
    once.given = answer = once.answer(pulka)
    session.add(IdempotencyRow(scope=once.scope, route=once.route, key=once.key, fingerprint=once.fingerprint,
                               status=answer.status, body=answer.body, location=answer.location,
                               flashes=[list(flash) for flash in answer.flashes] or None))
    session.flush()  # a key stored meanwhile by the same request sent again is refused here, not at commit


# -- rows <-> engine objects ---------------------------------------------------------------------


def _players(row: PulkaRow) -> tuple[str, ...]:
    return tuple(seat.player.name for seat in row.seats)


def _seats(session: Session, owner_id: int | None, names: Sequence[str]) -> list[SeatRow]:
    """The seats of `names`, each an existing player of the owner's circle or a new one.

    Race-free: when two tables seat the same new name at once, INSERT … ON CONFLICT DO NOTHING lets the
    second wait for the first and then add nothing, and both find the one row. The new names go in sorted,
    so two tables adding overlapping names take their locks in the same order and cannot deadlock."""
    def known() -> dict[str, PlayerRow]:
        return {p.name: p for p in session.scalars(
            select(PlayerRow).where(PlayerRow.owner_id == owner_id, PlayerRow.name.in_(names)))}

    players = known()
    new = sorted(set(names) - set(players))
    if new:
        insert = _INSERT[session.get_bind().dialect.name]
        session.execute(insert(PlayerRow).values([{"owner_id": owner_id, "name": name} for name in new])
                        .on_conflict_do_nothing(index_elements=["owner_id", "name"]))
        players = known()
    return [SeatRow(seat=seat, player=players[name]) for seat, name in enumerate(names)]


def username_key(username: str) -> str:
    return username.strip().casefold()


def _account(row) -> Account:
    """An account from its row (an ORM row or a plain one: the same columns)."""
    return Account(row.id, row.username, row.is_admin, row.disabled, row.session_epoch, row.created_at,
                   row.language)


def _share(row: ShareRow, uid: str) -> Share:
    return Share(row.id, uid, row.token, Role(row.role), row.label, row.created_at, row.last_used_at)


def _claim(session: Session, account_id: int) -> int:
    session.execute(update(PlayerRow).where(PlayerRow.owner_id.is_(None)).values(owner_id=account_id))
    # A new version: pulkas cached by version elsewhere learn their owner.
    return session.execute(update(PulkaRow).where(PulkaRow.owner_id.is_(None))
                           .values(owner_id=account_id, version=PulkaRow.version + 1)).rowcount


def _best(roles) -> Role:
    """The most a caller holding several share links of one pulka may do."""
    return Role.SCORER if Role.SCORER in {Role(role) for role in roles} else Role.VIEWER


def _aware(moment: datetime) -> datetime:
    """In UTC, with its offset: SQLite gives back naive datetimes (stored in UTC), PostgreSQL ones in the
    session's time zone; the same pulka reads the same from either."""
    return moment.astimezone(timezone.utc) if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _deals(session: Session, pulka_id: int) -> tuple[Deal, ...]:
    rows = session.scalars(select(DealRow).where(DealRow.pulka_id == pulka_id).order_by(DealRow.position))
    return tuple(deal_of(row) for row in rows)


def _pulka(row: PulkaRow, deals: tuple[Deal, ...], replayed: Replay | None = None) -> Pulka:
    players = _players(row)
    rules = Rules.from_dict(row.rules)
    if replayed is None:
        # Stored deals replayed once already when they were written.
        replayed = replay(rules, len(players), deals, row.first_dealer)
    return Pulka(row.uid, row.version, row.name, row.currency, players, row.first_dealer, rules, deals, replayed,
                 _aware(row.created_at), _aware(row.updated_at), row.owner_id, row.last_change)


def _by_seat(mapping: Mapping[str, Any] | None) -> dict[int, Any] | None:
    return None if mapping is None else {int(seat): value for seat, value in mapping.items()}


def deal_of(row: DealRow) -> Deal:
    return Deal(DealType(row.type), row.declarer, Contract.parse(row.contract), _by_seat(row.whist),
                _by_seat(row.tricks), row.open)


def deal_values(deal: Deal) -> dict[str, Any]:
    """A deal row's columns (without pulka_id and position)."""
    return {
        "type": deal.type.value,
        "declarer": deal.declarer,
        "contract": str(deal.contract) if deal.contract else None,
        "whist": None if deal.whist is None else {str(s): str(w) for s, w in deal.whist.items()},
        "tricks": None if deal.tricks is None else {str(s): t for s, t in deal.tricks.items()},
        "open": deal.open,
    }


def current() -> Repository:
    """The app's repository, for the request being served."""
    from flask import current_app

    return current_app.extensions["scorekeeper"]
