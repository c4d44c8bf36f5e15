"""What guards every answer: the security headers, a session cookie marked Secure over HTTPS, and a
database that refuses for a while answered as 503 rather than 500."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, Request, current_app, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer
from werkzeug.wrappers import Response as BaseResponse  # a redirect is one
from sqlalchemy.exc import SQLAlchemyError

from ..domain.refusals import CannotSave
from ..store.db import cannot_save, reason
from . import errors

# Scripts, styles, fonts and images from this server only, nothing inline (no injected markup can run),
# no page of this app inside another site's frame, and no address of a page leaked to another site.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


class SecurityHeaders:
    """The app's WSGI callable, every answer given the security headers it does not set itself (error pages,
    static files and redirects too). Added to the list of pairs the answer starts with, once: Flask's header
    object would be searched through for each of them."""

    _ADDED = [(name.lower(), name, value) for name, value in SECURITY_HEADERS.items()]

    def __init__(self, wsgi: Callable[[dict[str, Any], Any], Iterable[bytes]]):
        self.wsgi = wsgi

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            present = {name.lower() for name, _ in headers}
            headers.extend((name, value) for lower, name, value in self._ADDED if lower not in present)
            return start_response(status, headers, exc_info)

        return self.wsgi(environ, start)


def database_refused(error: SQLAlchemyError) -> errors.Reply:
    """A database that refuses for a while (db.cannot_save: a full disk, a read-only database, a lock held
    too long, a lost connection) answers 503 cannot_save, as a page or as JSON: the transaction was rolled
    back, so nothing was saved, and the client may send the write again (with its idempotency key, safely).
    Handled here, by the exception's type, it is one place for every request, whichever query meets it: the
    access check's, a deal's, an account's. Any other database error is a bug: raised again, it is logged
    and answered 500."""
    if not cannot_save(error):
        raise error
    current_app.logger.warning("%s %s: the database refused: %s", request.method, request.path, reason(error))
    return errors.respond(CannotSave(reading=request.method in ("GET", "HEAD")))


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is marked Secure whenever the page came over HTTPS (behind a proxy too)."""

    _signing: tuple[object, URLSafeTimedSerializer | None] | None = None

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        # No cookie (an API call with a token, a first visit): an empty session, without parsing the cookies.
        if "HTTP_COOKIE" not in request.environ and self.get_signing_serializer(app) is not None:
            return self.session_class()
        return super().open_session(app, request)

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or request.is_secure

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        # Made once for the keys it signs with, not on every request: a watching phone asks every two seconds.
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        made = self._signing
        if made is None or made[0] != keys:
            made = self._signing = (keys, super().get_signing_serializer(app))
        return made[1]


PREFERENCE_AGE = 365 * 24 * 3600


def remember_choice(response: BaseResponse, name: str, value: str) -> None:
    """A choice this browser keeps (the language, the sheet's turn, the cash unit): sent like the session
    cookie, never to another site's request, never to scripts, and only over HTTPS when the page came so."""
    response.set_cookie(name, value, max_age=PREFERENCE_AGE, samesite="Lax", httponly=True, secure=request.is_secure)


def init(app: Flask) -> None:
    app.session_interface = SessionInterface()
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
    app.register_error_handler(SQLAlchemyError, database_refused)
