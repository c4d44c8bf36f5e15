"""The database: engine, sessions, and Alembic migrations applied in code."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from sqlalchemy import Engine, create_engine, event, exc, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"


class Unavailable(Exception):
    """The database or the instance folder cannot be used: one line for whoever started the server or the
    command, instead of a traceback."""


def normalize_url(url: str) -> str:
    """Accept the usual postgres:// and postgresql:// forms and use psycopg 3 for them."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def safe_url(url: str) -> str:
    """The URL to show a person: never the password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except exc.ArgumentError:
        return url  # not a URL at all, so there is no password to find in it


def reason(error: BaseException) -> str:
    """What went wrong, in the driver's or the system's words, on one line."""
    if isinstance(error, exc.DBAPIError) and error.orig is not None:
        error = error.orig
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    if isinstance(error, exc.ArgumentError):
        return f"{error} (a URL is sqlite:///PATH or postgresql://USER@HOST/DATABASE)"
    return " ".join(line.strip() for line in str(error).splitlines() if line.strip()) or type(error).__name__


# Why a database refuses a write for a while, whatever the write was; the transaction was rolled back, so
# nothing was saved. SQLite's primary result codes (https://sqlite.org/rescode.html): busy and locked (past
# the busy timeout), read-only, an I/O error, full, a file it cannot open.
SQLITE_CANNOT_SAVE = {5, 6, 8, 10, 13, 14}
# PostgreSQL's SQLSTATEs: the classes of connection exceptions (08) and insufficient resources (53: disk
# full, out of memory, too many connections), a read-only transaction (a read-only database, a standby),
# a lock not had in lock_timeout, and the server shutting down or not yet up.
POSTGRESQL_CANNOT_SAVE_CLASSES = ("08", "53")
POSTGRESQL_CANNOT_SAVE = {"25006", "55P03", "57P01", "57P02", "57P03"}


def cannot_save(error: BaseException) -> bool:
    """Whether `error` is the database refusing for want of storage, of a lock or of a connection (a full
    disk, a read-only database, a lock held too long, a lost connection), not for what was asked."""
    if isinstance(error, exc.TimeoutError):
        return True  # no pooled connection came free in time
    if not isinstance(error, exc.DBAPIError):
        return False
    if error.connection_invalidated:
        return True  # the connection broke: SQLAlchemy threw it away
    code = getattr(error.orig, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in SQLITE_CANNOT_SAVE  # the extended codes keep the primary one in the low byte
    state = getattr(error.orig, "sqlstate", None)
    if state is not None:
        return state[:2] in POSTGRESQL_CANNOT_SAVE_CLASSES or state in POSTGRESQL_CANNOT_SAVE
    # No code from either driver: psycopg's own failure to reach or keep the server.
    return isinstance(error, exc.OperationalError)


@contextmanager
def noting() -> Iterator[None]:
    """A write that only notes something (when a link was last used, log-in failures to forget) is left
    out while the database cannot save (`cannot_save`), so that reading and logging in still work."""
    try:
        yield
    except exc.SQLAlchemyError as error:
        if not cannot_save(error):
            raise


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL; None for another database, an in-memory one, or a URI SQLite opens itself."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:") or "uri" in parsed.query:
        return None
    return Path(parsed.database)


def private_file(path: Path) -> None:
    """Create `path` readable by its owner alone (0600), or take an existing one back to that: a database
    file or a secret key is nobody else's business. Raises OSError when the file cannot be written."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    status = path.stat()
    # Another user's file that we may write (a shared group) stays as its owner set it.
    if status.st_mode & 0o077 and status.st_uid == os.geteuid():
        os.chmod(path, 0o600)


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        # hide_parameters: an error's line never shows the values sent (a password hash, a token's).
        engine = create_engine(url, connect_args={"timeout": 15}, hide_parameters=True)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            # WAL lets the sheet be read while a deal is being written.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    engine = create_engine(url, pool_size=10, max_overflow=10, hide_parameters=True)
    _ping_after_idle(engine)
    return engine


# A pooled connection that sat unused this long is tested before use (the server may have restarted
# meanwhile). One in steady use is not: a watching phone's request makes two or three queries, and a
# ping before each would double them.
IDLE_PING_SECONDS = 10.0


def _ping_after_idle(engine: Engine) -> None:
    @event.listens_for(engine, "checkin")
    def _idle_from(dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        if time.monotonic() - record.info.get("idle_since", 0.0) < IDLE_PING_SECONDS:
            return
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("SELECT 1")
            dbapi_connection.rollback()  # the ping began a transaction: the connection goes out without one
        except Exception as error:  # noqa: BLE001 - any failure: the pool replaces the connection
            raise exc.DisconnectionError() from error
        finally:
            cursor.close()


def alembic_config(engine: Engine | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if engine is not None:
        config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to `revision`; a fresh database gets every table."""
    command.upgrade(alembic_config(engine), revision)


class Database:
    """One per app: the engine and a session factory (writes use `Session.begin()`: one transaction)."""

    def __init__(self, url: str):
        self.url = normalize_url(url)
        with self.reporting():
            self.engine = make_engine(self.url)
        # Statements sent, by the thread that sent them: what a request cost (server.Costs counts them).
        self._sent = threading.local()
        event.listen(self.engine, "before_cursor_execute", self._count)
        self.Session: sessionmaker[Session] = sessionmaker(self.engine, expire_on_commit=False)
        # For single SELECTs: on PostgreSQL without BEGIN and ROLLBACK around them, two round trips fewer
        # for each of the few queries every request makes (SQLite begins nothing for a SELECT anyway).
        self.reads = self.engine if self.engine.dialect.name == "sqlite" else \
            self.engine.execution_options(isolation_level="AUTOCOMMIT")

    @contextmanager
    def reporting(self, doing: str = "open") -> Iterator[None]:
        """Turn what the driver, the file system or Alembic raise into one line naming this database."""
        try:
            yield
        except (exc.SQLAlchemyError, sqlite3.Error, CommandError, OSError, ImportError) as error:
            raise Unavailable(f"cannot {doing} the database at {safe_url(self.url)}: {reason(error)}") from error

    def _count(self, *_: Any) -> None:
        self._sent.count = getattr(self._sent, "count", 0) + 1

    def statements(self) -> int:
        """How many statements this thread has sent to the database."""
        return int(getattr(self._sent, "count", 0))

    def upgrade(self) -> None:
        upgrade(self.engine)

    def private(self) -> None:
        """An SQLite database's files readable by their owner alone; the database file created so, before
        SQLite would create it readable by everybody (SQLite gives its -wal and -shm files the same mode)."""
        path = sqlite_path(self.url)
        if path is not None:
            private_file(path)
            for file in (Path(f"{path}-wal"), Path(f"{path}-shm")):
                if file.exists():
                    private_file(file)

    def open(self, migrate: bool = True) -> None:
        """Ready to serve, or Unavailable: the files private, the schema upgraded, and a write must be
        accepted, so that a read-only database stops the server at start rather than failing the first deal."""
        with self.reporting():
            self.private()
            if migrate:
                self.upgrade()
        with self.reporting("write to"), self.engine.connect() as connection:
            # Writes nothing, yet needs a write transaction: refused on a read-only file, a read-only
            # PostgreSQL transaction and a standby. Rolled back when the connection closes.
            connection.execute(text("UPDATE alembic_version SET version_num = version_num WHERE 1 = 0"))
