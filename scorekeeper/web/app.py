"""The app factory: configuration, the database, the blueprints, the one table of errors."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from ..resources import STATIC_DIR, TEMPLATES_DIR
from . import api, errors, pages
from .cache import Busy, Gate, VersionCache
from .db import Database
from .presenters import FILTERS, busy, weight
from .repository import Repository


def _secret_key(instance: Path) -> str:
    path = instance / "secret_key"
    if not path.exists():
        # Exclusive create: two workers starting at once still agree on one key.
        try:
            with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
                handle.write(secrets.token_hex(32))
        except FileExistsError:
            pass
    return path.read_text().strip()


def create_app(config: dict[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Configuration: `config`, else the environment (DATABASE_URL, FLASK_SECRET_KEY, FLASK_*),
    else an SQLite file and a generated secret key in the instance folder."""
    app = Flask(__name__, instance_path=instance_path or os.environ.get("SCOREKEEPER_INSTANCE") or None,
                instance_relative_config=True, template_folder=TEMPLATES_DIR,
                static_folder=STATIC_DIR)
    app.config.from_prefixed_env()
    if os.environ.get("DATABASE_URL"):
        app.config["DATABASE_URL"] = os.environ["DATABASE_URL"]
    if os.environ.get("SCOREKEEPER_CACHE_MB"):
        app.config["CACHE_MB"] = float(os.environ["SCOREKEEPER_CACHE_MB"])
    app.config.update(config or {})
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a pulka lasts an evening; a form may sit open for hours
    app.config.setdefault("MAX_CONTENT_LENGTH", 2 * 1024 * 1024)
    app.config.setdefault("CACHE_MB", 64)
    app.config.setdefault("PDF_RENDERERS", 2)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    app.config.setdefault("DATABASE_URL", f"sqlite:///{instance / 'scorekeeper.sqlite'}")

    database = Database(app.config["DATABASE_URL"])
    if app.config.get("MIGRATE_ON_START", True):
        database.upgrade()
    # One budget in bytes for the replayed pulkas and what is shown of them, least recently used out first.
    cache = VersionCache(int(app.config["CACHE_MB"] * 2**20), weight)
    repository = Repository(database)
    repository.cache = cache.section("pulkas")
    app.extensions["scorekeeper"] = repository
    app.extensions["scorekeeper.presenters"] = cache.section("presenters")
    # PDFs render in PDF_RENDERERS worker processes, as many more requests may wait for one, and any beyond
    # are answered 503 with Retry-After: so PDFs hold at most four of waitress's eight threads, never all.
    app.extensions["scorekeeper.pdf"] = Gate(app.config["PDF_RENDERERS"])

    csrf = CSRFProtect(app)
    # The JSON API takes only application/json bodies for writes, which a cross-site form cannot send.
    csrf.exempt(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.jinja_env.filters.update(FILTERS)
    app.json.ensure_ascii = False
    app.json.sort_keys = False  # keep the pulka file's key order (whist, tricks) as entered
    errors.register(app)
    app.register_error_handler(Busy, busy)
    return app


def serve(app: Flask, host: str = "127.0.0.1", port: int = 5000, threads: int = 8) -> None:
    """The production server (waitress)."""
    from waitress import serve as waitress_serve

    waitress_serve(app, host=host, port=port, threads=threads, ident="scorekeeper")
