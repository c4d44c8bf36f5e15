"""One transaction of the store: the session every repository bound to it writes through, and what this
process learns only once it commits (a pulka kept by its new version, the version the watch trusts), so that
nothing uncommitted is ever shown."""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType

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

    def __enter__(self) -> Transaction:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._committed = []
        self.session.close()  # what was not committed is rolled back
