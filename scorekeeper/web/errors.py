"""Refusals as HTTP: one table from error code to status, and the app's error pages and bodies.

Every refusal the app gives has a code of this table (the OpenAPI document
lists them from it); nothing was stored when one is answered.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..engine import Code
from .domain import Fault, Refused

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
TITLES = {400: "Bad request", 401: "Log in first", 403: "Not allowed", 404: "Not found", 405: "Not allowed", 409: "Conflict", 413: "Too large",
          415: "Not JSON", 422: "Refused", 429: "Too many attempts", 500: "Something went wrong",
          503: "Busy"}
MESSAGES = {
    "not_found": "There is no such page here.",
    "method_not_allowed": "This address does not take that request.",
    "csrf": "The form had expired or came from elsewhere. Go back, reload the page and try again.",
    # Every write is one transaction, rolled back when it fails: nothing half-written remains.
    "server_error": "Something went wrong on our side. Nothing was saved; please try again.",
}


def body(error: Refused) -> dict[str, Any]:
    """The JSON body of a refusal: the first problem, and every problem so a client can mark each field."""
    return {"error": _fault(Fault(error.code, error.field, error.message, error.deal)),
            "problems": [_fault(f) for f in error.faults]}


def _fault(fault: Fault) -> dict[str, Any]:
    return {"code": fault.code, "field": fault.field, "deal": fault.deal, "message": fault.message}


def field_errors(error: Refused, rename=lambda field: field) -> dict[str, list[str]]:
    """Messages by the form field they belong on ("" above the form)."""
    if error.general:
        return {"": [error.message]}
    errors: dict[str, list[str]] = {}
    for fault in error.faults:
        errors.setdefault(rename(fault.field), []).append(fault.message)
    return errors


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def respond(error: Refused):
    code = STATUS[error.code]
    if _wants_json():
        return jsonify(body(error)), code
    return render_template("error.html", status=code, title=TITLES.get(code, "Error"), message=error.message), code


def register(app: Flask) -> None:
    """Every refusal, whoever raises it, answers in the app's look (pages) or as a JSON error (the API)."""

    def general(code: str, message: str = ""):
        return respond(Refused(message or MESSAGES.get(code, code), code=code))

    app.register_error_handler(Refused, respond)
    app.register_error_handler(CSRFError, lambda error: general("csrf"))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        code = HTTP_CODES.get(error.code or 500, "bad_request" if (error.code or 500) < 500 else "server_error")
        if code == "too_large":
            limit = app.config["MAX_CONTENT_LENGTH"]
            return general(code, f"The request is larger than this server takes ({limit / 2**20:g} MiB): nothing "
                                 "was read or saved.")
        return general(code, MESSAGES.get(code) or error.description or error.name)

    @app.errorhandler(500)
    def server_error(error: Exception):
        return general("server_error")
