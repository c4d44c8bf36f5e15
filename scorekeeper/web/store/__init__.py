"""The store: the only package that imports SQLAlchemy or Alembic.

`db` opens the database and migrates it; `models` are its rows, never engine objects; a module per
aggregate implements a repository Protocol of the services, and `unit.Repositories` lists one of each, which
`Store` holds; `unit.Unit` is the unit of work of a write (one transaction, `transaction`, those repositories
bound to it, and its idempotency key, `keys`); `rows` and
`deals` turn rows into domain and engine objects; `watch` is what a process knows of the database without
asking it; `backup` and `restore` write and restore the whole database; `cache` keeps this process's
pulkas by version.
"""

from __future__ import annotations

from datetime import datetime

from ..domain.pulkas import Pulka, Stamp
from .cache import Section
from .db import Database, sqlite_path
from .unit import Repositories, Unit
from .watch import CounterCheck, Listener, Watch, access_generation, lately_written


class Store(Repositories):
    """The repositories of one database (unit.Repositories), as the app (or a command, or a test) uses them."""

    def __init__(self, db: Database, cache: Section[Pulka] | None = None):
        # The watch trusts nothing until `watch_changes()`: every version and access is asked for.
        super().__init__(db, Watch(), cache)
        self.listener: Listener | None = None

    def unit(self) -> Unit:
        """A unit of work: one write's transaction, and its idempotency key (services.unit)."""
        return Unit(self)

    def watch_changes(self) -> None:
        """From now on this process learns of every write from the database itself (store.watch), and answers
        version checks and access from memory while it may trust it. A server process calls it once."""
        if self.db.engine.dialect.name == "postgresql":
            self.listener = Listener(self.db.url, self.watch)
            self.listener.start()
            return
        path = sqlite_path(self.db.url)
        if path is None:
            return  # an in-memory database: one process, nothing to watch

        def read(since: datetime) -> list[tuple[str, Stamp]]:
            with self.db.reads.connect() as connection:
                return lately_written(connection, since, self.watch.stamps)

        def generation() -> int:
            with self.db.reads.connect() as connection:
                return access_generation(connection)

        self.watch.refresh = CounterCheck(str(path), read, generation, self.watch)

    def close(self) -> None:
        if self.listener is not None:
            self.listener.stop()
        self.db.engine.dispose()


__all__ = ["Database", "Store"]
