"""Players across pulkas (docs/club.md §1-2): the circle, a player's statistics, renaming and merging."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request, url_for
from flask.typing import ResponseReturnValue

from ...engine import Filter
from ...files.statsfile import stats_json
from ..domain.idempotency import Answer
from ..domain.limits import INT_MAX, PAGE_ROWS
from ..domain.paging import numbered, read_page
from ..domain.players import FILTER_KEYS, Merge, Player, Rename, Unmerge, read_filter, read_name
from ..edge.access import Need, needs
from ..edge.caller import me
from ..edge.context import limits, store
from ..edge.idempotency import idempotent, json_answer, write
from ..edge.inputs import json_body
from ..services import players as player_service
from .blueprint import bp
from .openapi import describe
from .schema import IDEMPOTENCY_KEY, NAME, errors


def _filter() -> Filter[str]:
    return read_filter(request.args.to_dict(flat=False))


def player_json(player: Player) -> dict[str, object]:
    return {"id": player.id, "name": player.name}


@bp.get("/players")
@needs(Need.ACCOUNT)  # the account's circle: the players of the pulkas it may read
def players() -> ResponseReturnValue:
    """The circle by name, a page at a time (`page`: the number `next` leads to)."""
    number = read_page(request.args.get("page"))
    circle = player_service.circle(store().players, me(), _filter())
    shown, _, following = numbered(circle.players, number, limits().page_rows)
    query: dict[str, Any] = {key: request.args.getlist(key) for key in FILTER_KEYS if key in request.args}
    return jsonify({"players": [player_json(p) | {"pulkas": circle.pulkas_of(p.id)} for p in shown],
                    "next": None if following is None else url_for(".players", **query, page=following)})


@bp.get("/players/<player>/stats")
@needs(Need.ACCOUNT)
def player_stats(player: str) -> ResponseReturnValue:
    circle, page = player_service.of_player(store().players, me(), player, _filter())
    return jsonify(stats_json(page.stats, circle.name_of))


@bp.patch("/players/<player>")
@needs(Need.ACCOUNT)  # the account's own players only, as the use case decides
@idempotent
def rename_player(player: str) -> ResponseReturnValue:
    command = Rename(player, read_name(json_body().get("name")))
    return write(lambda unit: player_service.rename(unit.players, me(), command),
                 lambda renamed: json_answer(200, player_json(renamed)))


@bp.post("/players/<player>/merge")
@needs(Need.ACCOUNT)
@idempotent
def merge_player(player: str) -> ResponseReturnValue:
    into = json_body().get("into")
    command = Merge(player, into if isinstance(into, str) else "")
    return write(lambda unit: player_service.merge(unit.players, me(), command), lambda _: Answer(204))


@bp.delete("/players/<player>/merge")
@needs(Need.ACCOUNT)
@idempotent
def unmerge_player(player: str) -> ResponseReturnValue:
    return write(lambda unit: player_service.unmerge(unit.players, me(), Unmerge(player)), lambda _: Answer(204))


# This module's part of the API's document (openapi.py assembles the parts).
# docs/club.md §1: the same filters on every statistics call.
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
describe({
    "/api/v1/players": {"get": {
        "summary": "The caller's circle: the players of the pulkas it may read, with how many count, by name, a "
                   "page at a time",
        "parameters": FILTERS + [{"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1,
                                                                             "maximum": INT_MAX},
                                  "description": "the page's number, from 1 (`next` leads to the one after)"}],
        "responses": {"200": {"description": "the players", "content": {"application/json": {"schema": {
            "type": "object", "required": ["players", "next"], "properties": {
                "players": {"type": "array", "description": f"at most {PAGE_ROWS}, by name", "items": {
                    "type": "object", "required": ["id", "name", "pulkas"], "properties": {
                        "id": {"type": "string"}, "name": {"type": "string"},
                        "pulkas": {"type": "integer", "description": "how many count under the filters"}}}},
                "next": {"type": ["string", "null"],
                         "description": "the address (on this server) of the next page, with the same filters; "
                                        "null on the last page"}}}}}}} | errors(400)}},
    "/api/v1/players/{player}": {"parameters": [PLAYER_ID], "patch": {
        "summary": "Rename one of the account's players", "parameters": [IDEMPOTENCY_KEY],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["name"], "properties": {"name": NAME}}}}},
        "responses": {"200": {"description": "renamed"}} | errors(400, 404, 415, 422)}},
    "/api/v1/players/{player}/stats": {"parameters": [PLAYER_ID], "get": {
        "summary": "A player's statistics over the pulkas that count (docs/club.md §2)", "parameters": FILTERS,
        "responses": {"200": {"description": "the stats object"}} | errors(404)}},
    "/api/v1/players/{player}/merge": {"parameters": [PLAYER_ID], "post": {
        "summary": "Merge the player into another of the account's (`into`: his id): one player entered twice",
        "parameters": [IDEMPOTENCY_KEY], "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["into"], "properties": {"into": {"type": "string"}}}}}},
        "responses": {"204": {"description": "merged"}} | errors(400, 404, 415, 422)},
        "delete": {"summary": "Undo the player's merge", "parameters": [IDEMPOTENCY_KEY],
                   "responses": {"204": {"description": "undone"}} | errors(400, 404, 422)}},
})
