"""Idempotency records: a write made under a key, and what it answered, so that a retry gets it again."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Answer:
    """What a write answered, kept with its idempotency key so that a retry gets it again: a status and a
    JSON body (the API), or where a page redirected and the messages it flashed."""

    status: int
    body: str = ""
    location: str | None = None
    flashes: tuple[tuple[str, str], ...] = ()  # (category, message)


@dataclass(frozen=True)
class Key:
    """An idempotency key that a write came with: the write is made once. The key is the caller's own
    (`scope`: an account or a share link) on one `route`; `fingerprint` tells a retry of the same request
    from another request sent under the same key."""

    scope: str
    route: str
    key: str
    fingerprint: str


class KeyTaken(Exception):
    """The key was stored by another transaction while this one wrote: the same request, sent again, was
    made meanwhile (the unit of work that raised it stores nothing)."""
