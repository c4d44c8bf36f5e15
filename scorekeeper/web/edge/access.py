"""Who is calling, and what they may do: every request passes through `check` before its route runs.

The caller is an account (logged in through the session cookie, or by an API token in an
`Authorization: Bearer` header), and/or holds share links (opened in this browser, or a link's
token as the bearer). `NEEDS` says what each route needs; a route missing from it cannot be
served. A pulka the caller may not see answers 404, as if it did not exist; one it may see but
not change answers 403.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum

from flask import Flask, Response, current_app, g, redirect, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_login import LoginManager, UserMixin, current_user
from flask_wtf.csrf import CSRFProtect

from ...i18n.words import Msg
from ..domain.accounts import TOKEN_PREFIX, Account
from ..domain.limits import SHARE_TOKEN_MAX, UID_MAX
from ..domain.refusals import Forbidden, NotFound, Unauthorized
from ..domain.shares import Role
from ..services import accounts
from .context import store
from .errors import respond


class Need(StrEnum):
    ANYONE = "anyone"  # logging in, registering, static files, the OpenAPI document
    ACCOUNT = "account"  # an account's own things: its list, a new pulka, an import, its password
    ADMIN = "admin"  # the accounts of the instance
    READ = "read"  # a pulka: its sheet, drawing, history, settlement, files
    SCORE = "score"  # a pulka's deals
    OWN = "own"  # a pulka's settings, name, deletion and share links


NEEDED_ROLE = {Need.READ: Role.VIEWER, Need.SCORE: Role.SCORER, Need.OWN: Role.OWNER}

NEEDS: dict[str, Need] = {
    "static": Need.ANYONE,
    "shell.worker": Need.ANYONE,
    "shell.offline": Need.ANYONE,
    "shell.outbox": Need.ANYONE,
    # accounts
    "pages.login": Need.ANYONE,
    "pages.logout": Need.ANYONE,
    "pages.register": Need.ANYONE,
    "pages.language": Need.ANYONE,
    "pages.account": Need.ACCOUNT,
    "pages.admin": Need.ADMIN,
    "pages.admin_account": Need.ADMIN,
    # pages
    "pages.index": Need.ACCOUNT,
    "pages.new_pulka": Need.ACCOUNT,
    "pages.import_pulka": Need.ACCOUNT,
    "pages.open_share": Need.ANYONE,
    "pages.paper": Need.ANYONE,  # settling a paper sheet stores nothing
    "pages.keep_paper": Need.ACCOUNT,
    "pages.paper_pdf": Need.ANYONE,
    "pages.sheet": Need.READ,
    "pages.history": Need.READ, "pages.settlement": Need.READ,
    "pages.export": Need.READ, "pages.pdf": Need.READ,
    "pages.protocol": Need.READ,
    "pages.new_deal": Need.SCORE, "pages.edit_deal": Need.SCORE,
    "pages.delete_deal": Need.SCORE,
    "pages.undo": Need.SCORE, "pages.restore": Need.SCORE,
    "pages.again": Need.OWN,
    "pages.settings": Need.OWN,
    "pages.close": Need.OWN, "pages.reopen": Need.OWN,
    "pages.remove": Need.OWN,
    "pages.shares": Need.OWN,
    "pages.revoke_share": Need.OWN,
    # the JSON API
    "api.openapi": Need.ANYONE,
    "api.create_account": Need.ANYONE,  # open registration, or the administrator: decided by the use case
    "api.create_token": Need.ANYONE,
    "api.settle": Need.ANYONE,  # a paper sheet's settlement: nothing is stored
    "api.revoke_token": Need.ACCOUNT,
    "api.parameters": Need.ACCOUNT,
    "api.players": Need.ACCOUNT,  # the account's circle: the players of the pulkas it may read
    "api.player_stats": Need.ACCOUNT, "pages.players": Need.ACCOUNT, "pages.player": Need.ACCOUNT,
    "pages.players_csv": Need.ACCOUNT, "pages.player_csv": Need.ACCOUNT, "pages.seat_player": Need.ACCOUNT,
    "pages.player_pdf": Need.ACCOUNT, "pages.player_deals_csv": Need.ACCOUNT,
    # its own players only (the use case)
    "api.rename_player": Need.ACCOUNT, "api.merge_player": Need.ACCOUNT, "api.unmerge_player": Need.ACCOUNT,
    # the ledger: the account's, and the lines of pulkas shared with it; its owner writes (the use case)
    **dict.fromkeys(("api.ledger", "api.add_payment", "api.take_back_payment", "api.mark_paid", "api.unmark_paid",
                     "api.record_settle_up", "pages.ledger", "pages.ledger_csv", "pages.ledger_write"), Need.ACCOUNT),
    "api.list_pulkas": Need.ACCOUNT, "api.create_pulka": Need.ACCOUNT, "api.import_pulka": Need.ACCOUNT,
    "api.get_pulka": Need.READ, "api.version": Need.READ,
    "api.list_deals": Need.READ, "api.get_deal": Need.READ,
    "api.sheet": Need.READ, "api.settlement": Need.READ,
    "api.export": Need.READ, "api.pdf": Need.READ,
    "api.add_deal": Need.SCORE, "api.preview_deal": Need.SCORE,
    "api.edit_deal": Need.SCORE, "api.delete_deal": Need.SCORE,
    "api.undo": Need.SCORE,
    "api.patch_pulka": Need.OWN,
    "api.close_pulka": Need.OWN, "api.reopen_pulka": Need.OWN,
    "api.delete_pulka": Need.OWN,
    "api.list_shares": Need.OWN, "api.create_share": Need.OWN, "api.delete_share": Need.OWN,
}

# What a share link may not do, by its role (the roles a link has).
_MAY_NOT = {Role.VIEWER: Msg("a viewer link may not do this"), Role.SCORER: Msg("a scorer link may not do this")}

SESSION_SHARES = "shares"  # the share links' tokens this browser has opened
SESSION_ID = "sid"  # the secret naming the session the server keeps (services.accounts.start_session)
SESSION_USER = "_user_id"  # Flask-Login's
MOST_SHARES = 20


@dataclass(frozen=True)
class Caller:
    account: Account | None = None
    share_tokens: tuple[str, ...] = ()
    bearer: str | None = None  # the token of an Authorization header: no cookie, so no CSRF to fear

    @property
    def account_id(self) -> int | None:
        return self.account.id if self.account else None


class User(UserMixin):
    """An account as Flask-Login keeps it in the session."""

    def __init__(self, account: Account):
        self.account = account

    def get_id(self) -> str:
        # The epoch ends the session when the password changes or the account is disabled.
        return f"{self.account.id}:{self.account.session_epoch}"


def init(app: Flask) -> None:
    """Sessions, CSRF and the check, for every request of `app`."""
    login = LoginManager(app)
    login.user_loader(_load_user)
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)  # `check` decides: a bearer request has no cookie
    app.extensions["scorekeeper.csrf"] = CSRFProtect(app)
    app.before_request(check)
    app.after_request(_name_session)
    app.register_error_handler(Unauthorized, _unauthorized)
    app.context_processor(_page_context)


def _page_context() -> dict[str, object]:
    """What every template knows of the caller: who it is, and what it may do with this page's pulka."""
    held = role()
    return {"caller": g.get("caller") or Caller(), "role": held,
            "can_score": held is not None and held.allows(Role.SCORER), "can_own": held is Role.OWNER}


