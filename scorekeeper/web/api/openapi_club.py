"""The OpenAPI paths of the club's features: a pulka's end, the players and their statistics, the ledger."""

from __future__ import annotations

from typing import Any

from .schema import IDEMPOTENCY_KEY, NAME, PULKA_ID, VERSION, answer, errors, ref

# CLUB.md §1: the same filters on every statistics call.
FILTERS = [
    {"name": "from", "in": "query", "schema": {"type": "string", "format": "date"},
     "description": "pulkas started on or after this date (YYYY-MM-DD, the pulka's own)"},
    {"name": "to", "in": "query", "schema": {"type": "string", "format": "date"}, "description": "… on or before"},
    {"name": "preset", "in": "query", "schema": {"enum": ["sochi", "leningrad", "rostov"]}},
    {"name": "players", "in": "query", "schema": {"enum": ["3", "4"]}},
    {"name": "currency", "in": "query", "schema": {"type": "string", "maxLength": 8}},
    {"name": "with", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}, "explode": True,
     "description": "a player id: only pulkas every one of them sat in"},
    {"name": "unfinished", "in": "query", "schema": {"enum": ["0", "1"]}, "description": "1: unfinished ones too"},
]
PLAYER_ID = {"name": "player", "in": "path", "required": True, "schema": {"type": "string"},
             "description": "a player's id (GET /api/v1/players)"}


def club_paths() -> dict[str, dict[str, Any]]:
    version_body = {"required": False, "content": {"application/json": {"schema": {
        "type": "object", "properties": {"version": VERSION}}}}}
    return {
        "/api/v1/pulkas/{uid}/close": {"parameters": [PULKA_ID], "post": {
            "summary": "End the pulka as it stands (owner): its result is kept, and it takes no write until "
                       "reopened", "parameters": [IDEMPOTENCY_KEY], "requestBody": version_body,
            "responses": {"200": answer(ref("Pulka"), "closed")} | errors(404, 409, 415)}},
        "/api/v1/pulkas/{uid}/reopen": {"parameters": [PULKA_ID], "post": {
            "summary": "Take a closed or finished pulka's result back, to change it (owner)",
            "parameters": [IDEMPOTENCY_KEY], "requestBody": version_body,
            "responses": {"200": answer(ref("Pulka"), "reopened")} | errors(404, 409, 415)}},
        "/api/v1/players": {"get": {
            "summary": "The caller's circle: the players of the pulkas it may read, with how many count",
            "parameters": FILTERS, "responses": {"200": {"description": "players: id, name, pulkas"}}}},
        "/api/v1/players/{player}": {"parameters": [PLAYER_ID], "patch": {
            "summary": "Rename one of the account's players",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["name"], "properties": {"name": NAME}}}}},
            "responses": {"200": {"description": "renamed"}} | errors(404, 415)}},
        "/api/v1/players/{player}/stats": {"parameters": [PLAYER_ID], "get": {
            "summary": "A player's statistics over the pulkas that count (CLUB.md §2)", "parameters": FILTERS,
            "responses": {"200": {"description": "the stats object"}} | errors(404)}},
        "/api/v1/players/{player}/merge": {"parameters": [PLAYER_ID], "post": {
            "summary": "Merge the player into another of the account's (`into`: his id): one player entered twice",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["into"], "properties": {"into": {"type": "string"}}}}}},
            "responses": {"204": {"description": "merged"}} | errors(404, 415)},
            "delete": {"summary": "Undo the player's merge", "responses": {"204": {"description": "undone"}}
                       | errors(404)}},
        **ledger_paths(),
    }


def ledger_paths() -> dict[str, dict[str, Any]]:
    """CLUB.md §3: the caller's ledger in one currency, its payments, paid marks and the settle-up."""
    amount = {"oneOf": [{"type": "number"}, {"type": "string"}], "description": "above 0, in whole cents"}
    # A cash unit (10: tens of roubles): each balance rounded to it first, so every payment is whole units.
    cash = amount | {"description": "a cash unit to settle up in (whole cents); none: to the cent"}
    payment = {"type": "object", "required": ["from", "to", "amount"], "properties": {
        "from": {"type": "string", "description": "a player id of the caller's circle"}, "to": {"type": "string"},
        "amount": amount, "currency": {"type": "string", "maxLength": 8},
        "obligation": {"type": ["string", "null"]}, "note": {"type": "string", "maxLength": 200}}}
    obligation = {"name": "obligation", "in": "path", "required": True, "schema": {"type": "string"}}
    marks = {"parameters": [obligation], "post": {
        "summary": "Pay what is still open on the obligation (a second call changes nothing)",
        "parameters": [IDEMPOTENCY_KEY],
        "responses": {"200": {"description": "the obligation"}} | errors(400, 403, 404, 415, 422)},
        "delete": {"summary": "Reverse the payments the obligation's paid marks made", "parameters": [IDEMPOTENCY_KEY],
                   "responses": {"200": {"description": "the obligation"}} | errors(403, 404, 422)}}
    return {
        "/api/v1/ledger": {"get": {
            "summary": "The caller's ledger in one currency: balances, who owes whom, obligations, payments, the "
                       "fewest payments to settle (CLUB.md §3)",
            "parameters": [{"name": "currency", "in": "query", "schema": {"type": "string", "maxLength": 8},
                            "description": "none: the currency used last"},
                           {"name": "cash", "in": "query", "schema": cash}],
            "responses": {"200": {"description": "the ledger"}} | errors(400)}},
        "/api/v1/ledger/payments": {"post": {
            "summary": "Record a payment (between players of the caller's own circle)", "parameters": [IDEMPOTENCY_KEY],
            "requestBody": {"required": True, "content": {"application/json": {"schema": payment}}},
            "responses": {"201": {"description": "the payment"}} | errors(400, 403, 415, 422)}},
        "/api/v1/ledger/payments/{payment}": {"parameters": [
            {"name": "payment", "in": "path", "required": True, "schema": {"type": "string"}}], "delete": {
            "summary": "Take a payment back: a reversing row is added, both stay listed",
            "parameters": [IDEMPOTENCY_KEY],
            "responses": {"200": {"description": "the reversal"}} | errors(403, 404, 409, 422)}},
        "/api/v1/ledger/obligations/{obligation}/paid": marks,
        "/api/v1/ledger/settle-up": {"post": {
            "summary": "Record the suggested settle-up of a currency as payments", "parameters": [IDEMPOTENCY_KEY],
            "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object",
                            "properties": {"currency": {"type": "string"}, "note": {"type": "string"},
                                           "cash": cash}}}}},
            "responses": {"201": {"description": "the payments recorded"}} | errors(400, 403, 415, 422)}},
    }
