"""The app factory: configuration, the database, the edge, the blueprints (server.py serves it)."""

from __future__ import annotations

import mimetypes
import os
import secrets
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.middleware.proxy_fix import ProxyFix

from ..resources import STATIC_DIR, TEMPLATES_DIR
from . import api, pages
from .edge import access, errors, i18n, inputs, security, shell
from .domain.limits import MAX_ACCOUNT_DEALS, MAX_PULKAS, AccountLimits
from .edge.presenting import busy
from .store import Store
from .store.cache import VersionCache
from .store.db import Database, Unavailable, private_file, reason
from .views.gate import Busy, Gate
from .views.pulkas import weight


mimetypes.add_type("application/manifest+json", ".webmanifest")

SESSION_DEFAULTS: dict[str, Any] = {
    # A phone at the table stays signed in, and keeps the share links it opened; the server ends the session
    # at log-out (access.sign_out), so a copied cookie does not outlive it.
    "PERMANENT_SESSION_LIFETIME": timedelta(days=365),
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
}


class CompiledTemplates(BytecodeCache):
    """The templates' compiled code, kept for the process: every app of it loads the same templates with the
    same options, so a template is compiled once per process rather than once per app (the tests make an
    app for each test; a server makes one). Jinja checks the source's checksum before it uses the code."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if (code := self._code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()


def size(text: str) -> int:
    """Bytes from "2097152", "512K" or "2M" (binary kilo- and megabytes)."""
    text = text.strip().upper().removesuffix("B").removesuffix("I")
    factor = {"K": 2**10, "M": 2**20}.get(text[-1:], 1)
    return int(text.rstrip("KM")) * factor


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
    if os.environ.get("SCOREKEEPER_CACHE_MB"):
        app.config["CACHE_MB"] = float(os.environ["SCOREKEEPER_CACHE_MB"])
    app.config.update(config or {})
    app.config.setdefault("REGISTRATION", os.environ.get("SCOREKEEPER_REGISTRATION", "open"))
    if app.config["REGISTRATION"] not in ("open", "closed"):
        raise Unavailable("SCOREKEEPER_REGISTRATION is open or closed")
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a pulka lasts an evening; a form may sit open for hours
    # Flask's own config defines these keys (SameSite None, 31 days): a setdefault would keep Flask's. Ours
    # hold unless the caller's config or a FLASK_* variable names them.
    given = set(config or {}) | {name.removeprefix("FLASK_") for name in os.environ if name.startswith("FLASK_")}
    for name, value in SESSION_DEFAULTS.items():
        if name not in given:
            app.config[name] = value
    if hosts := os.environ.get("SCOREKEEPER_TRUSTED_HOSTS"):
        app.config.setdefault("TRUSTED_HOSTS", [host.strip() for host in hosts.split(",") if host.strip()])
    try:
        app.config.setdefault("PROXIES", int(os.environ.get("SCOREKEEPER_PROXIES", "0") or 0))
    except ValueError:
        raise Unavailable("SCOREKEEPER_PROXIES is the number of proxies in front, such as 1") from None
    if proxies := app.config["PROXIES"]:
        # Behind a reverse proxy: the client's address (the login limit counts by it), scheme and host
        # come from its X-Forwarded-* headers, trusted for that many proxies and no more.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]
    # Flask defines both keys (as None and 500 KB): a setdefault would do nothing.
    try:
        if app.config.get("MAX_CONTENT_LENGTH") is None:
            app.config["MAX_CONTENT_LENGTH"] = size(os.environ.get("SCOREKEEPER_MAX_UPLOAD", "2M"))
        app.config.setdefault("MAX_DEALS", int(os.environ.get("SCOREKEEPER_MAX_DEALS", "1000")))
        app.config.setdefault("MAX_PULKAS", int(os.environ.get("SCOREKEEPER_MAX_PULKAS", MAX_PULKAS)))
        app.config.setdefault("MAX_ACCOUNT_DEALS", int(os.environ.get("SCOREKEEPER_MAX_ACCOUNT_DEALS", MAX_ACCOUNT_DEALS)))
    except ValueError:
        raise Unavailable("SCOREKEEPER_MAX_UPLOAD is a size such as 2M or 512K, and SCOREKEEPER_MAX_DEALS, "
                          "SCOREKEEPER_MAX_PULKAS and SCOREKEEPER_MAX_ACCOUNT_DEALS whole numbers") from None
    app.config["MAX_FORM_MEMORY_SIZE"] = app.config["MAX_CONTENT_LENGTH"]  # a pasted pulka file is a form field
    app.config.setdefault("CACHE_MB", 64)
    app.config.setdefault("PDF_RENDERERS", 2)
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
    # One budget in bytes for the replayed pulkas and what is shown of them, least recently used out first.
    cache: VersionCache[Any] = VersionCache(int(app.config["CACHE_MB"] * 2**20), weight)
    limits = AccountLimits(app.config["MAX_PULKAS"], app.config["MAX_ACCOUNT_DEALS"])
    app.extensions["scorekeeper"] = Store(database, cache.section("pulkas"), app.config["MAX_DEALS"], limits)
    app.extensions["scorekeeper.presenters"] = cache.section("presenters")
    # PDFs render in PDF_RENDERERS worker processes, as many more requests may wait for one, and any beyond
    # are answered 503 with Retry-After: so PDFs hold at most four of waitress's eight threads, never all.
    app.extensions["scorekeeper.pdf"] = Gate(app.config["PDF_RENDERERS"])

    inputs.init(app)  # first: its check runs before the access check looks anything up
    access.init(app)
    i18n.init(app)
    app.jinja_env.bytecode_cache = COMPILED
    security.init(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(shell.bp)
    errors.register(app)
    app.register_error_handler(Busy, busy)
    return app
