"""The OpenAPI 3.1 description of /api/v1, served at /api/v1/openapi.json. Each module of api/ describes
its own paths (and the schemas only it uses) beside its routes, with `describe`; the document is assembled
from those parts and the shared ones (schema.py) once per app, the first time it is asked for."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from ... import __version__
from ..edge.access import Need, declared
from .schema import SHARED, errors

_PATHS: dict[str, dict[str, Any]] = {}
_SCHEMAS: dict[str, Any] = {}


def describe(paths: dict[str, dict[str, Any]], schemas: dict[str, Any] | None = None) -> None:
    """A module's part of the document: its paths, and the schemas it alone uses."""
    schemas = schemas or {}
    twice = paths.keys() & _PATHS.keys() | schemas.keys() & (_SCHEMAS.keys() | SHARED.keys())
    assert not twice, f"described twice: {sorted(twice)}"
    _PATHS.update(paths)
    _SCHEMAS.update(schemas)


def document(app: Flask) -> dict[str, Any]:
    made: dict[str, Any] | None = app.extensions.get("scorekeeper.openapi")
    if made is None:
        made = app.extensions["scorekeeper.openapi"] = _assembled(app)
    return made


def _assembled(app: Flask) -> dict[str, Any]:
    # What needs no credentials is what its route says is anyone's (the rest answers 401 without them).
    anyone = {(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method.lower())
              for rule in app.url_map.iter_rules() for method in rule.methods or ()
              if (access := declared(app.view_functions[rule.endpoint])) and access.need is Need.ANYONE}
    paths = {path: {method: operation if method == "parameters" else _operation(operation, (path, method) in anyone)
                    for method, operation in operations.items()} for path, operations in _PATHS.items()}
    return {
        "openapi": "3.1.0",
        "info": {"title": "scorekeeper", "version": __version__,
                 "description": "The electronic pulya for Preferans. Every write either replays with the "
                                "engine and is stored in one transaction, or is refused with a 4xx whose body "
                                "carries the engine's problem code; a refused request stores nothing."},
        "paths": paths,
        "components": {"schemas": SHARED | _SCHEMAS, "securitySchemes": {"bearer": {
            "type": "http", "scheme": "bearer",
            "description": "an account's token (POST /api/v1/tokens), or a share link's token (its pulka only)"}}},
        "security": [{"bearer": []}],
    }


def _operation(operation: dict[str, Any], open_to_anyone: bool) -> dict[str, Any]:
    responses = operation["responses"] if open_to_anyone else operation["responses"] | errors(401, 403)
    # Any request may be malformed (inputs.check_text: a NUL in its path, query or token), and may meet
    # a database that cannot save (or be reached) for a while.
    return operation | {"responses": responses | errors(400, 503)} | ({"security": []} if open_to_anyone else {})
