"""Pulkas: the list, a new one, one's settings, deleting it, the version watching phones poll, its sheet,
settlement and files, and an import."""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from ...render.svg import ORIENTATIONS
from ...i18n.words import Msg
from ..domain.idempotency import Answer
from ..domain.limits import CURRENCY_MAX, PULKA_NAME_MAX
from ..domain.paper import read_opening
from ..domain.pulkas import ChangeSettings, DeletePulka, ImportPulka, Pulka, read_settings
from ..domain.reading import read_number, read_pulka_file
from ..domain.refusals import ErrorCode, Refused
from ..edge import i18n
from ..edge.access import Need, needs
from ..edge.caller import actor, me
from ..edge.context import limits, store
from ..edge.idempotency import idempotent, json_answer, write
from ..edge.inputs import json_body, version_sent
from ..edge.presenting import answering, download, pdf_turn, presenter
from ..services import pulkas as pulka_service
from ..views.filters import jsonable
from ..views.pulkas import Presenter
from .blueprint import bp
from .openapi import describe
from .schema import IDEMPOTENCY_KEY, NAME, PULKA_ID, VERSION, answer, errors, ref


def pulka_json(view: Presenter) -> dict[str, Any]:
    """The pulka, its links, and the later pulka its table went on to, if any (not a part of its version: a
    table goes on without changing the earlier pulkas)."""
    uid = view.pulka.uid
    later = pulka_service.played_now(store().pulkas, uid)
    return view.pulka_json | {"links": _links(uid), "successor": None if later is None else {
        "id": later.uid, "name": later.name, "links": _links(later.uid)}}


def _links(uid: str) -> dict[str, str]:
    return {"sheet": url_for("api.sheet", uid=uid), "page": url_for("pages.sheet", uid=uid)}


# What a write answers is built of the pulka it made, by a presenter of its own: with an idempotency key it is
# built in the write's transaction, and presenters are kept by version (idempotency.write).


def _created(pulka: Pulka) -> Answer:
    return json_answer(201, pulka_json(answering(pulka)), url_for("api.get_pulka", uid=pulka.uid))


@bp.get("/pulkas")
@needs(Need.ACCOUNT)
def list_pulkas() -> ResponseReturnValue:
    return jsonify({"pulkas": [{"id": s.uid, "name": s.name, "players": list(s.players), "deals": s.deals,
                                "updated_at": s.updated_at.isoformat(), "role": s.role.value}
                               for s in pulka_service.list_pulkas(store().pulkas, me())]})


@bp.post("/pulkas")
@needs(Need.ACCOUNT)
@idempotent
def create_pulka() -> ResponseReturnValue:
    body = json_body()
    if "currency" not in body:
        body = {**body, "currency": i18n.DEFAULT_CURRENCY[i18n.language()]}  # a Russian table plays for roubles
    given = "opening" in body
    opening = body.pop("opening", None)
    settings = read_settings(body, say=i18n.say)
    if given:  # a table that began on paper goes on here (docs/files.md §5)
        settings = dataclasses.replace(settings, opening=read_opening(opening, settings.players, settings.rules))
    return write(lambda unit: pulka_service.create_pulka(unit.pulkas, me(), settings, limits=limits()), _created)


@bp.get("/pulkas/<uid>")
@needs(Need.READ)
def get_pulka(uid: str) -> ResponseReturnValue:
    return jsonify(pulka_json(presenter(pulka_service.get_pulka(store().pulkas, uid))))


@bp.patch("/pulkas/<uid>")
@needs(Need.OWN)
@idempotent
def patch_pulka(uid: str) -> ResponseReturnValue:
    data = json_body()
    expected = version_sent(data)
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    command = ChangeSettings(uid, read_settings({k: v for k, v in data.items() if k != "version"}, pulka.settings),
                             expected)
    return write(lambda unit: pulka_service.change_settings(unit.pulkas, command, actor()),
                 lambda changed: json_answer(200, pulka_json(answering(changed))))


@bp.delete("/pulkas/<uid>")
@needs(Need.OWN)
@idempotent
def delete_pulka(uid: str) -> ResponseReturnValue:
    return write(lambda unit: pulka_service.delete_pulka(unit.pulkas, DeletePulka(uid)), lambda _: Answer(204))


@bp.get("/pulkas/<uid>/version")
@needs(Need.READ, polled=True)
def version(uid: str) -> ResponseReturnValue:
    """What a watching phone asks every few seconds: the version and the last change, with an ETag, so
    that while nothing changes the answer is an empty 304. `since`: the version the phone shows (its own
    last write's, say): the answer is never older."""
    seen = read_number(request.args["since"], "since") if "since" in request.args else 0
    stamp = pulka_service.version(store().pulkas, uid, seen)
    response = jsonify({"version": stamp.version, "deals": stamp.deals, "change": stamp.change})
    response.set_etag(f"v{stamp.version}")
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/pulkas/<uid>/sheet")
@needs(Need.READ)
def sheet(uid: str) -> ResponseReturnValue:
    return Response(presenter(pulka_service.get_pulka(store().pulkas, uid)).sheet_json, mimetype="application/json")


