"""Accounts: registering, logging in (with a limit on failures), passwords, API tokens.

Plain functions like services.py: no HTTP, domain errors. Passwords are hashed with argon2id;
API tokens are random and only their SHA-256 is stored, so a copy of the database opens nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta, timezone
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .domain import Account, AccountInvalid, Msg, NotFound, RegistrationClosed, TooManyAttempts, Unauthorized
from .models import USERNAME_MAX
from .repository import Repository, username_key

# argon2-cffi's defaults: argon2id, the RFC 9106 low-memory profile (64 MiB, 3 passes).
HASHER = PasswordHasher()
PASSWORD_MIN, PASSWORD_MAX = 8, 200
# Failed log-ins counted over a sliding window, per account (guessing one password) and per address
# (trying many accounts). Kept in the database, so the limits hold across server processes.
WINDOW = timedelta(minutes=15)
FAILURES_PER_ACCOUNT = 5
FAILURES_PER_ADDRESS = 30
TOKEN_PREFIX = "skt_"  # an account's API token; share links' tokens have none


def check_username(username: str) -> str:
    name = username.strip()
    if not 1 <= len(name) <= USERNAME_MAX or not name.isprintable():
        raise AccountInvalid(Msg("a username is 1 to {most} printable characters")(most=USERNAME_MAX), "username")
    return name


def check_password(password: str, field: str = "password") -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountInvalid(Msg("a password has {least} to {most} characters")(least=PASSWORD_MIN, most=PASSWORD_MAX),
                             field)
    return password


def register(repo: Repository, username: object, password: object, *, open_registration: bool,
             by: Account | None = None) -> Account:
    """A new account: while registration is open anyone may make one; otherwise only the administrator."""
    if not open_registration and not (by and by.is_admin):
        raise RegistrationClosed()
    if not isinstance(username, str) or not isinstance(password, str):
        raise AccountInvalid(Msg("send a username and a password as text"), "username")
    return repo.create_account(check_username(username), HASHER.hash(check_password(password)))


def authenticate(repo: Repository, username: object, password: object, address: str) -> Account:
    """The account whose password this is; Unauthorized otherwise, TooManyAttempts after too many failures."""
    name = username if isinstance(username, str) else ""
    keys = {"account": f"account:{username_key(name)}", "address": f"address:{address}"}
    counts = repo.failures(list(keys.values()), datetime.now(timezone.utc) - WINDOW)
    if (counts.get(keys["account"], 0) >= FAILURES_PER_ACCOUNT
            or counts.get(keys["address"], 0) >= FAILURES_PER_ADDRESS):
        raise TooManyAttempts(int(WINDOW.total_seconds() // 60))
    account = repo.account(username=name) if name else None
    if not isinstance(password, str) or not _verify(repo, account, password) or account is None:
        repo.record_failure(list(keys.values()), datetime.now(timezone.utc) - WINDOW)
        raise Unauthorized(Msg("wrong username or password"))
    if account.disabled:
        raise Unauthorized(Msg("this account is disabled: ask the administrator"))
    repo.forget_failures(keys["account"])
    return account


def _verify(repo: Repository, account: Account | None, password: str) -> bool:
    # Without an account a stand-in hash is checked all the same, so the time taken does not tell
    # whether a username exists.
    stored = repo.password_hash(account.id) if account is not None else _stand_in()
    try:
        HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False
    if account is not None and HASHER.check_needs_rehash(stored):
        repo.update_account(account.id, password_hash=HASHER.hash(password))
    return True


@cache
def _stand_in() -> str:
    return HASHER.hash(secrets.token_urlsafe(16))


def change_password(repo: Repository, account: Account, current: object, new: object) -> None:
    """A new password; every other browser and API token of the account is signed out."""
    if not isinstance(current, str) or not _verify(repo, account, current):
        raise AccountInvalid(Msg("the current password is not right"), "current")
    new_hash = HASHER.hash(check_password(new if isinstance(new, str) else "", "new"))
    repo.update_account(account.id, password_hash=new_hash, end_sessions=True)


# -- the administrator ---------------------------------------------------------------------------


def reset_password(repo: Repository, account_id: int, new: object) -> None:
    new_hash = HASHER.hash(check_password(new if isinstance(new, str) else ""))
    repo.update_account(account_id, password_hash=new_hash, end_sessions=True)


def set_language(repo: Repository, account: Account, language: str) -> None:
    repo.update_account(account.id, language=language)


def set_disabled(repo: Repository, admin: Account, account_id: int, disabled: bool) -> None:
    """Disable (or enable again) an account: a disabled one cannot log in and its sessions end."""
    if account_id == admin.id:
        raise AccountInvalid(Msg("the administrator cannot disable his own account"), "account")
    repo.update_account(account_id, disabled=disabled, end_sessions=disabled)


def claim(repo: Repository, username: str) -> int:
    """`scorekeeper db claim`: the pulkas from before accounts go to this account."""
    account = repo.account(username=username)
    if account is None:
        raise NotFound("account")
    return repo.claim(account.id)


# -- API tokens ----------------------------------------------------------------------------------


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(repo: Repository, account: Account) -> str:
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    repo.add_token(account.id, token_hash(token))
    return token


def token_account(repo: Repository, token: str) -> Account | None:
    """The enabled account an API token belongs to."""
    account = repo.account(token_hash=token_hash(token))
    return account if account is not None and not account.disabled else None


def revoke_token(repo: Repository, token: str) -> None:
    repo.delete_token(token_hash(token))
