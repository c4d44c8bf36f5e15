"""The pieces of the OpenAPI document that its parts share."""

from __future__ import annotations

from typing import Any

from ..domain.limits import IDEMPOTENCY_KEY_MAX, INT_MAX, PLAYER_NAME_MAX
from ..edge.errors import STATUS

NAME = {"type": "string", "minLength": 1, "maxLength": PLAYER_NAME_MAX}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def answer(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def errors(*statuses: int) -> dict[str, Any]:
    """Each status with the error codes that answer with it (from the one table, errors.STATUS)."""
    words = {400: "Malformed request", 401: "No credentials, or wrong or revoked ones",
             403: "The credentials do not allow this", 404: "No such pulka or deal (or not yours to see)",
             409: "The pulka is not as the request expects", 415: "The body is not application/json",
             422: "Refused by the rules; nothing was stored", 429: "Too many failed log-ins: wait",
             503: "Try again in a moment; nothing was stored"}
    return {str(s): answer(ref("Error"), f"{words[s]}: " + ", ".join(c for c, st in STATUS.items() if st == s))
            for s in statuses}


PULKA_ID = {"name": "uid", "in": "path", "required": True, "schema": {"type": "string"},
            "description": "the pulka's id: random, URL-safe"}
# A version or a deal number as the app reads them (domain.read_number, inputs.PathNumber): whole numbers
# that the database's integers hold.
VERSION = {"type": "integer", "minimum": 0, "maximum": INT_MAX}
DEAL_NUMBER = {"type": "integer", "minimum": 1, "maximum": INT_MAX}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": DEAL_NUMBER,
          "description": "the deal number, 1-based"}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": IDEMPOTENCY_KEY_MAX},
    "description": "any fresh value (a random UUID) for each write the client means to make once. Sent again "
                   "with the same request, e.g. after the connection dropped before the answer came, it writes "
                   "nothing and answers what the first one answered, with the header Idempotent-Replayed: true; "
                   "with another request it is refused (422 idempotency_key_reused). Kept at least 24 hours, per "
                   "caller (account or share link) and route. A refused write keeps no key: sent again, it is "
                   "tried again"}
VERSION_QUERY = {"name": "version", "in": "query", "required": False, "schema": VERSION,
                 "description": "the pulka version the client last saw; refused with 409 if it changed since"}