@bp.get("/pulkas/<uid>/settlement")
@needs(Need.READ)
def settlement(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    return jsonify(jsonable(presenter(pulka).settlement) | {"version": pulka.version})


@bp.get("/pulkas/<uid>/export")
@needs(Need.READ)
def export(uid: str) -> ResponseReturnValue:
    return Response(presenter(pulka_service.get_pulka(store().pulkas, uid)).export, mimetype="application/json")


@bp.get("/pulkas/<uid>/pdf")
@needs(Need.READ)
def pdf(uid: str) -> ResponseReturnValue:
    view = presenter(pulka_service.get_pulka(store().pulkas, uid))
    orientation = request.args.get("orientation", "table")
    if orientation not in ORIENTATIONS:
        raise Refused(Msg("orientation is one of {choices}")(choices=", ".join(ORIENTATIONS)), "orientation")
    return download(view.pdf(pdf_turn(), orientation), "application/pdf", view.filename("pdf"))


@bp.post("/import")
@needs(Need.ACCOUNT)
@idempotent
def import_pulka() -> ResponseReturnValue:
    if not request.is_json:
        raise Refused(Msg("send the pulka file as application/json"), code=ErrorCode.UNSUPPORTED_MEDIA_TYPE)
    file, name = read_pulka_file(request.get_data()), request.args.get("name", "")  # read as any pulka's name
    command = ImportPulka.of(file, name, i18n.say)
    return write(lambda unit: pulka_service.import_pulka(unit.pulkas, me(), command, limits()), _created)


# This module's part of the API's document (openapi.py assembles the parts).
PULKA = {  # what a new pulka is made of, and a change of one changes
    "name": {"type": "string", "maxLength": PULKA_NAME_MAX},
    "players": {"type": "array", "items": NAME, "minItems": 3, "maxItems": 4,
                "description": "in clockwise seating order"},
    "first_dealer": NAME, "rules": ref("Rules"), "currency": {"type": "string", "maxLength": CURRENCY_MAX},
    "played_on": {"type": ["string", "null"], "format": "date",
                  "description": "the day it was played, when not the day it is entered (a game entered "
                                 "afterwards): up to tomorrow; null or absent: the day it started. Its files "
                                 "and statistics date it by this day"}}
describe({
    "/api/v1/pulkas": {
        "get": {"summary": "The caller's pulkas and those shared with it",
                "responses": {"200": {"description": "a list"}}},
        "post": {"summary": "A new pulka", "parameters": [IDEMPOTENCY_KEY],
                 "requestBody": {"required": True, "content": {"application/json": {"schema": ref("PulkaWrite")}}},
                 "responses": {"201": answer(ref("Pulka"), "created")} | errors(400, 415, 422)}},
    "/api/v1/pulkas/{uid}": {
        "parameters": [PULKA_ID],
        "get": {"summary": "A pulka", "responses": {"200": answer(ref("Pulka"), "the pulka")} | errors(404)},
        "patch": {"summary": "Rename, change currency; rules and players only before the first deal",
                  "parameters": [IDEMPOTENCY_KEY],
                  "requestBody": {"content": {"application/json": {"schema": ref("PulkaPatch")}}},
                  "responses": {"200": answer(ref("Pulka"), "updated")} | errors(400, 404, 409, 415, 422)},
        "delete": {"summary": "Delete a pulka and its deals", "parameters": [IDEMPOTENCY_KEY],
                   "responses": {"204": {"description": "deleted"}} | errors(400, 404, 422)}},
    "/api/v1/pulkas/{uid}/sheet": {
        "parameters": [PULKA_ID],
        "get": {"summary": "The sheet now", "responses": {"200": answer(ref("Sheet"), "the sheet")} | errors(404)}},
    "/api/v1/pulkas/{uid}/settlement": {
        "parameters": [PULKA_ID],
        "get": {"summary": "Balances, money, the amnesty and pairwise forms, the fewest transfers",
                "responses": {"200": answer(ref("Settlement"), "the settlement")} | errors(404)}},
    "/api/v1/pulkas/{uid}/export": {
        "parameters": [PULKA_ID],
        "get": {"summary": "The pulka as a pulya/1 file",
                "responses": {"200": answer(ref("PulyaFile"), "the file")} | errors(404)}},
    "/api/v1/pulkas/{uid}/pdf": {
        "parameters": [PULKA_ID],
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
        "parameters": [PULKA_ID],
        "get": {"summary": "The pulka's version and its last change, with an ETag: what watching phones poll "
                           "(If-None-Match answers 304 while nothing changed)",
                "parameters": [{"name": "since", "in": "query", "required": False, "schema": VERSION,
                                "description": "the version the phone shows: the answer is never older"}],
                "responses": {"200": {"description": "the version"}, "304": {"description": "unchanged"}}
                             | errors(400, 404)}},
    "/api/v1/import": {
        "post": {"summary": "A pulya/1 file becomes a new pulka",
                 "parameters": [{"name": "name", "in": "query", "schema": {"type": "string"}}, IDEMPOTENCY_KEY],
                 "requestBody": {"required": True, "content": {"application/json": {"schema": ref("PulyaFile")}}},
                 "responses": {"201": answer(ref("Pulka"), "imported")} | errors(400, 415, 422)}},
}, {
    "PulkaWrite": {"type": "object", "additionalProperties": False, "properties": PULKA | {"opening": {
        "type": "object", "description": "the sheet as paper left it: pulya, gora, whists (docs/files.md §5)"}}},
    "PulkaPatch": {"type": "object", "additionalProperties": False, "properties": PULKA | {"version": VERSION}},
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
    "PulyaFile": {"type": "object", "description": "the pulya/1 file (docs/files.md §1)",
                  "required": ["format", "players", "rules", "deals"]},
})
