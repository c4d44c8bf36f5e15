"""The store: the only package that imports SQLAlchemy or Alembic.

`db` opens the database and migrates it; `models` are its rows, never engine objects; one module per
aggregate implements its feature's repository Protocol (services/): `pulkas`, `accounts`, `shares`, and
`keys` for idempotency keys; `rows` turns rows into engine and domain objects; `backup` writes and
restores the whole database; `cache` keeps this process's pulkas by version.
"""

from __future__ import annotations

from ..domain.pulkas import Pulka
from .accounts import AccountStore
from .cache import Section
from .db import Database
from .keys import KeyStore
from .pulkas import PulkaStore
from .shares import ShareStore


class Store:
    """The repositories of one database, as the app (or a command, or a test) uses them."""

    def __init__(self, db: Database, cache: Section[Pulka] | None = None, max_deals: int = 1000):
        self.db = db
        self.pulkas = PulkaStore(db, cache, max_deals)
        self.accounts = AccountStore(db)
        self.shares = ShareStore(db)
        self.keys = KeyStore(db)


__all__ = ["Database", "Store"]
