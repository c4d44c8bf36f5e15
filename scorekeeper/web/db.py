"""The database: engine, sessions, and Alembic migrations applied in code."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"


def normalize_url(url: str) -> str:
    """Accept the usual postgres:// and postgresql:// forms and use psycopg 3 for them."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 15})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record) -> None:
            # WAL lets the sheet be read while a deal is being written.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)


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
        self.engine = make_engine(self.url)
        self.Session: sessionmaker[Session] = sessionmaker(self.engine, expire_on_commit=False)

    def upgrade(self) -> None:
        upgrade(self.engine)
