"""One transaction of the store: the session every repository bound to it writes through, and what this
process learns only once it commits (a pulka kept by its new version, the version the watch trusts, an access
that changed), so that nothing uncommitted is ever shown."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Self

from .db import Database


class Transaction:
    def __init__(self, db: Database):
        self.session = db.Session()
        self._committed: list[Callable[[], None]] = []

    def on_commit(self, learn: Callable[[], None]) -> None:
        """What this process learns once the transaction commits (and forgets if it rolls back)."""
        self._committed.append(learn)

    def commit(self) -> None:
        self.session.commit()
        learned, self._committed = self._committed, []
        for learn in learned:
            learn()

    def rollback(self) -> None:
        self.session.rollback()
        self._committed = []

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._committed = []
        self.session.close()  # what was not committed is rolled back


class Writer:
    """A repository that writes: in a unit of work's transaction when bound to one (`within`, store.unit),
    which the unit commits; else each write in a transaction of its own (a command, a test, the log-in)."""

    db: Database
    transaction: Transaction | None = None

    def within(self, transaction: Transaction) -> Self:
        """This repository writing in `transaction`; what it keeps (its caches) it shares with this one."""
        bound = copy.copy(self)
        bound.transaction = transaction
        return bound

    @contextmanager
    def _writes(self) -> Iterator[Transaction]:
        """The unit of work's transaction, which it commits; else one of the write's own, committed as the
        block ends. Rolled back if the block raises."""
        if self.transaction is not None:
            yield self.transaction
            return
        with Transaction(self.db) as own:
            yield own
            own.commit()
