"""Refusals as HTTP: one table from error code to status, and the app's error pages and bodies.

Every refusal the app gives has a code of this table (the OpenAPI document
lists them from it); nothing was stored when one is answered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ...engine import Code, Text
from ...i18n.words import Msg, literal
from ..domain.refusals import ErrorCode, Fault, Refused, TooManyAttempts
from . import i18n

E = ErrorCode
STATUS: dict[str, int] = {
    Code.BAD_JSON: 400,
    Code.BAD_FORMAT: 400,
    E.BAD_REQUEST: 400,
    E.CSRF: 400,
    E.UNAUTHORIZED: 401,
    E.FORBIDDEN: 403,
    E.REGISTRATION_CLOSED: 403,
    E.NOT_FOUND: 404,
    E.METHOD_NOT_ALLOWED: 405,
    E.VERSION_CONFLICT: 409,
    E.RULES_FROZEN: 409,
    E.PULKA_FROZEN: 409,
    E.PULKA_OPEN: 409,
    E.NOT_REVERSIBLE: 409,  # a reversal taken back
    E.NO_DEALS: 409,
    E.TOO_LARGE: 413,
    E.UNSUPPORTED_MEDIA_TYPE: 415,
    E.BAD_ACCOUNT: 422,
    E.TOO_MANY_DEALS: 422,
    E.TOO_MANY_PULKAS: 422,
    E.ACCOUNT_FULL: 422,
    E.IDEMPOTENCY_KEY_REUSED: 422,  # the same key with another request
    E.TOO_MANY_ATTEMPTS: 429,
    # Every other problem of the engine: the request was understood, and the rules refuse it.
    **{code: 422 for code in Code if code not in (Code.BAD_JSON, Code.BAD_FORMAT)},
    E.SERVER_ERROR: 500,
    E.BUSY: 503,  # too many PDFs asked for at once: try again in a few seconds
    E.CANNOT_SAVE: 503,  # the database refuses writes for now (disk full, read-only, locked too long, connection lost)
}

# Werkzeug's own refusals (a URL that does not exist, a body too large ...) by their status.
HTTP_CODES = {400: E.BAD_REQUEST, 401: E.UNAUTHORIZED, 403: E.FORBIDDEN, 404: E.NOT_FOUND, 405: E.METHOD_NOT_ALLOWED,
              413: E.TOO_LARGE, 415: E.UNSUPPORTED_MEDIA_TYPE, 500: E.SERVER_ERROR}
# Titles of the error page, in the request's language when shown (lazy).
TITLES = {400: lazy_gettext("Bad request"), 401: lazy_gettext("Log in first"), 403: lazy_gettext("Not allowed"),
          404: lazy_gettext("Not found"), 405: lazy_gettext("Not allowed"), 409: lazy_gettext("Conflict"),
          413: lazy_gettext("Too large"), 415: lazy_gettext("Not JSON"), 422: lazy_gettext("Refused"),
          429: lazy_gettext("Too many attempts"), 500: lazy_gettext("Something went wrong"),
          503: lazy_gettext("Busy")}
MESSAGES = {
    E.BAD_REQUEST: Msg("The request could not be understood."),
    E.UNAUTHORIZED: Msg("Log in first, or send a valid token."),
    E.FORBIDDEN: Msg("This is not allowed."),
    E.NOT_FOUND: Msg("There is no such page here."),
    E.METHOD_NOT_ALLOWED: Msg("This address does not take that request."),
    E.UNSUPPORTED_MEDIA_TYPE: Msg("This address does not take a body of that type."),
    E.CSRF: Msg("The form had expired or came from elsewhere. Go back, reload the page and try again."),
    # Every write is one transaction, rolled back when it fails: nothing half-written remains.
    E.SERVER_ERROR: Msg("Something went wrong on our side. Nothing was saved; please try again."),
}


def body(error: Refused) -> dict[str, Any]:
    """The JSON body of a refusal: the first problem, and every problem so a client can mark each field. The
    codes and fields are the same in every language; the messages are in the request's (Accept-Language)."""
    return {"error": {"code": error.code, "field": error.field, "deal": error.deal, "message": i18n.say(error)},
            "problems": [_fault(f) for f in error.faults]}


def _fault(fault: Fault) -> dict[str, Any]:
    return {"code": fault.code, "field": fault.field, "deal": fault.deal, "message": i18n.say(fault)}


def field_errors(error: Refused, rename: Callable[[str], str] = lambda field: field) -> dict[str, list[str]]:
    """Messages by the form field they belong on ("" above the form), in the request's language."""
    if error.general:
        return {"": [i18n.say(error)]}
    errors: dict[str, list[str]] = {}
    for fault in error.faults:
        errors.setdefault(rename(fault.field), []).append(i18n.say(fault))
    return errors


def _wants_json() -> bool:
    return request.path.startswith("/api/")


Reply = tuple[Response | str, int]  # a page or a JSON body, and its status


def respond(error: Refused) -> Reply:
    """The one way a refusal is answered: a JSON error on the API, the error page elsewhere."""
    code = STATUS[error.code]
    if _wants_json():
        return jsonify(body(error)), code
    return render_template("error.html", status=code, title=str(TITLES.get(code) or lazy_gettext("Error")),
                           message=i18n.say(error)), code


def waits(error: Refused) -> dict[str, str]:
    """The headers of a refusal: when to try again, for too many failed log-ins."""
    return {"Retry-After": str(error.minutes * 60)} if isinstance(error, TooManyAttempts) else {}


def register(app: Flask) -> None:
    """Every refusal, whoever raises it, answers in the app's look (pages) or as a JSON error (the API)."""

    def general(code: str, message: Text | None = None) -> Reply:
        return respond(Refused(message or MESSAGES.get(ErrorCode(code)) or literal(code), code=code))

    app.register_error_handler(Refused, respond)
    app.register_error_handler(TooManyAttempts, lambda error: (*respond(error), waits(error)))
    app.register_error_handler(CSRFError, lambda error: general(E.CSRF))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Reply:
        code = HTTP_CODES.get(error.code or 500, E.BAD_REQUEST if (error.code or 500) < 500 else E.SERVER_ERROR)
        if code == E.TOO_LARGE:
            limit = app.config["MAX_CONTENT_LENGTH"]
            return general(code, Msg("The request is larger than this server takes ({size} MiB): nothing was read "
                                     "or saved.")(size=f"{limit / 2**20:g}"))
        return general(code, MESSAGES.get(code) or literal(error.description or error.name))

    @app.errorhandler(500)
    def server_error(error: Exception) -> Reply:
        return general(E.SERVER_ERROR)
