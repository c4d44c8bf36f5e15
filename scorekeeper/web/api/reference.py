"""What a client reads before it writes: the OpenAPI document, the rule parameters, the circle's players."""

from __future__ import annotations

from flask import jsonify
from flask.typing import ResponseReturnValue

from ...engine import PARAMETERS, PRESETS
from ...words import literal
from ..edge import i18n
from ..edge.access import me
from ..edge.context import store
from ..services import pulkas as pulka_service
from .blueprint import bp
from .openapi import document


@bp.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    return jsonify(document())


@bp.get("/parameters")
def parameters() -> ResponseReturnValue:
    return jsonify({
        "parameters": [{"name": p.name, "kind": p.kind.value, "title": i18n.say(p.title or literal(p.name)),
                        "meaning": i18n.say(p.meaning), "domain": i18n.say(p.domain)} for p in PARAMETERS],
        "presets": {preset.value: rules.to_dict() for preset, rules in PRESETS.items()},
    })


@bp.get("/players")
def players() -> ResponseReturnValue:
    return jsonify({"players": pulka_service.player_names(store().pulkas, me())})