def _unauthorized(error: Unauthorized) -> ResponseReturnValue:
    """Pages send a browser without an account to the login page; the API answers 401."""
    if request.path.startswith("/api/"):
        body, status = respond(error)
        return body, status, {"WWW-Authenticate": "Bearer"}
    return redirect(url_for("pages.login", next=request.full_path if request.query_string else request.path))


def _load_user(user_id: str) -> User | None:
    account_id, _, epoch = user_id.partition(":")
    if not account_id.isdigit():
        return None
    account = store().accounts.account(account_id=int(account_id), remembered=reading())
    if account is None or account.disabled or str(account.session_epoch) != epoch:
        return None
    return User(account)


# What every watching phone asks every few seconds, and shows no more than a version and who wrote last: the
# one request whose access to a pulka may be what this process remembers (store.watch), not asked of the
# database. Who the caller is (its session, account, token) may be remembered so for any request that writes
# nothing (a page, a file), while no session, account or token changed; a write asks the database.
POLLED = {"api.version"}


def polling() -> bool:
    return request.endpoint in POLLED


def reading() -> bool:
    return request.method in ("GET", "HEAD")


def caller() -> Caller:
    return g.caller  # type: ignore[no-any-return]  # set by `check` before every route


def my_account() -> Account:
    """The calling account, on a route that needs one (`check` saw to it)."""
    account = caller().account
    assert account is not None, "a route of Need.ACCOUNT or Need.ADMIN"
    return account


