"""The web app at the table: `flask --app scorekeeper.web run`, or `scorekeeper serve` (waitress)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException

from .db import Database
from .errors import Refused
from .service import Store

PACKAGE = Path(__file__).resolve().parent.parent


def resource_dir(name: str) -> str:
    """templates/ and static/: inside the package in an installed wheel, beside it in a checkout."""
    installed = PACKAGE / name
    return str(installed if installed.is_dir() else PACKAGE.parent / name)


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
                instance_relative_config=True, template_folder=resource_dir("templates"),
                static_folder=resource_dir("static"))
    app.config.from_prefixed_env()
    if os.environ.get("DATABASE_URL"):
        app.config["DATABASE_URL"] = os.environ["DATABASE_URL"]
    app.config.update(config or {})
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a pulka lasts an evening; a form may sit open for hours
    app.config.setdefault("MAX_CONTENT_LENGTH", 2 * 1024 * 1024)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    app.config.setdefault("DATABASE_URL", f"sqlite:///{instance / 'scorekeeper.sqlite'}")

    database = Database(app.config["DATABASE_URL"])
    if app.config.get("MIGRATE_ON_START", True):
        database.upgrade()
    app.extensions["scorekeeper"] = Store(database)

    from . import api, pages, views

    csrf = CSRFProtect(app)
    # The JSON API takes only application/json bodies for writes, which a cross-site form cannot send.
    csrf.exempt(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.jinja_env.filters.update(views.FILTERS)
    app.json.ensure_ascii = False
    app.json.sort_keys = False  # keep the pulka file's key order (whist, tricks) as entered
    _error_pages(app)
    return app


def store(app: Flask | None = None) -> Store:
    from flask import current_app

    return (app or current_app).extensions["scorekeeper"]


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _error_pages(app: Flask) -> None:
    titles = {400: "Bad request", 404: "Not found", 405: "Not allowed", 409: "Conflict", 413: "Too large",
              415: "Not JSON", 422: "Refused", 500: "Something went wrong"}

    def page(status: int, code: str, message: str):
        if _wants_json():
            return jsonify({"error": {"code": code, "field": "", "deal": None, "message": message}}), status
        return render_template("error.html", status=status, title=titles.get(status, "Error"), message=message), status

    @app.errorhandler(Refused)
    def refused(error: Refused):
        if _wants_json():
            return jsonify(error.to_json()), error.status
        return render_template("error.html", status=error.status, title=titles.get(error.status, "Error"),
                               message=error.message), error.status

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        return page(400, "csrf", "The form had expired or came from elsewhere. Go back, reload the page and try again.")

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        messages = {404: "There is no such page here.", 405: "This address does not take that request."}
        return page(error.code or 500, error.name.lower().replace(" ", "_"),
                    messages.get(error.code, error.description or error.name))

    @app.errorhandler(500)
    def server_error(error: Exception):
        # Every write is one transaction, rolled back when it fails: nothing half-written remains.
        return page(500, "server_error", "Something went wrong on our side. Nothing was saved; please try again.")


def serve(app: Flask, host: str = "127.0.0.1", port: int = 5000, threads: int = 8) -> None:
    """The production server (waitress)."""
    from waitress import serve as waitress_serve

    waitress_serve(app, host=host, port=port, threads=threads, ident="scorekeeper")
