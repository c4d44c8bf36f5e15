"""Accounts, their API tokens, sessions and failed log-ins in the database (services.accounts.AccountRepository)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, CursorResult, ScalarSelect, bindparam, delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..domain.accounts import Account, username_key
from ..domain.limits import USERNAME_KEY_MAX
from ..domain.refusals import Duplicate, NotFound
from .db import Database, noting
from .changes import INSERTS
from .circles import circle_changed
from .models import AccountRow, DealRow, LoginFailureRow, PlayerRow, PulkaRow, SessionRow, TokenRow
from .transaction import Writer
from .watch import Watch, access_changed

_ACCOUNTS = select(*AccountRow.__table__.c)
# One of these is looked up on every request that carries a session or a token: built once.
_ACCOUNT_BY = {
    "id": _ACCOUNTS.where(AccountRow.id == bindparam("value")),
    "username": _ACCOUNTS.where(AccountRow.username_key == bindparam("value")),
    "token": _ACCOUNTS.join(TokenRow, TokenRow.account_id == AccountRow.id).where(TokenRow.token_hash == bindparam("value")),
}


class AccountStore(Writer):
    def __init__(self, db: Database, watch: Watch):
        self.db = db
        self.watch = watch  # remembers accounts while no account (or access) changed

    def create_account(self, username: str, password_hash: str) -> Account:
        """A new account; the first of the instance is its administrator and takes over the pulkas and
        players from before accounts existed. Registrations at once on an empty instance may each count no
        account: the unique index on the administrator (models.AccountRow) lets one of them be it, the
        others' rows as administrator are not inserted (ON CONFLICT DO NOTHING, so that the transaction goes
        on), and they are made as plain accounts. Duplicate: the name is taken."""
        with self._writes() as transaction:
            session = transaction.session
            values = {"username": username, "username_key": username_key(username), "password_hash": password_hash}
            try:
                row = None
                if self._no_accounts():
                    insert_into = INSERTS[session.get_bind().dialect.name]
                    row = session.execute(insert_into(AccountRow).values(**values, is_admin=True)
                                          .on_conflict_do_nothing(index_elements=["is_admin"],
                                                                  index_where=text("is_admin"))
                                          .returning(*AccountRow.__table__.c)).first()
                if row is None:  # not the first, or another registration became the administrator first
                    row = session.execute(insert(AccountRow).values(**values, is_admin=False)
                                          .returning(*AccountRow.__table__.c)).one()
            except IntegrityError:
                raise Duplicate() from None  # the name's unique index
            if row.is_admin:
                _claim(session, row.id)
            transaction.on_commit(self.watch.access_changed)  # a name that was nobody's is somebody's
            return account_of(row)

    def _no_accounts(self) -> bool:
        with self.db.reads.connect() as connection:
            return connection.execute(select(func.count()).select_from(AccountRow)).scalar_one() == 0

    def account(self, *, account_id: int | None = None, username: str | None = None,
                token_hash: str | None = None, remembered: bool = False) -> Account | None:
        """An account by its id, its username, or the hash of one of its API tokens; `remembered` (for the
        version check): what this process remembers while no account changed, if it may trust it."""
        value: int | str | None
        if account_id is not None:
            by, value = "id", account_id
        elif username is not None:
            by, value = "username", username_key(username)
            if len(value) > USERNAME_KEY_MAX:
                return None  # nobody's: no column holds it
        else:
            by, value = "token", token_hash

        def ask() -> Account | None:
            with self.db.reads.connect() as connection:
                row = connection.execute(_ACCOUNT_BY[by], {"value": value}).first()
            return account_of(row) if row is not None else None

        return self.watch.remembered(("account", by, value), ask) if remembered else ask()

    def password_hash(self, account_id: int) -> str:
        with self.db.reads.connect() as connection:
            return connection.execute(select(AccountRow.password_hash).where(AccountRow.id == account_id)).scalar_one()

    def accounts(self) -> list[tuple[Account, int]]:
        """Every account with the number of its pulkas."""
        with self.db.Session() as session:
            counts: dict[int | None, int] = {owner: count for owner, count in session.execute(
                select(PulkaRow.owner_id, func.count()).group_by(PulkaRow.owner_id))}
            return [(account_of(row), counts.get(row.id, 0))
                    for row in session.scalars(select(AccountRow).order_by(AccountRow.username_key))]

    def update_account(self, account_id: int, *, password_hash: str | None = None, disabled: bool | None = None,
                       language: str | None = None, end_sessions: bool = False) -> None:
        """Change an account's password hash, flag or language; `end_sessions` signs out every browser."""
        given = {"password_hash": password_hash, "disabled": disabled, "language": language}
        values: dict[str, Any] = {name: value for name, value in given.items() if value is not None}
        if end_sessions:
            values["session_epoch"] = AccountRow.session_epoch + 1
        with self._writes() as transaction:
            connection = transaction.session.connection()
            if not connection.execute(update(AccountRow).where(AccountRow.id == account_id).values(**values)).rowcount:
                raise NotFound("account")
            if end_sessions:
                connection.execute(delete(TokenRow).where(TokenRow.account_id == account_id))
                connection.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            access_changed(connection)
            transaction.on_commit(self.watch.access_changed)

    def add_token(self, account_id: int, token_hash: str) -> None:
        with self._writes() as transaction:
            transaction.session.add(TokenRow(account_id=account_id, token_hash=token_hash))
            transaction.session.flush()

    def delete_token(self, token_hash: str) -> None:
        with self._writes() as transaction:
            connection = transaction.session.connection()
            connection.execute(delete(TokenRow).where(TokenRow.token_hash == token_hash))
            access_changed(connection)
            transaction.on_commit(self.watch.access_changed)

    def start_session(self, session_hash: str, account_id: int | None, expired_before: datetime) -> None:
        with self.db.engine.begin() as connection:
            connection.execute(delete(SessionRow).where(SessionRow.created_at < expired_before))
            connection.execute(insert(SessionRow).values(id=session_hash, account_id=account_id))

    def session_alive(self, session_hash: str, remembered: bool = False) -> bool:
        def ask() -> bool:
            with self.db.reads.connect() as connection:
                return connection.execute(select(SessionRow.id).where(SessionRow.id == session_hash)).first() is not None

        return self.watch.remembered(("session", session_hash), ask) if remembered else ask()

    def end_session(self, session_hash: str) -> None:
        with self.db.engine.begin() as connection:
            connection.execute(delete(SessionRow).where(SessionRow.id == session_hash))
            access_changed(connection)  # what other processes remember of it is asked again
        self.watch.access_changed()

    def failures(self, keys: Sequence[str], since: datetime) -> dict[str, int]:
        """Failed log-ins since `since`, by key."""
        with self.db.reads.connect() as connection:
            return {key: count for key, count in connection.execute(
                select(LoginFailureRow.key, func.count()).where(LoginFailureRow.key.in_(keys), LoginFailureRow.at >= since)
                .group_by(LoginFailureRow.key))}

    def record_failure(self, keys: Sequence[str], older_than: datetime) -> None:
        """Count a failed log-in under each key; what is older than the window is of no use any more."""
        with self.db.Session.begin() as session:
            session.execute(delete(LoginFailureRow).where(LoginFailureRow.at < older_than))
            session.add_all(LoginFailureRow(key=key) for key in keys)

    def forget_failures(self, key: str) -> None:
        with noting(), self.db.engine.begin() as connection:
            connection.execute(delete(LoginFailureRow).where(LoginFailureRow.key == key))

    def claim(self, account_id: int) -> int:
        """Give the pulkas and players from before accounts to the account; how many pulkas it got."""
        with self._writes() as transaction:
            claimed = _claim(transaction.session, account_id)
            transaction.on_commit(self.watch.access_changed)
        return claimed


