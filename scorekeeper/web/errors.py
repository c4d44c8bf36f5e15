"""Refusals as HTTP: one table from error code to status, and the app's error pages and bodies.

Every refusal the app gives has a code of this table (the OpenAPI document
lists them from it); nothing was stored when one is answered.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..engine import Code, Text
from . import i18n
from .domain import Fault, Msg, Refused, literal

STATUS: dict[str, int] = {
    Code.BAD_JSON.value: 400,
    Code.BAD_FORMAT.value: 400,
    "bad_request": 400,
    "csrf": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "registration_closed": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "version_conflict": 409,
    "rules_frozen": 409,
    "no_deals": 409,
    "too_large": 413,
    "unsupported_media_type": 415,
    "bad_account": 422,
    "too_many_deals": 422,
    "idempotency_key_reused": 422,  # the same key with another request
    "too_many_attempts": 429,
    # Every other problem of the engine: the request was understood, and the rules refuse it.
    **{code.value: 422 for code in Code if code not in (Code.BAD_JSON, Code.BAD_FORMAT)},
    "server_error": 500,
    "busy": 503,  # too many PDFs asked for at once: try again in a few seconds
    "cannot_save": 503,  # the database refuses writes for now (disk full, read-only, locked too long, connection lost)
}

# Werkzeug's own refusals (a URL that does not exist, a body too large ...) by their status.
HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed", 413: "too_large",
              415: "unsupported_media_type", 500: "server_error"}
# Titles of the error page, in the request's language when shown (lazy).
TITLES = {400: lazy_gettext("Bad request"), 401: lazy_gettext("Log in first"), 403: lazy_gettext("Not allowed"),
          404: lazy_gettext("Not found"), 405: lazy_gettext("Not allowed"), 409: lazy_gettext("Conflict"),
          413: lazy_gettext("Too large"), 415: lazy_gettext("Not JSON"), 422: lazy_gettext("Refused"),
          429: lazy_gettext("Too many attempts"), 500: lazy_gettext("Something went wrong"),
          503: lazy_gettext("Busy")}
MESSAGES = {
    "bad_request": Msg("The request could not be understood."),
    "unauthorized": Msg("Log in first, or send a valid token."),
    "forbidden": Msg("This is not allowed."),
    "not_found": Msg("There is no such page here."),
    "method_not_allowed": Msg("This address does not take that request."),
    "unsupported_media_type": Msg("This address does not take a body of that type."),
    "csrf": Msg("The form had expired or came from elsewhere. Go back, reload the page and try again."),
    # Every write is one transaction, rolled back when it fails: nothing half-written remains.
    "server_error": Msg("Something went wrong on our side. Nothing was saved; please try again."),
}


def body(error: Refused) -> dict[str, Any]:
    """The JSON body of a refusal: the first problem, and every problem so a client can mark each field. The
    codes and fields are the same in every language; the messages are in the request's (Accept-Language)."""
    return {"error": {"code": error.code, "field": error.field, "deal": error.deal, "message": i18n.say(error)},
            "problems": [_fault(f) for f in error.faults]}


def _fault(fault: Fault) -> dict[str, Any]:
    return {"code": fault.code, "field": fault.field, "deal": fault.deal, "message": i18n.say(fault)}


def field_errors(error: Refused, rename=lambda field: field) -> dict[str, list[str]]:
    """Messages by the form field they belong on ("" above the form), in the request's language."""
    if error.general:
        return {"": [i18n.say(error)]}
    errors: dict[str, list[str]] = {}
    for fault in error.faults:
        errors.setdefault(rename(fault.field), []).append(i18n.say(fault))
    return errors


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def respond(error: Refused):
    code = STATUS[error.code]
    if _wants_json():
        return jsonify(body(error)), code
    return render_template("error.html", status=code, title=str(TITLES.get(code) or lazy_gettext("Error")),
                           message=i18n.say(error)), code


def register(app: Flask) -> None:
    """Every refusal, whoever raises it, answers in the app's look (pages) or as a JSON error (the API)."""

    def general(code: str, message: Text | None = None):
        return respond(Refused(message or MESSAGES.get(code) or literal(code), code=code))

    app.register_error_handler(Refused, respond)
    app.register_error_handler(CSRFError, lambda error: general("csrf"))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        code = HTTP_CODES.get(error.code or 500, "bad_request" if (error.code or 500) < 500 else "server_error")
        if code == "too_large":
            limit = app.config["MAX_CONTENT_LENGTH"]
            return general(code, Msg("The request is larger than this server takes ({size} MiB): nothing was read "
                                     "or saved.")(size=f"{limit / 2**20:g}"))
        return general(code, MESSAGES.get(code) or literal(error.description or error.name))

    @app.errorhandler(500)
    def server_error(error: Exception):
        return general("server_error")
