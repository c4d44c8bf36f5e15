"""Accounts: who keeps pulkas, and what a username and a password must be."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ...words import Msg
from .limits import USERNAME_MAX
from .refusals import AccountInvalid

PASSWORD_MIN, PASSWORD_MAX = 8, 200
# Failed log-ins counted over a sliding window, per account (guessing one password) and per address
# (trying many accounts). Kept in the database, so the limits hold across server processes.
WINDOW = timedelta(minutes=15)
FAILURES_PER_ACCOUNT = 5
FAILURES_PER_ADDRESS = 30
TOKEN_PREFIX = "skt_"  # an account's API token; share links' tokens have none


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    is_admin: bool = False
    disabled: bool = False
    session_epoch: int = 1
    created_at: datetime | None = None
    language: str | None = None  # chosen on a page; None: the browser's


def username_key(username: str) -> str:
    """The username as compared: "Anna" and "anna" are one account."""
    return username.strip().casefold()


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
