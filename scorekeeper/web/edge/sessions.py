"""The browser's session: its cookie names a session the server keeps (services.accounts.start_session), which
holds the account logged in (through Flask-Login) and the share links opened in this browser. The server
ends it at log-out, so a copied cookie does not outlive it.
"""

from __future__ import annotations

import hashlib

from flask import Response, current_app, session
from flask_login import UserMixin

from ..domain.accounts import Account
from ..services import accounts
from .context import store

SESSION_SHARES = "shares"  # the share links' tokens this browser has opened
SESSION_ID = "sid"  # the secret naming the session the server keeps (services.accounts.start_session)
SESSION_USER = "_user_id"  # Flask-Login's
SESSION_HEADER = "Scorekeeper-Session"
MOST_SHARES = 20


class User(UserMixin):
    """An account as Flask-Login keeps it in the session."""

    def __init__(self, account: Account):
        self.account = account

    def get_id(self) -> str:
        # The epoch ends the session when the password changes or the account is disabled.
        return f"{self.account.id}:{self.account.session_epoch}"


# Who the caller is (its session, account, token) may be what this process remembers, for any request, while
# it may trust that no session, account or token changed (store.watch hears of each from the database).
REMEMBERED = True


def load_user(user_id: str) -> User | None:
    account_id, _, epoch = user_id.partition(":")
    if not account_id.isdigit():
        return None
    account = store().accounts.account(account_id=int(account_id), remembered=REMEMBERED)
    if account is None or account.disabled or str(account.session_epoch) != epoch:
        return None
    return User(account)


def clear_if_ended() -> None:
    """A session the server no longer keeps (logged out, signed in anew, its password changed) is empty, even
    if its cookie was copied before: it opens neither the account nor the links it had opened."""
    if SESSION_ID not in session and SESSION_USER not in session and SESSION_SHARES not in session:
        return
    secret = session.get(SESSION_ID)
    if not (isinstance(secret, str) and accounts.session_alive(store().accounts, secret, remembered=REMEMBERED)):
        session.clear()


def name_session(response: Response) -> Response:
    """Which session an answer was sent to, for the service worker: the pages it keeps are one session's, and
    another drops them (static/sw.js). A hash of the secret, which opens nothing; "none" without one."""
    secret = session.get(SESSION_ID)
    named = hashlib.sha256(f"pages:{secret}".encode()).hexdigest()[:16] if isinstance(secret, str) else "none"
    response.headers[SESSION_HEADER] = named
    return response


def start_session(account: Account | None = None) -> None:
    """A fresh session, for a log-in (or a link opened without one): nothing of the one before (its links,
    its CSRF token, its messages) carries over, and the one before ends on the server."""
    end_session()
    lifetime = current_app.permanent_session_lifetime
    session[SESSION_ID] = accounts.start_session(store().accounts, account, lifetime)
    session.permanent = True


def end_session() -> None:
    """Log-out: the server forgets the session, and the browser's cookie is emptied."""
    secret = session.get(SESSION_ID)
    if isinstance(secret, str):
        accounts.end_session(store().accounts, secret)
    session.clear()


def remember_share(token: str) -> None:
    """This browser opened a share link: it keeps working here until the owner revokes it."""
    if SESSION_ID not in session:
        start_session()
    held = [t for t in session.get(SESSION_SHARES, []) if t != token]
    session[SESSION_SHARES] = [*held, token][-MOST_SHARES:]
    session.permanent = True


def shares_opened() -> tuple[str, ...]:
    """The tokens of the share links this browser opened."""
    return tuple(session.get(SESSION_SHARES, ()))
