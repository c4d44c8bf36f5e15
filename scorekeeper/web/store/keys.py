"""Idempotency keys: each stored with the answer of its write, in the write's own transaction."""

from __future__ import annotations

import time
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..domain.idempotency import Answer, Key, KeyTaken
from ..domain.refusals import KeyReused
from .db import Database
from .models import IdempotencyRow, now

# An idempotency key answers its retries this long at least; each process drops older keys about once an hour.
KEEP_ANSWERS = timedelta(hours=24)
SWEEP_EVERY = 3600.0  # seconds


class KeyStore:
    def __init__(self, db: Database):
        self.db = db
        self._swept: float | None = None  # when this process last dropped old keys

    def answered(self, key: Key) -> Answer | None:
        """What the write of this idempotency key answered, if it was made (KeyReused if the key came with
        another request). Drops the keys older than KEEP_ANSWERS first, at most once an hour in each process:
        one DELETE along the index on their time, in a transaction of its own."""
        if self._swept is None or time.monotonic() - self._swept >= SWEEP_EVERY:
            self._swept = time.monotonic()
            with self.db.engine.begin() as connection:
                connection.execute(delete(IdempotencyRow).where(IdempotencyRow.created_at < now() - KEEP_ANSWERS))
        with self.db.reads.connect() as connection:
            row = connection.execute(
                select(IdempotencyRow.fingerprint, IdempotencyRow.status, IdempotencyRow.body, IdempotencyRow.location,
                       IdempotencyRow.flashes)
                .where(IdempotencyRow.scope == key.scope, IdempotencyRow.route == key.route,
                       IdempotencyRow.key == key.key)).first()
        if row is None:
            return None
        if row.fingerprint != key.fingerprint:
            raise KeyReused()
        return Answer(row.status, row.body, row.location, tuple((category, text) for category, text in row.flashes or ()))


def remember(session: Session, key: Key, answer: Answer) -> None:
    """Store the key with its write's answer, in the write's transaction; KeyTaken when the same request, sent
    again, stored it meanwhile (the key's unique constraint: in PostgreSQL this waits for the other to commit)."""
    session.add(IdempotencyRow(scope=key.scope, route=key.route, key=key.key, fingerprint=key.fingerprint,
                               status=answer.status, body=answer.body, location=answer.location,
                               flashes=[list(flash) for flash in answer.flashes] or None))
    try:
        session.flush()
    except IntegrityError:
        raise KeyTaken() from None
