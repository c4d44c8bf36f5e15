"""The OpenAPI paths of the club's features: a pulka's end, the players and their statistics."""

from __future__ import annotations

from typing import Any

from .schema import IDEMPOTENCY_KEY, PULKA_ID, VERSION, answer, errors, ref


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
    }
