"""A pulka's end: closed by its owner as it stands, or reopened."""

from __future__ import annotations

from flask.typing import ResponseReturnValue

from ..domain.idempotency import Answer
from ..domain.pulkas import Pulka
from ..domain.results import ClosePulka, ReopenPulka
from ..edge.access import Need, needs
from ..edge.caller import actor
from ..edge.idempotency import idempotent, json_answer, write
from ..edge.inputs import json_body, version_sent
from ..edge.presenting import fresh
from ..services import results
from .blueprint import bp
from .openapi import describe
from .pulkas import pulka_json
from .schema import IDEMPOTENCY_KEY, PULKA_ID, VERSION, answer, errors, ref


def _answer(pulka: Pulka) -> Answer:
    return json_answer(200, pulka_json(fresh(pulka)))


@bp.post("/pulkas/<uid>/close")
@needs(Need.OWN)
@idempotent
def close_pulka(uid: str) -> ResponseReturnValue:
    command = ClosePulka(uid, version_sent(json_body(optional=True)))
    return write(lambda unit: results.close(unit.pulkas, command, actor()), _answer)


@bp.post("/pulkas/<uid>/reopen")
@needs(Need.OWN)
@idempotent
def reopen_pulka(uid: str) -> ResponseReturnValue:
    command = ReopenPulka(uid, version_sent(json_body(optional=True)))
    return write(lambda unit: results.reopen(unit.pulkas, command, actor()), _answer)


# This module's part of the API's document (openapi.py assembles the parts).
VERSION_BODY = {"required": False, "content": {"application/json": {"schema": {
    "type": "object", "properties": {"version": VERSION}}}}}
describe({
    "/api/v1/pulkas/{uid}/close": {"parameters": [PULKA_ID], "post": {
        "summary": "End the pulka as it stands (owner): its result is kept, and it takes no write until "
                   "reopened", "parameters": [IDEMPOTENCY_KEY], "requestBody": VERSION_BODY,
        "responses": {"200": answer(ref("Pulka"), "closed")} | errors(404, 409, 415)}},
    "/api/v1/pulkas/{uid}/reopen": {"parameters": [PULKA_ID], "post": {
        "summary": "Take a closed or finished pulka's result back, to change it (owner)",
        "parameters": [IDEMPOTENCY_KEY], "requestBody": VERSION_BODY,
        "responses": {"200": answer(ref("Pulka"), "reopened")} | errors(404, 409, 415)}},
})
