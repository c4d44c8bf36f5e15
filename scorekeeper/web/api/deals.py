"""Deals: the protocol, one deal, adding, previewing, editing, deleting, undo."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request, url_for
from flask.typing import ResponseReturnValue

from ...files import pulyafile
from ...engine import Deal
from ..domain.deals import DeleteDeal, EditDeal, EnterDeal, UndoDeal, deal_from_fields
from ..domain.idempotency import Answer
from ..domain.pulkas import Pulka
from ..domain.reading import read_deal, read_number
from ..edge.access import Need, needs
from ..edge.caller import actor
from ..edge.context import limits, store
from ..edge.i18n import language
from ..edge.idempotency import idempotent, json_answer, write
from ..edge.inputs import FORM_TYPES, json_body, version_sent
from ..edge.presenting import answering, presenter
from ..services import deals as deal_service
from ..services import pulkas as pulka_service
from ..views.deals import entry_view, summary, written
from ..views.filters import jsonable
from ..views.pulkas import Presenter
from .blueprint import bp
from .openapi import describe
from .schema import DEAL_NUMBER, IDEMPOTENCY_KEY, NUMBER, PULKA_ID, VERSION, VERSION_QUERY, answer, errors, ref


def _deal(data: dict[str, Any], pulka: Pulka, number: int) -> Deal:
    """The deal in a body: `{"deal": {...}}` or the deal object itself, as in the pulka file."""
    return read_deal(data.get("deal", {k: v for k, v in data.items() if k != "version"}), pulka.players, number)


def deal_json(view: Presenter, number: int) -> dict[str, Any]:
    shown: dict[str, Any] = jsonable(view.deal(number))
    return shown | {"version": view.pulka.version}


def _counts(pulka: Pulka) -> Answer:
    return json_answer(200, {"version": pulka.version, "deals": len(pulka.deals)})


@bp.get("/pulkas/<uid>/deals")
@needs(Need.READ)
def list_deals(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    return jsonify({"version": pulka.version, "deals": jsonable(presenter(pulka).protocol)})


@bp.post("/pulkas/<uid>/deals")
@needs(Need.SCORE)
@idempotent
def add_deal(uid: str) -> ResponseReturnValue:
    data = json_body()
    expected = version_sent(data)
    pulka = pulka_service.pulka_to_write(store().pulkas, uid)
    deal = _deal(data, pulka, len(pulka.deals) + 1)

    def added(saved: Pulka) -> Answer:
        number = len(saved.deals)
        return json_answer(201, deal_json(answering(saved), number), url_for("api.get_deal", uid=uid, number=number))

    return write(lambda unit: deal_service.add_deal(unit.pulkas, EnterDeal(uid, deal, expected), actor(), limits()),
                 added)


@bp.post("/pulkas/<uid>/deals/preview")
@needs(Need.SCORE)
def preview_deal(uid: str) -> ResponseReturnValue:
    """What a deal would write, without storing it. Takes the API's JSON deal, or the deal form's own
    fields (form-encoded, seats as numbers) so the page's live preview shares the form's reading."""
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    number = read_number(request.args["number"], "number", low=1) if "number" in request.args else None
    if number is not None:
        pulka.result(number)
    at = len(pulka.deals) + 1 if number is None else number
    if request.mimetype in FORM_TYPES:
        deal = deal_from_fields(request.form, pulka.replay.sheet_before(at), pulka.rules)
    else:
        deal = _deal(json_body(), pulka, at)
    result = deal_service.preview(pulka, deal, number)
    return jsonify({"n": at, "deal": pulyafile.deal_to_json(deal, pulka.players),
                    "entries": jsonable([entry_view(e, pulka.players, language()) for e in result.entries]),
                    "summary": summary(result.entries, pulka.players, language()),
                    "lines": written(result.entries, pulka.players, language())})


@bp.get("/pulkas/<uid>/deals/<int:number>")
@needs(Need.READ)
def get_deal(uid: str, number: int) -> ResponseReturnValue:
    return jsonify(deal_json(presenter(pulka_service.get_pulka(store().pulkas, uid)), number))


@bp.put("/pulkas/<uid>/deals/<int:number>")
@needs(Need.SCORE)
@idempotent
def edit_deal(uid: str, number: int) -> ResponseReturnValue:
    data = json_body()
    expected = version_sent(data)
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    pulka.result(number)
    deal = _deal(data, pulka, number)
    return write(lambda unit: deal_service.edit_deal(unit.pulkas, EditDeal(uid, number, deal, expected), actor()),
                 lambda saved: json_answer(200, deal_json(answering(saved), number)))


@bp.delete("/pulkas/<uid>/deals/<int:number>")
@needs(Need.SCORE)
@idempotent
def delete_deal(uid: str, number: int) -> ResponseReturnValue:
    expected = version_sent({})
    return write(lambda unit: deal_service.delete_deal(unit.pulkas, DeleteDeal(uid, number, expected), actor()),
                 _counts)


@bp.post("/pulkas/<uid>/undo")
@needs(Need.SCORE)
@idempotent
def undo(uid: str) -> ResponseReturnValue:
    expected = version_sent(json_body(optional=True))
    return write(lambda unit: deal_service.undo(unit.pulkas, UndoDeal(uid, expected), actor()), _counts)


# This module's part of the API's document (openapi.py assembles the parts).
describe({
    "/api/v1/pulkas/{uid}/deals": {
        "parameters": [PULKA_ID],
        "get": {"summary": "The protocol: every deal with every line it wrote and why",
                "responses": {"200": {"description": "deals"}} | errors(404)},
        "post": {"summary": "Enter the next deal", "parameters": [IDEMPOTENCY_KEY],
                 "requestBody": {"required": True, "content": {"application/json": {"schema": ref("DealWrite")}}},
                 "responses": {"201": answer(ref("DealResult"), "stored")} | errors(400, 404, 409, 415, 422)}},
    "/api/v1/pulkas/{uid}/deals/preview": {
        "parameters": [PULKA_ID, {"name": "number", "in": "query", "schema": DEAL_NUMBER,
                                  "description": "preview an edit of this deal instead of the next deal"}],
        "post": {"summary": "What a deal would write; nothing is stored",
                 "requestBody": {"required": True, "content": {
                     "application/json": {"schema": ref("Deal")},
                     **{media_type: {"schema": {
                         "type": "object", "description": "the deal page's form: type, declarer (seat), "
                         "level, strain, w<seat>, open, t<seat>; a single blank trick count is 10 − the rest"}}
                        for media_type in FORM_TYPES}}},
                 "responses": {"200": answer(ref("DealResult"), "what it writes")} | errors(400, 404, 415, 422)}},
    "/api/v1/pulkas/{uid}/deals/{number}": {
        "parameters": [PULKA_ID, NUMBER],
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
        "parameters": [PULKA_ID],
        "post": {"summary": "Delete the last deal", "parameters": [VERSION_QUERY, IDEMPOTENCY_KEY],
                 "requestBody": {"required": False, "content": {"application/json": {"schema": {
                     "type": "object", "properties": {"version": VERSION}}}}},
                 "responses": {"200": {"description": "undone"}} | errors(400, 404, 409, 415, 422)}},
}, {
    "DealWrite": {
        "description": "the deal object itself, or {deal, version}",
        "oneOf": [ref("Deal"), {"type": "object", "required": ["deal"], "properties": {
            "deal": ref("Deal"), "version": VERSION}, "additionalProperties": False}],
    },
})
