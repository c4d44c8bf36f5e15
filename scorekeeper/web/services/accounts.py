"""Accounts: registering, logging in (with a limit on failures), passwords, API tokens.

Passwords are hashed with argon2id; API tokens are random and only their SHA-256 is stored, so a copy of
the database opens nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from functools import cache
from typing import Protocol

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ...i18n.words import Msg
from ..domain.accounts import (FAILURES_PER_ACCOUNT, FAILURES_PER_ADDRESS, FAILURES_PER_PAIR, PASSWORD_MAX,
                               TOKEN_PREFIX, WINDOW, Account, ChangePassword, CreateAccount, ResetPassword,
                               check_password, check_username, username_key)
from ..domain.limits import USERNAME_KEY_MAX
from ..domain.refusals import (AccountInvalid, Duplicate, NotFound, RegistrationClosed, TooManyAttempts,
                               Unauthorized)

# argon2-cffi's defaults: argon2id, the RFC 9106 low-memory profile (64 MiB, 3 passes).
HASHER = PasswordHasher()
SESSION_SECRET_MAX = 64  # token_urlsafe(32) is 43 characters: a longer one is nobody's


class AccountRepository(Protocol):
    def create_account(self, username: str, password_hash: str) -> Account:
        """A new account; the first of the instance is its administrator (Duplicate: the name is taken)."""

    def account(self, *, account_id: int | None = None, username: str | None = None,
                token_hash: str | None = None, remembered: bool = False) -> Account | None:
        """An account by its id, its username, or the hash of one of its API tokens; `remembered`: it may
        be what this process remembers of it while no account changed (a version check's)."""

    def password_hash(self, account_id: int) -> str: ...

    def accounts(self) -> list[tuple[Account, int]]:
        """Every account with the number of its pulkas."""

    def update_account(self, account_id: int, *, password_hash: str | None = None, disabled: bool | None = None,
                       language: str | None = None, end_sessions: bool = False) -> None:
        """Change what is given; `end_sessions` signs out every browser and API token (NotFound: no account)."""

    def add_token(self, account_id: int, token_hash: str) -> None: ...

    def delete_token(self, token_hash: str) -> None: ...

    def start_session(self, session_hash: str, account_id: int | None, expired_before: datetime) -> None:
        """A session kept on the server (and those begun before `expired_before` dropped)."""

    def session_alive(self, session_hash: str, remembered: bool = False) -> bool: ...

    def end_session(self, session_hash: str) -> None: ...

    def failures(self, keys: Sequence[str], since: datetime) -> dict[str, int]:
        """Failed log-ins since `since`, by key."""

    def record_failure(self, keys: Sequence[str], older_than: datetime) -> None:
        """Count a failed log-in under each key (and drop what is older than the window)."""

    def forget_failures(self, key: str) -> None: ...

    def claim(self, account_id: int) -> int:
        """Give the pulkas and players from before accounts to the account; how many pulkas it got."""


def register(accounts: AccountRepository, command: CreateAccount, *, open_registration: bool,
             by: Account | None = None) -> Account:
    """A new account: while registration is open anyone may make one; otherwise only the administrator."""
    if not open_registration and not (by and by.is_admin):
        raise RegistrationClosed()
    username = check_username(command.username)
    try:
        return accounts.create_account(username, HASHER.hash(check_password(command.password)))
    except Duplicate:
        raise AccountInvalid(Msg("the username {username} is taken")(username=repr(username)), "username") from None


def failure_keys(username: str, address: str) -> dict[str, str]:
    """The keys failures are counted under: hashed, so that any text sent (a username of a thousand
    characters, a forwarded address) makes a key of one length, which the column holds."""
    account, place = _digest(username_key(username)), _digest(address)
    return {"pair": f"pair:{_digest(account + place)}", "account": f"account:{account}", "address": f"address:{place}"}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def authenticate(accounts: AccountRepository, username: object, password: object, address: str) -> Account:
    """The account whose password this is; Unauthorized otherwise, TooManyAttempts after too many failures
    (domain.accounts says whose). Text longer than any username or password is looked up by nobody."""
    name = username if isinstance(username, str) else ""
    keys = failure_keys(name, address)
    counts = accounts.failures(list(keys.values()), datetime.now(timezone.utc) - WINDOW)
    pair = counts.get(keys["pair"], 0)
    if (pair >= FAILURES_PER_PAIR or counts.get(keys["address"], 0) >= FAILURES_PER_ADDRESS
            or (pair and counts.get(keys["account"], 0) >= FAILURES_PER_ACCOUNT)):
        raise TooManyAttempts(int(WINDOW.total_seconds() // 60))
    known = name and len(name) <= USERNAME_KEY_MAX and len(username_key(name)) <= USERNAME_KEY_MAX
    account = accounts.account(username=name) if known else None
    if (not isinstance(password, str) or len(password) > PASSWORD_MAX or not _verify(accounts, account, password)
            or account is None):
        accounts.record_failure(list(keys.values()), datetime.now(timezone.utc) - WINDOW)
        raise Unauthorized(Msg("wrong username or password"))
    if account.disabled:
        raise Unauthorized(Msg("this account is disabled: ask the administrator"))
    accounts.forget_failures(keys["pair"])
    return account


def _verify(accounts: AccountRepository, account: Account | None, password: str) -> bool:
    # Without an account a stand-in hash is checked all the same, so the time taken does not tell
    # whether a username exists.
    stored = accounts.password_hash(account.id) if account is not None else _stand_in()
    try:
        HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False
    if account is not None and HASHER.check_needs_rehash(stored):
        accounts.update_account(account.id, password_hash=HASHER.hash(password))
    return True


@cache
def _stand_in() -> str:
    return HASHER.hash(secrets.token_urlsafe(16))


def change_password(accounts: AccountRepository, account: Account, command: ChangePassword) -> None:
    """A new password; every other browser and API token of the account is signed out."""
    if not _verify(accounts, account, command.current):
        raise AccountInvalid(Msg("the current password is not right"), "current")
    new_hash = HASHER.hash(check_password(command.new, "new"))
    accounts.update_account(account.id, password_hash=new_hash, end_sessions=True)


# -- the administrator ---------------------------------------------------------------------------


def reset_password(accounts: AccountRepository, command: ResetPassword) -> None:
    new_hash = HASHER.hash(check_password(command.password))
    accounts.update_account(command.account, password_hash=new_hash, end_sessions=True)


def set_language(accounts: AccountRepository, account: Account, language: str) -> None:
    accounts.update_account(account.id, language=language)


def set_disabled(accounts: AccountRepository, admin: Account, account_id: int, disabled: bool) -> None:
    """Disable (or enable again) an account: a disabled one cannot log in and its sessions end."""
    if account_id == admin.id:
        raise AccountInvalid(Msg("the administrator cannot disable his own account"), "account")
    accounts.update_account(account_id, disabled=disabled, end_sessions=disabled)


def claim(accounts: AccountRepository, username: str) -> int:
    """`scorekeeper db claim`: the pulkas from before accounts go to this account."""
    account = accounts.account(username=username)
    if account is None:
        raise NotFound("account")
    return accounts.claim(account.id)


# -- sessions -------------------------------------------------------------------------------------


def start_session(accounts: AccountRepository, account: Account | None, lifetime: timedelta) -> str:
    """A new session's secret, for the browser's cookie; the server keeps its hash, as of a token."""
    secret = secrets.token_urlsafe(32)
    accounts.start_session(token_hash(secret), account.id if account else None, datetime.now(timezone.utc) - lifetime)
    return secret


def session_alive(accounts: AccountRepository, secret: str, remembered: bool = False) -> bool:
    return len(secret) <= SESSION_SECRET_MAX and accounts.session_alive(token_hash(secret), remembered)


def end_session(accounts: AccountRepository, secret: str) -> None:
    accounts.end_session(token_hash(secret))


# -- API tokens ----------------------------------------------------------------------------------


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(accounts: AccountRepository, account: Account) -> str:
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    accounts.add_token(account.id, token_hash(token))
    return token


def token_account(accounts: AccountRepository, token: str, remembered: bool = False) -> Account | None:
    """The enabled account an API token belongs to."""
    account = accounts.account(token_hash=token_hash(token), remembered=remembered)
    return account if account is not None and not account.disabled else None


def revoke_token(accounts: AccountRepository, token: str) -> None:
    accounts.delete_token(token_hash(token))
