"""What each route needs, and the check every request passes before its route runs.

A route says what it needs where it is defined, with `@needs(...)` under its `@bp.route`; the check
refuses a route that says nothing. It finds the caller (edge.caller), guards the session's writes
against other sites (CSRF), and refuses what the route's need does not allow: a pulka the caller may
not see answers 404, as if it did not exist; one it may see but not change answers 403.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from flask import Flask, current_app, g, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import LoginManager
from flask_wtf.csrf import CSRFProtect

from ...i18n.words import Msg
from ..domain.limits import UID_MAX
from ..domain.refusals import Forbidden, NotFound, Unauthorized
from ..domain.shares import Role
from .caller import Caller, identify, role
from .context import store
from .errors import respond
from .idempotency import made_before
from .sessions import clear_if_ended, load_user, name_session


class Need(StrEnum):
    ANYONE = "anyone"  # logging in, registering, static files, the OpenAPI document
    ACCOUNT = "account"  # an account's own things: its list, a new pulka, an import, its password
    ADMIN = "admin"  # the accounts of the instance
    READ = "read"  # a pulka: its sheet, drawing, history, settlement, files
    SCORE = "score"  # a pulka's deals
    OWN = "own"  # a pulka's settings, name, deletion and share links


NEEDED_ROLE = {Need.READ: Role.VIEWER, Need.SCORE: Role.SCORER, Need.OWN: Role.OWNER}

# What a share link may not do, by its role (the roles a link has).
_MAY_NOT = {Role.VIEWER: Msg("a viewer link may not do this"), Role.SCORER: Msg("a scorer link may not do this")}


@dataclass(frozen=True)
class RouteAccess:
    """What a route declared: its need, and whether it is what every watching phone asks every few seconds
    and shows no more than a version and who wrote last. Such a poll's access to a pulka may be what this
    process remembers (store.watch), not asked of the database."""

    need: Need
    polled: bool = False


View = TypeVar("View", bound=Callable[..., Any])


def needs(need: Need, *, polled: bool = False) -> Callable[[View], View]:
    """Declare what a route needs, under its `@bp.route`; the route itself is unchanged."""

    def declare(view: View) -> View:
        setattr(view, "access", RouteAccess(need, polled))
        return view

    return declare


def declared(view: Callable[..., Any]) -> RouteAccess | None:
    """What a route's view declared, or None: a route that says nothing is refused."""
    access = getattr(view, "access", None)
    return access if isinstance(access, RouteAccess) else None


def init(app: Flask) -> None:
    """Sessions, CSRF and the check, for every request of `app`."""
    login = LoginManager(app)
    login.user_loader(load_user)
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)  # `check` decides: a bearer request has no cookie
    app.extensions["scorekeeper.csrf"] = CSRFProtect(app)
    # Flask's own route: the static files are anyone's.
    needs(Need.ANYONE)(app.view_functions["static"])
    app.before_request(check)
    app.after_request(name_session)
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


def check() -> None:
    """Resolve the caller, guard against cross-site writes, and refuse what the route's need does not allow."""
    endpoint = request.endpoint
    if endpoint is None:
        return  # no such route: Flask answers 404 or 405
    access = declared(current_app.view_functions[endpoint])
    if access is None:  # a bug: the access test walks every route
        current_app.logger.error("the route %s says nothing of what it needs: refused", endpoint)
        raise Forbidden()
    need = access.need
    clear_if_ended()
    g.caller = who = identify()
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
    # A write, what a table's scorer sends every few seconds, may be answered from memory as the poll is: the
    # process hears of every change of access from the database itself, as of every write.
    remembered = access.polled or request.method not in ("GET", "HEAD", "OPTIONS")
    found = store().shares.access(uid, who.account_id, who.share_tokens, remembered=remembered) \
        if len(uid) <= UID_MAX else None
    if found is None:
        if getattr(current_app.view_functions[endpoint], "idempotent", False) and made_before():
            return  # a pulka this request deleted: its retry is answered from its key (edge.idempotency)
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


def _valid_share(token: str) -> bool:
    return store().shares.share(token) is not None
