"""Idempotency keys: each stored with the answer of its write, in the write's own transaction."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import TypeVar

from sqlalchemy import Connection, delete, select
from sqlalchemy.orm import Session

from ..domain.idempotency import Answer, Once
from ..domain.refusals import KeyReused
from .db import Database
from .models import IdempotencyRow, now

T = TypeVar("T")
# An idempotency key answers its retries this long at least; each process drops older keys about once an hour.
KEEP_ANSWERS = timedelta(hours=24)
SWEEP_EVERY = 3600.0  # seconds


class KeyStore:
    def __init__(self, db: Database):
        self.db = db
        self._swept: float | None = None  # when this process last dropped old keys

    def answered(self, once: Once[T]) -> Answer | None:
        """What the write of this idempotency key answered, if it was made (KeyReused if the key came with
        another request). Drops the keys older than KEEP_ANSWERS first, at most once an hour in each process:
        one DELETE along the index on their time, in a transaction of its own."""
        if self._swept is None or time.monotonic() - self._swept >= SWEEP_EVERY:
            self._swept = time.monotonic()
            with self.db.engine.begin() as connection:
                connection.execute(delete(IdempotencyRow).where(IdempotencyRow.created_at < now() - KEEP_ANSWERS))
        with self.db.reads.connect() as connection:
            return answer(connection, once)


def answer(connection: Connection | Session, once: Once[T]) -> Answer | None:
    """The stored answer of the key (through a session or a plain connection); KeyReused for another request."""
    row = connection.execute(
        select(IdempotencyRow.fingerprint, IdempotencyRow.status, IdempotencyRow.body, IdempotencyRow.location,
               IdempotencyRow.flashes)
        .where(IdempotencyRow.scope == once.scope, IdempotencyRow.route == once.route,
               IdempotencyRow.key == once.key)).first()
    if row is None:
        return None
    if row.fingerprint != once.fingerprint:
        raise KeyReused()
    return Answer(row.status, row.body, row.location, tuple((category, text) for category, text in row.flashes or ()))


def remember(session: Session, once: Once[T] | None, made: T | None) -> None:
    """Store the key with the answer to the write that made `made`, in the write's transaction."""
    if once is None or made is None:
        return
    given = once.answered(made)
    session.add(IdempotencyRow(scope=once.scope, route=once.route, key=once.key, fingerprint=once.fingerprint,
                               status=given.status, body=given.body, location=given.location,
                               flashes=[list(flash) for flash in given.flashes] or None))
    session.flush()  # a key stored meanwhile by the same request sent again is refused here, not at commit
