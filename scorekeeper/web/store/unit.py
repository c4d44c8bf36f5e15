"""The repositories of one database, in one place, and the unit of work of one write (services.unit.UnitOfWork):
one transaction, those repositories writing in it, and the write's idempotency key, looked up once before the
write and stored with its answer in it."""

from __future__ import annotations

from ..domain.idempotency import Answer, Key
from ..domain.pulkas import Pulka
from .accounts import AccountStore
from .cache import Section
from .db import Database
from .keys import KeyStore, remember
from .ledger import LedgerStore
from .players import PlayerStore
from .pulkas import PulkaStore
from .results import ResultStore
from .shares import ShareStore
from .transaction import Transaction, Writer
from .watch import Watch


class Repositories:
    """A line each: the store (store.Store) holds them as the app reads and as a command writes, and a unit of
    work holds the same ones, each that writes bound to its transaction."""

    def __init__(self, db: Database, watch: Watch, cache: Section[Pulka] | None = None):
        self.db = db
        self.watch = watch  # what this process knows of the database without asking it (store.watch)
        self.pulkas = PulkaStore(db, watch, cache)
        self.accounts = AccountStore(db, watch)
        self.shares = ShareStore(db, watch)
        self.players = PlayerStore(db, self.pulkas)
        self.results = ResultStore(db)
        self.ledger = LedgerStore(db, self.players)
        self.keys = KeyStore(db)


class Unit(Transaction, Repositories):
    def __init__(self, held: Repositories):
        Transaction.__init__(self, held.db)
        # The store's repositories, each that writes bound to this transaction: what they keep (caches, the
        # watch) they share with the store's.
        for name, repository in vars(held).items():
            setattr(self, name, repository.within(self) if isinstance(repository, Writer) else repository)

    def answered(self, key: Key) -> Answer | None:
        # On a plain connection of its own: looked up before the write, it holds nothing while the route reads.
        return self.keys.answered(key)

    def remember(self, key: Key, answer: Answer) -> None:
        remember(self.session, key, answer)
