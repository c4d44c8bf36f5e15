"""Accounts: who keeps pulkas, and what a username and a password must be."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from ...i18n.words import Msg
from .limits import USERNAME_KEY_MAX, USERNAME_MAX
from .refusals import AccountInvalid

PASSWORD_MIN, PASSWORD_MAX = 8, 200
# Failed log-ins counted over a sliding window, kept in the database so the limits hold across server
# processes. Per account and address: guessing one password from one place. Per address: trying many
# accounts. Per account, far higher: guessing from many places; once past it, an address that has failed on
# the account waits, but one that has not (the owner's phone) still logs in, so no stranger locks him out.
WINDOW = timedelta(minutes=15)
FAILURES_PER_PAIR = 5
FAILURES_PER_ADDRESS = 30
FAILURES_PER_ACCOUNT = 100
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
    """The username as compared: "Anna", "anna", "ＡＮＮＡ" and "Å" as a letter, as A with a ring or as the
    Ångström sign are one account (NFKC, casefolded, NFKC again: casefolding may undo the normal form)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username.strip()).casefold())


def scripts(text: str) -> set[str]:
    """The scripts among LATIN, CYRILLIC and GREEK that the letters of `text` are written in."""
    found = set()
    for char in text:
        if char.isalpha():
            script = unicodedata.name(char, "").split(" ")[0]
            if script in CONFUSABLE_SCRIPTS:
                found.add(script)
    return found


# Scripts with letters that look alike (Latin a, Cyrillic а, Greek α): a name mixing them impersonates.
CONFUSABLE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def check_username(username: str) -> str:
    """The username as kept: in NFKC, so that what is shown is what is compared."""
    name = unicodedata.normalize("NFKC", username.strip())
    if not 1 <= len(name) <= USERNAME_MAX or not name.isprintable() or len(username_key(name)) > USERNAME_KEY_MAX:
        raise AccountInvalid(Msg("a username is 1 to {most} printable characters")(most=USERNAME_MAX), "username")
    if len(scripts(name)) > 1:
        raise AccountInvalid(Msg("a username is written in one alphabet: Latin or Cyrillic letters, not both"),
                             "username")
    return name


def check_password(password: str, field: str = "password") -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountInvalid(Msg("a password has {least} to {most} characters")(least=PASSWORD_MIN, most=PASSWORD_MAX),
                             field)
    return password


@dataclass(frozen=True)
class CreateAccount:
    """A new account, as a request asks for it (checked as the account is made: check_username, check_password)."""

    username: str
    password: str


@dataclass(frozen=True)
class ChangePassword:
    """The account's own new password, given with its current one (anything but text is no password)."""

    current: str
    new: str


@dataclass(frozen=True)
class ResetPassword:
    """The administrator sets an account's password."""

    account: int
    password: str


def text_or_nothing(value: object) -> str:
    """What a form or a body sent as a password: text, or "" (no password) for anything else."""
    return value if isinstance(value, str) else ""


def read_account(username: object, password: object) -> CreateAccount:
    if not isinstance(username, str) or not isinstance(password, str):
        raise AccountInvalid(Msg("send a username and a password as text"), "username")
    return CreateAccount(username, password)
