"""The web app at the table: `flask --app scorekeeper.web run`, or `scorekeeper serve` (waitress).

A request travels routes (pages.py, api.py: parse the input) → services.py (one use case, one
transaction, domain errors) → repository.py (rows ↔ engine objects), and back through
presenters.py (what a page shows, built once per pulka version); errors.py turns refusals into
HTTP. Importing the services never imports Flask: the factory (app.py) loads when asked for.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("create_app", "serve"):
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
