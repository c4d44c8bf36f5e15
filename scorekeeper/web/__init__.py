"""The web app at the table: `flask --app scorekeeper.web run`, or `scorekeeper serve` (waitress).

Layers as folders, each with one import rule:
    domain/    what the web layer knows without HTTP or a database
    services/  the use cases, one module per feature, on repository Protocols
    store/     the database: the only package that imports SQLAlchemy or Alembic
    views/     what a page or an answer shows, built once per pulka version
    edge/      access, input, errors, languages, forms, idempotency keys: where HTTP meets the rest
    pages/     the HTML pages (one blueprint), a module per feature
    api/       the JSON API (one blueprint), a module per feature, and its OpenAPI document
A feature has a module of the same name in each layer it touches. app.py is the factory, server.py the
process supervisor; importing this package loads neither until asked for.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "serve":
        from .server import serve

        return serve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
