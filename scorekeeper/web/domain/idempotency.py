"""Idempotency records: a write made under a key, and what it answered, so that a retry gets it again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Answer:
    """What a write answered, kept with its idempotency key so that a retry gets it again: a status and a
    JSON body (the API), or where a page redirected and the messages it flashed."""

    status: int
    body: str = ""
    location: str | None = None
    flashes: tuple[tuple[str, str], ...] = ()  # (category, message)


@dataclass
class Once(Generic[T]):
    """An idempotency key that a write came with: the write is made once. The key is the caller's own
    (`scope`: an account or a share link) on one `route`; `fingerprint` tells a retry of the same request
    from another request sent under the same key. The store keeps `answer(made)` of what the write made
    (a pulka) with the key, in the write's own transaction, and sets `given` to it."""

    scope: str
    route: str
    key: str
    fingerprint: str
    answer: Callable[[T], Answer] | None = None
    given: Answer | None = None

    def answered(self, made: T) -> Answer:
        """The answer to keep with the key (the edge says how to answer before the write is made)."""
        assert self.answer is not None, "a key is answered as its write's route says"
        self.given = self.answer(made)
        return self.given


class Answered(Exception):
    """The write of this key was made already (by the same request sent again, which arrived while the
    first was being written): what it answered."""

    def __init__(self, answer: Answer):
        super().__init__(answer.status)
        self.answer = answer
