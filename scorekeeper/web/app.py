"""The app factory: configuration, the database, the blueprints, the one table of errors."""

from __future__ import annotations

import mimetypes
import os
import secrets
import signal
import socket
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request
from flask.sessions import SecureCookieSessionInterface
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.middleware.proxy_fix import ProxyFix

from ..resources import STATIC_DIR, TEMPLATES_DIR
from . import access, api, auth, errors, i18n, inputs, pages, shell
from .cache import Busy, Gate, VersionCache
from .db import Database, Unavailable, cannot_save, private_file, reason
from .domain import CannotSave
from .presenters import FILTERS, busy, weight
from .repository import Repository


mimetypes.add_type("application/manifest+json", ".webmanifest")


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
    app.config.setdefault("PERMANENT_SESSION_LIFETIME", timedelta(days=365))  # share links opened in a browser
    app.config.setdefault("SESSION_COOKIE_SAMESITE", "Lax")
    app.session_interface = SessionInterface()
    if hosts := os.environ.get("SCOREKEEPER_TRUSTED_HOSTS"):
        app.config.setdefault("TRUSTED_HOSTS", [host.strip() for host in hosts.split(",") if host.strip()])
    if proxies := int(os.environ.get("SCOREKEEPER_PROXIES", "0") or 0):
        # Behind a reverse proxy: the client's address (the login limit counts by it), scheme and host
        # come from its X-Forwarded-* headers, trusted for that many proxies and no more.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
    # Flask defines both keys (as None and 500 KB): a setdefault would do nothing.
    try:
        if app.config.get("MAX_CONTENT_LENGTH") is None:
            app.config["MAX_CONTENT_LENGTH"] = size(os.environ.get("SCOREKEEPER_MAX_UPLOAD", "2M"))
        app.config.setdefault("MAX_DEALS", int(os.environ.get("SCOREKEEPER_MAX_DEALS", "1000")))
    except ValueError:
        raise Unavailable("SCOREKEEPER_MAX_UPLOAD is a size such as 2M or 512K, and SCOREKEEPER_MAX_DEALS "
                          "a whole number") from None
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
    cache = VersionCache(int(app.config["CACHE_MB"] * 2**20), weight)
    app.extensions["scorekeeper"] = Repository(database, cache.section("pulkas"), app.config["MAX_DEALS"])
    app.extensions["scorekeeper.presenters"] = cache.section("presenters")
    # PDFs render in PDF_RENDERERS worker processes, as many more requests may wait for one, and any beyond
    # are answered 503 with Retry-After: so PDFs hold at most four of waitress's eight threads, never all.
    app.extensions["scorekeeper.pdf"] = Gate(app.config["PDF_RENDERERS"])

    inputs.init(app)  # first: its check runs before the access check looks anything up
    access.init(app)
    i18n.init(app)
    app.register_blueprint(auth.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(shell.bp)
    app.jinja_env.filters.update(FILTERS)
    app.json.ensure_ascii = False
    app.json.sort_keys = False  # keep the pulka file's key order (whist, tricks) as entered
    errors.register(app)
    app.register_error_handler(Busy, busy)
    app.after_request(_security_headers)
    app.register_error_handler(SQLAlchemyError, _database_refused)
    return app


# Scripts, styles, fonts and images from this server only, nothing inline (no injected markup can run),
# no page of this app inside another site's frame, and no address of a page leaked to another site.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def _security_headers(response):
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response



def _database_refused(error: SQLAlchemyError):
    """A database that refuses for a while (db.cannot_save: a full disk, a read-only database, a lock held
    too long, a lost connection) answers 503 cannot_save, as a page or as JSON: the transaction was rolled
    back, so nothing was saved, and the client may send the write again (with its idempotency key, safely).
    Handled here, by the exception's type, it is one place for every request, whichever query meets it: the
    access check's, a deal's, an account's. Any other database error is a bug: raised again, it is logged
    and answered 500."""
    if not cannot_save(error):
        raise error
    current_app.logger.warning("%s %s: the database refused: %s", request.method, request.path, reason(error))
    return errors.respond(CannotSave(reading=request.method in ("GET", "HEAD")))


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is marked Secure whenever the page came over HTTPS (behind a proxy too)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or request.is_secure


def serve(app: Flask, host: str = "127.0.0.1", port: int = 5000, threads: int = 8, workers: int = 1) -> None:
    """The production server: waitress, in `workers` processes sharing one listening socket.

    Each process keeps only caches keyed by pulka version and reads the rest from the database, so
    they need no coordination: the database decides what is true. Watching phones poll a cheap
    version check, so none of them holds a thread; connections are many, threads few.
    """
    from waitress import serve as waitress_serve

    options = {"threads": threads, "ident": "scorekeeper", "connection_limit": 1000}
    if workers <= 1:
        waitress_serve(app, host=host, port=port, **options)
        return
    listener = socket.create_server((host, port), backlog=2048)
    app.extensions["scorekeeper"].db.engine.dispose()  # no connection crosses a fork
    config, instance = dict(app.config), app.instance_path
    children: set[int] = set()
    stopping = False

    def start() -> None:
        pid = os.fork()
        if pid == 0:
            # Stopped like a single server: the loop ends, the connections close (SQLite's last one
            # moves its write-ahead log into the database file).
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            worker = create_app(config | {"MIGRATE_ON_START": False}, instance)
            try:
                waitress_serve(worker, sockets=[listener], **options)
            except SystemExit:
                pass
            finally:
                worker.extensions["scorekeeper"].db.engine.dispose()
                os._exit(0)
        children.add(pid)

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in children:
            os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for _ in range(workers):
        start()
    while children:
        pid, _status = os.wait()
        children.discard(pid)
        if not stopping:
            start()  # a worker that died is replaced; the others kept serving
