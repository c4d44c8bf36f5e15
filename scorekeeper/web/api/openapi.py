"""The OpenAPI 3.1 description of /api/v1, served at /api/v1/openapi.json."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import __version__
from ...engine import PARAMETERS, Kind, Parameter, Preset, json_value
from ..domain.limits import CURRENCY_MAX, PULKA_NAME_MAX, SHARE_LABEL_MAX, USERNAME_MAX
from ..edge.errors import STATUS
from ..edge.inputs import FORM_TYPES
from .openapi_club import club_paths
from .schema import (DEAL_NUMBER, IDEMPOTENCY_KEY, NAME, NUMBER, PULKA_ID, VERSION, VERSION_QUERY, answer, errors,
                     ref)


def parameter_schema(p: Parameter) -> dict[str, Any]:
    """A rules.md §14 parameter's domain as JSON Schema, from the engine's own table (bounds, choices)."""
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



# What needs no credentials (the rest answers 401 without them).
ANONYMOUS = {("/api/v1/openapi.json", "get"), ("/api/v1/accounts", "post"), ("/api/v1/tokens", "post"),
             ("/api/v1/settle", "post")}


def document() -> dict[str, Any]:
    pulka = {  # what a new pulka is made of, and a change of one changes
        "name": {"type": "string", "maxLength": PULKA_NAME_MAX},
        "players": {"type": "array", "items": NAME, "minItems": 3, "maxItems": 4,
                    "description": "in clockwise seating order"},
        "first_dealer": NAME, "rules": ref("Rules"), "currency": {"type": "string", "maxLength": CURRENCY_MAX}}
    schemas = {
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
        "DealWrite": {
            "description": "the deal object itself, or {deal, version}",
            "oneOf": [ref("Deal"), {"type": "object", "required": ["deal"], "properties": {
                "deal": ref("Deal"), "version": VERSION}, "additionalProperties": False}],
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
        "Rules": {"type": "object", "required": ["preset"], "description": "a preset and any rules.md §14 parameter",
                  "properties": {"preset": {"enum": [preset.value for preset in Preset]}}
                  | {p.name: parameter_schema(p) for p in PARAMETERS},
                  "additionalProperties": False},
        "PulkaWrite": {"type": "object", "additionalProperties": False, "properties": pulka | {"opening": {
            "type": "object", "description": "the sheet as paper left it: pulya, gora, whists (FORMAT.md §5)"}}},
        "PulkaPatch": {"type": "object", "additionalProperties": False, "properties": pulka | {"version": VERSION}},
        "Pulka": {"type": "object", "properties": {
            "id": {"type": "string"}, "name": {"type": "string"}, "version": {"type": "integer"},
            "players": {"type": "array", "items": NAME}, "first_dealer": NAME, "currency": {"type": "string"},
            "rules": {"type": "object", "description": "every parameter, resolved"},
            "overrides": ref("Rules"), "deals": {"type": "integer"}, "finished": {"type": "boolean"},
            "frozen": {"type": "boolean", "description": "rules and players are fixed once a deal is entered"},
            "next": {"type": ["object", "null"]}, "links": {"type": "object"}}},
        "Sheet": {"type": "object", "description": "running totals as paper shows them (chains) and balances",
                  "properties": {
                      "version": {"type": "integer"}, "deals": {"type": "integer"}, "finished": {"type": "boolean"},
                      "streak": {"type": "integer", "description": "raspasy in a row"},
                      "next": {"type": ["object", "null"], "description": "the next deal's number, dealer, first hand"},
                      "table": {"type": "array", "items": {"type": "object", "properties": {
                          "name": NAME, "pulya": {"type": "number"},
                          "pulya_chain": {"type": "array", "items": {"type": "number"}},
                          "pulya_closed": {"type": "boolean"}, "gora": {"type": "number"},
                          "gora_chain": {"type": "array", "items": {"type": "number"}},
                          "whists": {"type": "array", "items": {"type": "object"}},
                          "balance": {"type": "number"}, "money": {"type": "number"}}}},
                      "last": {"oneOf": [ref("DealResult"), {"type": "null"}]}}},
        "Settlement": {"type": "object", "properties": {
            "players": {"type": "array", "items": {"type": "object", "properties": {
                "name": NAME, "net": {"type": "number"}, "balance": {"type": "number"}, "money": {"type": "number"}}}},
            "amnesty": {"type": "number"}, "gora_left": {"type": "array", "items": {"type": "number"}},
            "gora_whists": {"type": "array", "items": {"type": "number"}},
            "pairwise": {"type": "array", "items": {"type": "array", "items": {"type": "number"}},
                         "description": "pairwise[i][j]: what player i wins from player j"},
            "transfers": {"type": "array", "items": {"type": "object", "properties": {
                "from": NAME, "to": NAME, "amount": {"type": "number"}}}},
            "sum_net": {"type": "number"}, "sum_money": {"type": "number"}, "version": {"type": "integer"}}},
        "PulyaFile": {"type": "object", "description": "the pulya/1 file (shared FORMAT.md §1)",
                      "required": ["format", "players", "rules", "deals"]},
        "PulyaSheet": {"type": "object", "description": "a paper sheet's totals, pulya-sheet/1 (shared FORMAT.md §4)",
                       "required": ["format", "players", "rules", "gora"]},
        "PulyaResult": {"type": "object", "description": "pulya-result/1 of a paper sheet: players, rules, sheet, "
                                                         "settlement (balance, money, transfers, amnesty, pairwise)",
                        "required": ["format", "players", "rules", "sheet", "settlement"]},
        "Credentials": {"type": "object", "required": ["username", "password"], "properties": {
            "username": {"type": "string", "minLength": 1, "maxLength": USERNAME_MAX},
            "password": {"type": "string", "minLength": 8, "maxLength": 200}}},
        "Share": {"type": "object", "required": ["id", "token", "url", "role"], "properties": {
            "id": {"type": "string", "description": "names the link; not secret"},
            "token": {"type": "string", "description": "the secret part of the link; also a bearer token for "
                                                       "this pulka, with this role"},
            "url": {"type": "string"}, "role": {"enum": ["viewer", "scorer"]}, "label": {"type": "string"},
            "created_at": {"type": "string"}, "last_used_at": {"type": ["string", "null"]},
            "player": {"type": ["string", "null"], "description": "the player whose link it is: his phone shows "
                                                                  "the sheet from his seat"}}},
    }
    p, n = [PULKA_ID], [PULKA_ID, NUMBER]
    paths: dict[str, dict[str, Any]] = {
        "/api/v1/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI"}}}},
        "/api/v1/parameters": {"get": {"summary": "Every rules.md §14 parameter and the three presets",
                                       "responses": {"200": {"description": "parameters and presets"}}}},
        "/api/v1/accounts": {
            "post": {"summary": "A new account (while registration is open, or by the administrator's token); "
                                "the first account of a server is its administrator",
                     "requestBody": {"required": True, "content": {"application/json": {"schema": ref("Credentials")}}},
                     "responses": {"201": {"description": "created"}} | errors(400, 403, 415, 422)}},
        "/api/v1/tokens": {
            "post": {"summary": "A bearer token for the API, in exchange for a username and password",
                     "requestBody": {"required": True, "content": {"application/json": {"schema": ref("Credentials")}}},
                     "responses": {"201": answer({"type": "object", "required": ["token"], "properties": {
                         "token": {"type": "string"}, "username": {"type": "string"}}}, "the token")}
                                  | errors(400, 401, 415, 429)}},
        "/api/v1/tokens/current": {
            "delete": {"summary": "Revoke the token this request is made with",
                       "responses": {"204": {"description": "revoked"}} | errors(400)}},
        "/api/v1/pulkas": {
            "get": {"summary": "The caller's pulkas and those shared with it",
                    "responses": {"200": {"description": "a list"}}},
            "post": {"summary": "A new pulka", "parameters": [IDEMPOTENCY_KEY],
                     "requestBody": {"required": True, "content": {
                "application/json": {"schema": ref("PulkaWrite")}}},
                "responses": {"201": answer(ref("Pulka"), "created")} | errors(400, 415, 422)}},
        "/api/v1/pulkas/{uid}": {
            "parameters": p,
            "get": {"summary": "A pulka", "responses": {"200": answer(ref("Pulka"), "the pulka")} | errors(404)},
            "patch": {"summary": "Rename, change currency; rules and players only before the first deal",
                      "requestBody": {"content": {"application/json": {"schema": ref("PulkaPatch")}}},
                      "responses": {"200": answer(ref("Pulka"), "updated")} | errors(400, 404, 409, 415, 422)},
            "delete": {"summary": "Delete a pulka and its deals",
                       "responses": {"204": {"description": "deleted"}} | errors(404)}},
        "/api/v1/pulkas/{uid}/deals": {
            "parameters": p,
            "get": {"summary": "The protocol: every deal with every line it wrote and why",
                    "responses": {"200": {"description": "deals"}} | errors(404)},
            "post": {"summary": "Enter the next deal", "parameters": [IDEMPOTENCY_KEY],
                     "requestBody": {"required": True, "content": {
                "application/json": {"schema": ref("DealWrite")}}},
                "responses": {"201": answer(ref("DealResult"), "stored")} | errors(400, 404, 409, 415, 422)}},
        "/api/v1/pulkas/{uid}/deals/preview": {
            "parameters": p + [{"name": "number", "in": "query", "schema": DEAL_NUMBER,
                                "description": "preview an edit of this deal instead of the next deal"}],
            "post": {"summary": "What a deal would write; nothing is stored",
                     "requestBody": {"required": True, "content": {
                         "application/json": {"schema": ref("Deal")},
                         **{media_type: {"schema": {
                             "type": "object", "description": "the deal page's form: type, declarer (seat), "
                             "level, strain, w<seat>, open, t<seat>; a single blank trick count is 10 − the rest"}}
                            for media_type in FORM_TYPES}}},
                     "responses": {"200": answer(ref("DealResult"), "what it writes")}
                                  | errors(400, 404, 415, 422)}},
        "/api/v1/pulkas/{uid}/deals/{number}": {
            "parameters": n,
            "get": {"summary": "One deal", "responses": {"200": answer(ref("DealResult"), "the deal")} | errors(404)},
            "put": {"summary": "Replace a deal; every later deal is scored again, and the edit is refused "
                               "(naming the deal) if a later deal becomes invalid",
                    "parameters": [IDEMPOTENCY_KEY],
                    "requestBody": {"required": True, "content": {"application/json": {"schema": ref("DealWrite")}}},
                    "responses": {"200": answer(ref("DealResult"), "stored")} | errors(400, 404, 409, 415, 422)},
            "delete": {"summary": "Delete a deal (refused if a later deal becomes invalid)",
                       "parameters": [VERSION_QUERY, IDEMPOTENCY_KEY],
                       "responses": {"200": {"description": "deleted"}} | errors(400, 404, 409, 422)}},
        "/api/v1/pulkas/{uid}/undo": {
            "parameters": p,
            "post": {"summary": "Delete the last deal", "parameters": [VERSION_QUERY, IDEMPOTENCY_KEY],
                     "requestBody": {"required": False, "content": {"application/json": {"schema": {
                         "type": "object", "properties": {"version": VERSION}}}}},
                     "responses": {"200": {"description": "undone"}} | errors(400, 404, 409, 415, 422)}},
        "/api/v1/pulkas/{uid}/sheet": {
            "parameters": p,
            "get": {"summary": "The sheet now", "responses": {"200": answer(ref("Sheet"), "the sheet")} | errors(404)}},
        "/api/v1/pulkas/{uid}/settlement": {
            "parameters": p,
            "get": {"summary": "Balances, money, the amnesty and pairwise forms, the fewest transfers",
                    "responses": {"200": answer(ref("Settlement"), "the settlement")} | errors(404)}},
        "/api/v1/pulkas/{uid}/export": {
            "parameters": p,
            "get": {"summary": "The pulka as a pulya/1 file",
                    "responses": {"200": answer(ref("PulyaFile"), "the file")} | errors(404)}},
        "/api/v1/pulkas/{uid}/pdf": {
            "parameters": p,
            "get": {"summary": "The pulka as an A4 PDF: the drawn sheet with name, date, players and rules; "
                               "the protocol of deals; the settlement. Finished or not.",
                    "parameters": [{"name": "orientation", "in": "query", "required": False,
                                    "schema": {"enum": ["table", "upright"], "default": "table"},
                                    "description": "table: each sector's text faces its own edge, as the sheet "
                                                   "lies on the table; upright: every entry horizontal"}],
                    "responses": {"200": {"description": "the PDF, as an attachment named after the pulka and "
                                                         "the day it was created",
                                          "content": {"application/pdf": {"schema": {
                                              "type": "string", "contentMediaType": "application/pdf"}}}}}
                                 | errors(400, 404)}},
        "/api/v1/pulkas/{uid}/version": {
            "parameters": p,
            "get": {"summary": "The pulka's version and its last change, with an ETag: what watching phones poll "
                               "(If-None-Match answers 304 while nothing changed)",
                    "parameters": [{"name": "since", "in": "query", "required": False, "schema": VERSION,
                                    "description": "the version the phone shows: the answer is never older"}],
                    "responses": {"200": {"description": "the version"}, "304": {"description": "unchanged"}}
                                 | errors(400, 404)}},
        "/api/v1/pulkas/{uid}/shares": {
            "parameters": p,
            "get": {"summary": "The pulka's share links (owner)",
                    "responses": {"200": {"description": "the links"}} | errors(404)},
            "post": {"summary": "A new share link for a viewer or a scorer (owner)",
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {
                         "type": "object", "required": ["role"], "properties": {
                             "role": {"enum": ["viewer", "scorer"]},
                             "label": {"type": "string", "maxLength": SHARE_LABEL_MAX},
                             "player": {"type": ["string", "null"], "description": "one of the players: his link"}}}}}},
                     "responses": {"201": answer(ref("Share"), "created")} | errors(400, 404, 415)}},
        "/api/v1/pulkas/{uid}/shares/{share_id}": {
            "parameters": p + [{"name": "share_id", "in": "path", "required": True, "schema": {"type": "string"}}],
            "delete": {"summary": "Revoke a share link: it stops working at once (owner)",
                       "responses": {"204": {"description": "revoked"}} | errors(404)}},
        "/api/v1/import": {
            "post": {"summary": "A pulya/1 file becomes a new pulka",
                     "parameters": [{"name": "name", "in": "query", "schema": {"type": "string"}}, IDEMPOTENCY_KEY],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": ref("PulyaFile")}}},
                     "responses": {"201": answer(ref("Pulka"), "imported")} | errors(400, 415, 422)}},
        "/api/v1/settle": {
            "post": {"summary": "Settle a paper sheet's totals as `scorekeeper settle --json` does; nothing is stored",
                     "requestBody": {"required": True, "content": {"application/json": {"schema": ref("PulyaSheet")}}},
                     "responses": {"200": answer(ref("PulyaResult"), "the settlement")} | errors(400, 415, 422)}},
    }
    paths |= club_paths()
    for path, operations in paths.items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            if (path, method) in ANONYMOUS:
                operation["security"] = []
            else:
                operation["responses"] |= errors(401, 403)
            # Any request may be malformed (inputs.check_text: a NUL in its path, query or token), and may meet
            # a database that cannot save (or be reached) for a while.
            operation["responses"] |= errors(400, 503)
    return {
        "openapi": "3.1.0",
        "info": {"title": "scorekeeper", "version": __version__,
                 "description": "The electronic pulya for Preferans. Every write either replays with the "
                                "engine and is stored in one transaction, or is refused with a 4xx whose body "
                                "carries the engine's problem code; a refused request stores nothing."},
        "paths": paths,
        "components": {"schemas": schemas, "securitySchemes": {"bearer": {
            "type": "http", "scheme": "bearer",
            "description": "an account's token (POST /api/v1/tokens), or a share link's token (its pulka only)"}}},
        "security": [{"bearer": []}],
    }
