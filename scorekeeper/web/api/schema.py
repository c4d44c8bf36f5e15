"""The pieces of the OpenAPI document that its parts share: the schemas of more than one module, the
parameters of a pulka's paths, the errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine import PARAMETERS, Kind, Parameter, Preset, json_value
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


def parameter_schema(p: Parameter) -> dict[str, Any]:
    """A docs/rules.md §14 parameter's domain as JSON Schema, from the engine's own table (bounds, choices)."""
    number = {"minimum": p.low, "maximum": p.high}
    schemas: dict[Kind, Callable[[], dict[str, Any]]] = {
        Kind.INT: lambda: {"type": "integer"} | number,
        Kind.MONEY: lambda: {"type": "number"} | number,
        Kind.BOOL: lambda: {"type": "boolean"},
        Kind.CHOICE: lambda: {"enum": [json_value(c) for c in p.choices]},
        Kind.FACTOR: lambda: {"enum": [json_value(c) for c in p.choices]},
        Kind.LEVELS: lambda: {"type": "array", "uniqueItems": True, "items": {"enum": list(p.choices)}},
        Kind.INT_LIST: lambda: {"type": "array", "items": {"type": "integer"} | number,
                                "minItems": p.length or 1, "maxItems": p.length or p.most},
    }
    return schemas[p.kind]() | {"description": f"{p.meaning.text(())} ({p.domain.text(())})"}


# The schemas more than one module's part names: a refusal, a deal and what it wrote (the deals and the
# sheet), a pulka and its rules (the pulkas and their end).
SHARED: dict[str, Any] = {
    "Error": {
        "type": "object", "required": ["error"],
        "properties": {
            "error": {"type": "object", "required": ["code", "message"], "properties": {
                "code": {"type": "string", "enum": list(STATUS)},
                "field": {"type": "string", "description": "the field at fault: declarer, contract, whist, tricks, rules.<name> …"},
                "deal": {"type": ["integer", "null"], "description": "the deal (1-based) the problem is in"},
                "message": {"type": "string"}}},
            "problems": {"type": "array", "description": "every problem of that deal, for marking each field",
                         "items": {"type": "object"}},
        },
    },
    "Deal": {
        "type": "object", "description": "a deal exactly as in the pulya/1 file (players by name)",
        "required": ["type"], "additionalProperties": False,
        "properties": {
            "type": {"enum": ["game", "misere", "raspasy"]},
            "declarer": NAME,
            "contract": {"type": "string", "pattern": "^(6|7|8|9|10)(S|C|D|H|NT)$"},
            "whist": {"type": "object", "additionalProperties": {"enum": ["whist", "pass", "half"]}},
            "open": {"type": "boolean"},
            "tricks": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 10}},
        },
    },
    "Entry": {"type": "object", "required": ["player", "column", "points", "reason"], "properties": {
        "player": NAME, "column": {"enum": ["pulya", "gora", "whists"]}, "on": NAME,
        "points": {"type": "number"}, "reason": {"type": "string"}}},
    "DealResult": {"type": "object", "properties": {
        "n": {"type": "integer"}, "dealer": NAME, "sitting_out": NAME, "deal": ref("Deal"),
        "text": {"type": "string"}, "raspasy_k": {"type": ["integer", "null"]},
        "entries": {"type": "array", "items": ref("Entry")},
        "summary": {"type": "array", "items": {"type": "string"},
                    "description": "\"Boris: pulya +4\", \"Anna: 8 whists on Boris\""},
        "lines": {"type": "array", "description": "the preview only: each entry as a line and its reason",
                  "items": {"type": "object", "properties": {"what": {"type": "string"},
                                                             "why": {"type": "string"}}}},
        "pulya_closed": {"type": "array", "items": NAME}, "finished": {"type": "boolean"},
        "version": {"type": "integer"}}},
    "Rules": {"type": "object", "required": ["preset"], "description": "a preset and any docs/rules.md §14 parameter",
              "properties": {"preset": {"enum": [preset.value for preset in Preset]}}
              | {p.name: parameter_schema(p) for p in PARAMETERS},
              "additionalProperties": False},
    "Pulka": {"type": "object", "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "version": {"type": "integer"},
        "players": {"type": "array", "items": NAME}, "first_dealer": NAME, "currency": {"type": "string"},
        "rules": {"type": "object", "description": "every parameter, resolved"},
        "overrides": ref("Rules"), "deals": {"type": "integer"}, "finished": {"type": "boolean"},
        "frozen": {"type": "boolean", "description": "rules and players are fixed once a deal is entered"},
        "next": {"type": ["object", "null"]}, "links": {"type": "object"},
        "played_on": {"type": ["string", "null"], "format": "date", "description": "the day it was played, when "
                      "its owner gave one (a game entered afterwards)"},
        "successor": {"type": ["object", "null"], "description": "the pulka its table plays now, when it "
                      "went on to a later one (same players again): id, name and links; the table's share links "
                      "open it too"}}},
}
