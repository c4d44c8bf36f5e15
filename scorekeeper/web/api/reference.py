"""What a client reads before it writes: the OpenAPI document and the rule parameters."""

from __future__ import annotations

from flask import current_app, jsonify
from flask.typing import ResponseReturnValue

from ...engine import PARAMETERS, PRESETS
from ...i18n.words import literal
from ..edge import i18n
from ..edge.access import Need, needs
from .blueprint import bp
from .openapi import describe, document


@bp.get("/openapi.json")
@needs(Need.ANYONE)
def openapi() -> ResponseReturnValue:
    return jsonify(document(current_app))


@bp.get("/parameters")
@needs(Need.ACCOUNT)
def parameters() -> ResponseReturnValue:
    return jsonify({
        "parameters": [{"name": p.name, "kind": p.kind.value, "title": i18n.say(p.title or literal(p.name)),
                        "meaning": i18n.say(p.meaning), "domain": i18n.say(p.domain)} for p in PARAMETERS],
        "presets": {preset.value: rules.to_dict() for preset, rules in PRESETS.items()},
    })


# This module's part of the API's document (openapi.py assembles the parts).
describe({
    "/api/v1/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI"}}}},
    "/api/v1/parameters": {"get": {"summary": "Every docs/rules.md §14 parameter and the three presets",
                                   "responses": {"200": {"description": "parameters and presets"}}}},
})
