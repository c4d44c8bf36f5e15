"""The unit of work of one write (services.unit.UnitOfWork): one transaction, the repositories writing in it,
and the write's idempotency key, looked up once before the write and stored with its answer in it."""

from __future__ import annotations

from ..domain.idempotency import Answer, Key
from .keys import KeyStore, remember
from .ledger import LedgerStore
from .pulkas import PulkaStore
from .transaction import Transaction


class Unit(Transaction):
    def __init__(self, pulkas: PulkaStore, ledger: LedgerStore, keys: KeyStore):
        super().__init__(pulkas.db)
        self.pulkas = pulkas.within(self)
        self.ledger = ledger.within(self)
        self._keys = keys

    def answered(self, key: Key) -> Answer | None:
        # On a plain connection of its own: looked up before the write, it holds nothing while the route reads.
        return self._keys.answered(key)

    def remember(self, key: Key, answer: Answer) -> None:
        remember(self.session, key, answer)

    def __enter__(self) -> Unit:
        return self
