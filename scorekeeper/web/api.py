"""The JSON API under /api/v1 (described by /api/v1/openapi.json). Players appear by name, deals
as in the pulka file; a refused request gets a 4xx with the engine's problem code and nothing is stored."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from .. import pulyafile
from ..engine import PARAMETERS, PRESETS, Rules, RulesError
from ..render.svg import ORIENTATIONS
from . import convert, store, views
from .errors import Refused
from .openapi import document
from .pages import import_text, pdf_response
from .service import State

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def _body() -> dict[str, Any]:
    if not request.is_json:
        raise Refused(415, "bad_format", "send the body as application/json")
    data = request.get_json(silent=True)
    if data is None:
        raise Refused(400, "bad_json", "the body is not JSON")
    if not isinstance(data, dict):
        raise Refused(400, "bad_format", "the body must be a JSON object")
    return data


def _expected(data: dict[str, Any]) -> int | None:
    """The optional `version` a client last saw: a write on a pulka that changed since is refused (409)."""
    version = data.get("version", request.args.get("version"))
    if version is None:
        return None
    if isinstance(version, str) and version.isdigit():
        return int(version)
    if isinstance(version, int) and not isinstance(version, bool):
        return version
    raise Refused(400, "bad_format", "version must be a whole number", "version")


def pulka_json(state: State) -> dict[str, Any]:
    return {
        "id": state.id,
        "name": state.name,
        "version": state.version,
        "players": list(state.players),
        "first_dealer": state.players[state.first_dealer],
        "currency": state.currency,
        "rules": state.rules.to_dict(),
        "overrides": state.rules.overrides(),
        "deals": len(state.deals),
        "finished": state.sheet.finished,
        "frozen": bool(state.deals),
        "next": views.next_deal(state),
        "links": {"sheet": url_for("api.sheet", pulka_id=state.id), "page": url_for("pages.sheet", pulka_id=state.id)},
    }


def deal_json(state: State, number: int) -> dict[str, Any]:
    return views.jsonable(views.deal_view(state, state.result(number))) | {"version": state.version}


# -- reference data ------------------------------------------------------------------------


@bp.get("/openapi.json")
def openapi():
    return jsonify(document())


@bp.get("/parameters")
def parameters():
    return jsonify({
        "parameters": [{"name": p.name, "kind": p.kind.value, "meaning": p.meaning, "domain": p.domain}
                       for p in PARAMETERS],
        "presets": {preset.value: rules.to_dict() for preset, rules in PRESETS.items()},
    })


@bp.get("/players")
def players():
    return jsonify({"players": store().player_names()})


# -- pulkas --------------------------------------------------------------------------------


@bp.get("/pulkas")
def list_pulkas():
    return jsonify({"pulkas": [{"id": s.id, "name": s.name, "players": list(s.players), "deals": s.deals,
                                "updated_at": s.updated_at.isoformat()} for s in store().summaries()]})


def _settings(data: dict[str, Any], partial: bool) -> dict[str, Any]:
    """name, players, first_dealer, rules, currency from a request body, checked like the pulka file."""
    unknown = data.keys() - {"name", "players", "first_dealer", "rules", "currency", "version"}
    if unknown:
        raise Refused(400, "bad_format", f"unknown key {sorted(unknown)[0]!r}", sorted(unknown)[0])
    values: dict[str, Any] = {}
    if "players" in data or not partial:
        why = pulyafile.check_players(data.get("players"))
        if why:
            raise Refused(422, "bad_players", why, "players")
        values["players"] = list(data["players"])
    players = values.get("players")
    if "first_dealer" in data:
        if players is None:
            raise Refused(422, "bad_players", "give the players together with the first dealer", "first_dealer")
        if data["first_dealer"] not in players:
            raise Refused(422, "bad_players", "first_dealer must be one of the players", "first_dealer")
        values["first_dealer"] = players.index(data["first_dealer"])
    elif players is not None:
        values["first_dealer"] = 0
    if "rules" in data or not partial:
        rules = data.get("rules", {"preset": "sochi"})
        if not isinstance(rules, dict) or not isinstance(rules.get("preset"), str):
            raise Refused(400, "bad_format", "rules must be an object with a preset", "rules")
        overrides = {k: v for k, v in rules.items() if k != "preset"}
        try:
            values["rules"] = Rules.of(rules["preset"], **overrides)
        except RulesError as error:
            first = error.problems[0]
            raise Refused(422, first.code.value, first.text(()), f"rules.{first.field}",
                          problems=[{"code": p.code.value, "field": f"rules.{p.field}", "deal": None,
                                     "message": p.text(())} for p in error.problems]) from None
    for key, most in (("name", 80), ("currency", 8)):
        if key in data:
            if not isinstance(data[key], str) or len(data[key].strip()) > most:
                raise Refused(422, "bad_format", f"{key} must be text of at most {most} characters", key)
            values[key] = data[key].strip()
    if not partial:
        values.setdefault("name", "")
        values["name"] = values["name"] or ("Pulka of " + ", ".join(values["players"]))[:80]
        values.setdefault("currency", "")
    return values


@bp.post("/pulkas")
def create_pulka():
    values = _settings(_body(), partial=False)
    state = store().create(**values)
    return jsonify(pulka_json(state)), 201, {"Location": url_for("api.get_pulka", pulka_id=state.id)}


@bp.get("/pulkas/<int:pulka_id>")
def get_pulka(pulka_id: int):
    return jsonify(pulka_json(store().get(pulka_id)))


@bp.patch("/pulkas/<int:pulka_id>")
def patch_pulka(pulka_id: int):
    data = _body()
    values = _settings(data, partial=True)
    state = store().update_settings(pulka_id, _expected(data), **values)
    return jsonify(pulka_json(state))


@bp.delete("/pulkas/<int:pulka_id>")
def delete_pulka(pulka_id: int):
    store().delete_pulka(pulka_id)
    return "", 204


# -- deals ---------------------------------------------------------------------------------


def _deal(data: dict[str, Any], state: State, number: int):
    """The deal in a body: `{"deal": {...}}` or the deal object itself, as in the pulka file."""
    item = data.get("deal", {k: v for k, v in data.items() if k != "version"})
    return convert.deal_from_json(item, state.players, number)


@bp.get("/pulkas/<int:pulka_id>/deals")
def list_deals(pulka_id: int):
    state = store().get(pulka_id)
    return jsonify({"version": state.version, "deals": views.jsonable(views.protocol(state))})


@bp.post("/pulkas/<int:pulka_id>/deals")
def add_deal(pulka_id: int):
    data = _body()
    state = store().add_deal(pulka_id, lambda s: _deal(data, s, len(s.deals) + 1), _expected(data))
    number = len(state.deals)
    return (jsonify(deal_json(state, number)), 201,
            {"Location": url_for("api.get_deal", pulka_id=pulka_id, number=number)})


@bp.post("/pulkas/<int:pulka_id>/deals/preview")
def preview_deal(pulka_id: int):
    """What a deal would write, without storing it. Takes the API's JSON deal, or the deal form's own
    fields (form-encoded, seats as numbers) so the page's live preview shares the form's reading."""
    state = store().get(pulka_id)
    number = request.args.get("number", type=int)
    if number is not None:
        state.result(number)
    at = number or len(state.deals) + 1
    if request.is_json:
        deal = _deal(_body(), state, at)
    else:
        deal = convert.deal_from_form(request.form, state.sheet_before(at), state.rules)
    result = state.preview(deal, number)
    return jsonify({"n": at, "deal": convert.deal_to_json(deal, state.players),
                    "entries": views.jsonable([views.entry_view(e, state.players) for e in result.entries]),
                    "summary": views.summary(result.entries, state.players)})


@bp.get("/pulkas/<int:pulka_id>/deals/<int:number>")
def get_deal(pulka_id: int, number: int):
    return jsonify(deal_json(store().get(pulka_id), number))


@bp.put("/pulkas/<int:pulka_id>/deals/<int:number>")
def edit_deal(pulka_id: int, number: int):
    data = _body()
    state = store().edit_deal(pulka_id, number, lambda s: _deal(data, s, number), _expected(data))
    return jsonify(deal_json(state, number))


@bp.delete("/pulkas/<int:pulka_id>/deals/<int:number>")
def delete_deal(pulka_id: int, number: int):
    state = store().delete_deal(pulka_id, number, _expected({}))
    return jsonify({"version": state.version, "deals": len(state.deals)})


@bp.post("/pulkas/<int:pulka_id>/undo")
def undo(pulka_id: int):
    data = request.get_json(silent=True) if request.is_json else None
    state = store().delete_deal(pulka_id, None, _expected(data if isinstance(data, dict) else {}))
    return jsonify({"version": state.version, "deals": len(state.deals)})


# -- sheet, settlement, files ----------------------------------------------------------------


@bp.get("/pulkas/<int:pulka_id>/sheet")
def sheet(pulka_id: int):
    state = store().get(pulka_id)
    body = state.cache.get("sheet.json")
    if body is None:  # once per pulka version, like the sheet page
        body = state.cache["sheet.json"] = json.dumps(views.jsonable(views.sheet_view(state)), ensure_ascii=False)
    return Response(body, mimetype="application/json")


@bp.get("/pulkas/<int:pulka_id>/settlement")
def settlement(pulka_id: int):
    state = store().get(pulka_id)
    return jsonify(views.jsonable(views.settlement_view(state)) | {"version": state.version})


@bp.get("/pulkas/<int:pulka_id>/export")
def export(pulka_id: int):
    return Response(pulyafile.dumps(store().get(pulka_id).pulka()), mimetype="application/json")


@bp.get("/pulkas/<int:pulka_id>/pdf")
def pdf(pulka_id: int):
    state = store().get(pulka_id)
    orientation = request.args.get("orientation", "table")
    if orientation not in ORIENTATIONS:
        raise Refused(400, "bad_format", f"orientation is one of {', '.join(ORIENTATIONS)}", "orientation")
    return pdf_response(state, orientation)


@bp.post("/import")
def import_pulka():
    if not request.is_json:
        raise Refused(415, "bad_format", "send the pulka file as application/json")
    state = import_text(request.get_data(), request.args.get("name", ""))
    return jsonify(pulka_json(state)), 201, {"Location": url_for("api.get_pulka", pulka_id=state.id)}