def account_of(row: Any) -> Account:
    """An account from its row (an ORM row or a plain one: the same columns)."""
    return Account(row.id, row.username, row.is_admin, row.disabled, row.session_epoch, row.created_at,
                   row.language)


def _deals_of(pulkas: ColumnElement[bool]) -> ScalarSelect[int]:
    """How many deals the pulkas that `pulkas` picks hold."""
    return (select(func.count()).select_from(DealRow).join(PulkaRow, PulkaRow.id == DealRow.pulka_id).where(pulkas)
            .scalar_subquery())


# Each account's deals counted from the deals there are (a restored archive's, whatever its counts said).
RECOUNT_DEALS = update(AccountRow).values(deals=_deals_of(PulkaRow.owner_id == AccountRow.id))


def _claim(session: Session, account_id: int) -> int:
    access_changed(session)
    circle_changed(session, account_id)
    session.execute(update(PlayerRow).where(PlayerRow.owner_id.is_(None)).values(owner_id=account_id))
    session.execute(update(AccountRow).where(AccountRow.id == account_id)
                    .values(deals=AccountRow.deals + _deals_of(PulkaRow.owner_id.is_(None))))
    # A new version: pulkas cached by version elsewhere learn their owner.
    claimed = cast(CursorResult[Any], session.execute(update(PulkaRow).where(PulkaRow.owner_id.is_(None))
                                                      .values(owner_id=account_id, version=PulkaRow.version + 1)))
    return claimed.rowcount
