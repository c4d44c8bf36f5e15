"""Players across pulkas (CLUB.md §1-2): the circle, a player's statistics, renaming and merging."""

from __future__ import annotations

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from ...engine import Filter
from ..domain.players import Player, read_filter, read_name
from ..edge.access import Need, needs
from ..edge.caller import me
from ..edge.context import store
from ..edge.inputs import json_body
from ..services import players as player_service
from .blueprint import bp


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
    return jsonify(page.stats.to_json(circle.name_of))


@bp.patch("/players/<player>")
@needs(Need.ACCOUNT)  # the account's own players only, as the use case decides
def rename_player(player: str) -> ResponseReturnValue:
    name = read_name(json_body().get("name"))
    return jsonify(player_json(player_service.rename(store().players, me(), player, name)))


@bp.post("/players/<player>/merge")
@needs(Need.ACCOUNT)
def merge_player(player: str) -> ResponseReturnValue:
    into = json_body().get("into")
    player_service.merge(store().players, me(), player, into if isinstance(into, str) else "")
    return "", 204


@bp.delete("/players/<player>/merge")
@needs(Need.ACCOUNT)
def unmerge_player(player: str) -> ResponseReturnValue:
    player_service.unmerge(store().players, me(), player)
    return "", 204
