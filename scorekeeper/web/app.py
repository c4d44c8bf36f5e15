"""The app factory: configuration, the database, the blueprints, the one table of errors."""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from ..resources import STATIC_DIR, TEMPLATES_DIR
from . import api, errors, pages
from .cache import VersionCache
from .db import Database, Unavailable, private_file, reason
from .presenters import FILTERS
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
    private_file(path)  # a key written before keys were private
    return path.read_text().strip()


def instance_folder() -> Path:
    """The instance folder create_app() uses when not told: SCOREKEEPER_INSTANCE, else Flask's default."""
    return Path(os.environ.get("SCOREKEEPER_INSTANCE") or Flask(__name__).instance_path)


def instance_database_url(instance: Path) -> str:
    return f"sqlite:///{instance / 'scorekeeper.sqlite'}"


def prepare_instance(instance: Path) -> None:
    """Create the folder private (0700: it holds the secret key and, by default, every pulka) and make
    sure it is writable now, rather than have the first deal fail."""
    try:
        instance.mkdir(mode=0o700, parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=instance).close()
    except OSError as error:
        raise Unavailable(f"cannot write the instance folder {instance}: {reason(error)}") from error


def create_app(config: dict[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Configuration: `config`, else the environment (DATABASE_URL, FLASK_SECRET_KEY, FLASK_*),
    else an SQLite file and a generated secret key in the instance folder. Raises db.Unavailable
    when the instance folder or the database cannot be written."""
    app = Flask(__name__, instance_path=instance_path or os.environ.get("SCOREKEEPER_INSTANCE") or None,
                instance_relative_config=True, template_folder=TEMPLATES_DIR,
                static_folder=STATIC_DIR)
    app.config.from_prefixed_env()
    if os.environ.get("DATABASE_URL"):
        app.config["DATABASE_URL"] = os.environ["DATABASE_URL"]
    app.config.update(config or {})
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a pulka lasts an evening; a form may sit open for hours
    app.config.setdefault("MAX_CONTENT_LENGTH", 2 * 1024 * 1024)
    instance = Path(app.instance_path)
    prepare_instance(instance)
    if not app.config.get("SECRET_KEY"):
        try:
            app.config["SECRET_KEY"] = _secret_key(instance)
        except OSError as error:
            raise Unavailable(f"cannot write the secret key in {instance}: {reason(error)}") from error
    app.config.setdefault("DATABASE_URL", instance_database_url(instance))

    # Unavailable (one line, for the command to print) when the database cannot be opened or written.
    database = Database(app.config["DATABASE_URL"])
    database.open(migrate=app.config.get("MIGRATE_ON_START", True))
    app.extensions["scorekeeper"] = Repository(database)
    app.extensions["scorekeeper.presenters"] = VersionCache(128)

    csrf = CSRFProtect(app)
    # The JSON API takes only application/json bodies for writes, which a cross-site form cannot send.
    csrf.exempt(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.jinja_env.filters.update(FILTERS)
    app.json.ensure_ascii = False
    app.json.sort_keys = False  # keep the pulka file's key order (whist, tricks) as entered
    errors.register(app)
    return app


def serve(app: Flask, host: str = "127.0.0.1", port: int = 5000, threads: int = 8) -> None:
    """The production server (waitress)."""
    from waitress import serve as waitress_serve

    waitress_serve(app, host=host, port=port, threads=threads, ident="scorekeeper")
