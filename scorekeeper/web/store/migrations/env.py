"""Alembic environment: the engine comes from the app (config.attributes), never from an ini file."""

from alembic import context
from sqlalchemy import create_engine

from scorekeeper.web.store.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    engine = config.attributes.get("engine")
    if engine is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # SQLite alters a table by copying it and dropping the old one, which the foreign keys of
            # the rows that point at it would refuse (the pragma must be set outside a transaction).
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=sqlite)
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported: run `scorekeeper db upgrade`")
run()