def me() -> int:
    """The calling account's id, on a route that needs an account."""
    return my_account().id


def check() -> None:
    """Resolve the caller, guard against cross-site writes, and refuse what the route's need does not allow."""
    endpoint = request.endpoint
    if endpoint is None:
        return  # no such route: Flask answers 404 or 405
    need = NEEDS[endpoint]  # a route without a rule is a bug: the access test walks every route
    _session_ended()
    g.caller = who = _caller()
    g.role = None
    if request.method not in ("GET", "HEAD", "OPTIONS") and _by_cookie(who):
        # Another site could make the browser send its cookie: a write on a cookie's authority needs
        # the CSRF token (forms carry it in a field, the app's own scripts in the X-CSRFToken header).
        current_app.extensions["scorekeeper.csrf"].protect()
    if need is Need.ANYONE:
        return
    if need in (Need.ACCOUNT, Need.ADMIN):
        if who.account is None:
            if who.bearer and _valid_share(who.bearer):
                raise Forbidden(Msg("a share link's token opens its pulka only"))
            raise Unauthorized()
        if need is Need.ADMIN and not who.account.is_admin:
            raise Forbidden(Msg("only the administrator manages accounts"))
        return
    uid = (request.view_args or {}).get("uid", "")
    found = store().shares.access(uid, who.account_id, who.share_tokens, remembered=polling()) \
        if len(uid) <= UID_MAX else None
    if found is None:
        if who.bearer and who.account is None and not _valid_share(who.bearer):
            raise Unauthorized(Msg("this token is wrong or revoked"))
        raise NotFound()
    g.role, g.share_label, g.share_id, g.share_player = found.role, found.label, found.share_id, found.player
    if not g.role.allows(NEEDED_ROLE[need]):
        raise Forbidden(_MAY_NOT.get(g.role) or Msg("a {role} link may not do this")(role=str(g.role)))


def _by_cookie(who: Caller) -> bool:
    """Whether the session cookie is what the request rests on: every page, and an API call that carries
    no token. A bare API call (no cookie, no token) has no authority to forge."""
    if not current_app.config.get("WTF_CSRF_ENABLED", True) or who.bearer is not None:
        return False
    return not request.path.startswith("/api/") or who.account is not None or bool(who.share_tokens)


def _caller() -> Caller:
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise Unauthorized(Msg("send Authorization: Bearer <token>"))
        if token.startswith(TOKEN_PREFIX):
            account = accounts.token_account(store().accounts, token, remembered=reading())
            if account is None:
                raise Unauthorized(Msg("this token is wrong or revoked"))
            return Caller(account, bearer=token)
        # A share link's token: whether it opens the pulka of the request is the role query's to say.
        if len(token) > SHARE_TOKEN_MAX:
            raise Unauthorized(Msg("this token is wrong or revoked"))  # no token is so long: nothing to look up
        return Caller(share_tokens=(token,), bearer=token)
    account = current_user.account if current_user.is_authenticated else None
    return Caller(account, tuple(session.get(SESSION_SHARES, ())))


def _valid_share(token: str) -> bool:
    return store().shares.share(token) is not None


def _session_ended() -> None:
    """A session the server no longer keeps (logged out, signed in anew, its password changed) is empty, even
    if its cookie was copied before: it opens neither the account nor the links it had opened."""
    if SESSION_ID not in session and SESSION_USER not in session and SESSION_SHARES not in session:
        return
    secret = session.get(SESSION_ID)
    if not (isinstance(secret, str) and accounts.session_alive(store().accounts, secret, remembered=reading())):
        session.clear()


SESSION_HEADER = "Scorekeeper-Session"


def _name_session(response: Response) -> Response:
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


def role() -> Role | None:
    """The caller's role on the pulka of this request (None on a route without a pulka)."""
    held: Role | None = g.get("role")
    return held


def own_seat() -> int | None:
    """The seat of the player whose link lets the caller in ("Boris's link"), if it names one."""
    seat: int | None = g.get("share_player")
    return seat


def scope() -> str:
    """Whose idempotency keys a request's key is one of: the account's, else those of the share link that
    lets the caller in."""
    who = caller()
    return f"account:{who.account.id}" if who.account is not None else f"share:{g.share_id}"


def actor() -> str:
    """Who is writing, for the note other phones show: the account, or the share link's name."""
    who = caller()
    if who.account is not None:
        return who.account.username
    return g.get("share_label") or f"a {role() or 'shared'} link"


