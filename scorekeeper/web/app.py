"""The app factory: the settings (settings.py) wired to the database, the edge, the blueprints (server.py serves it)."""

from __future__ import annotations

import mimetypes
import os
import secrets
import tempfile
import weakref
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.middleware.proxy_fix import ProxyFix

from ..resources import STATIC_DIR, TEMPLATES_DIR
from . import api, pages
from .edge import access, errors, i18n, inputs, security, shell
from .edge.presenting import busy
from .settings import AppSettings
from .store import Store
from .store.cache import VersionCache
from .store.db import Database, Unavailable, private_file, reason
from .views.gate import Busy, Turns
from .views.pulkas import weight


mimetypes.add_type("application/manifest+json", ".webmanifest")

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


class App(Flask):
    """Flask, remembering which of the views and hooks are synchronous: it asks `inspect` again for each one
    it calls, seven or more times a request, and a watching phone's version check is little more. Weakly: a
    function made for one request (after_this_request) is forgotten with it."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._synchronous: weakref.WeakSet[Callable[..., Any]] = weakref.WeakSet()

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if func in self._synchronous:
            return func
        made = super().ensure_sync(func)
        if made is func:
            with suppress(TypeError):  # one that cannot be referred to weakly is asked about each time
                self._synchronous.add(func)
        return made


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
    """Configuration: `config`, else the environment (DATABASE_URL, FLASK_SECRET_KEY, FLASK_*, SCOREKEEPER_*:
    settings.AppSettings), else an SQLite file and a generated secret key in the instance folder. Raises
    db.Unavailable when a setting cannot be read, or the instance folder or the database cannot be written."""
    settings = AppSettings.read(os.environ, config, instance_path)
    app = App(__name__, instance_path=settings.instance_path, instance_relative_config=True,
                template_folder=TEMPLATES_DIR, static_folder=STATIC_DIR)
    app.config.update(settings.config)
    if proxies := settings.proxies:
        # Behind a reverse proxy: the client's address (the login limit counts by it), scheme and host
        # come from its X-Forwarded-* headers, trusted for that many proxies and no more.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]
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
    database.open(migrate=settings.migrate)
    # One budget in bytes for the replayed pulkas and what is shown of them, least recently used out first.
    cache: VersionCache[Any] = VersionCache(int(settings.cache_mb * 2**20), weight)
    app.extensions["scorekeeper"] = Store(database, cache.section("pulkas"))
    app.extensions["scorekeeper.limits"] = settings.limits  # the use cases keep them (edge.context.limits)
    app.extensions["scorekeeper.presenters"] = cache.section("presenters")
    # PDFs render in PDF_RENDERERS worker processes, as many more requests may wait for one, and any beyond
    # are answered 503 with Retry-After: so PDFs hold at most four of waitress's eight threads, never all.
    app.extensions["scorekeeper.pdf"] = Turns(settings.pdf_renderers)

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
