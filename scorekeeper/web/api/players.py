"""Players across pulkas (docs/club.md §1-2): the circle, a player's statistics, renaming and merging."""

from __future__ import annotations

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from ...engine import Filter
from ...files.statsfile import stats_json
from ..domain.idempotency import Answer
from ..domain.players import Merge, Player, Rename, Unmerge, read_filter, read_name
from ..edge.access import Need, needs
from ..edge.caller import me
from ..edge.context import store
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
    circle = player_service.circle(store().players, me(), _filter())
    return jsonify({"players": [player_json(p) | {"pulkas": circle.pulkas_of(p.id)} for p in circle.players]})


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
        "summary": "The caller's circle: the players of the pulkas it may read, with how many count",
        "parameters": FILTERS, "responses": {"200": {"description": "players: id, name, pulkas"}}}},
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
