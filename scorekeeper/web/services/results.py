"""Results: a pulka closed by its owner before it finished (settled as it stands, docs/rules.md §15) or reopened,
and every frozen pulka checked against the engine of today (`scorekeeper stats verify`).

A pulka freezes by itself when a write finishes it (services.pulkas.written); these are the owner's own ends."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Protocol

from ..domain.pulkas import Pulka, writable
from ..domain.refusals import PulkaOpen
from ..domain.results import ClosePulka, Ending, ReopenPulka, Result
from .pulkas import PulkaRepository, note


class FrozenPulkas(Protocol):
    def frozen_uids(self) -> Iterator[str]:
        """Every frozen pulka's uid, oldest first."""


def close(pulkas: PulkaRepository, command: ClosePulka, by: str) -> Pulka:
    """Its owner ends the pulka as it stands: its result is kept and it takes no more writes."""
    with pulkas.writing(command.uid, command.expected) as change:
        before = writable(change.before)
        change.freeze(before.settled_now(Ending.CLOSED, datetime.now(timezone.utc), by))
        return change.done(before.deals, before.replay, note("closed", None, by))


def reopen(pulkas: PulkaRepository, command: ReopenPulka, by: str) -> Pulka:
    """Its owner takes the result back, to change the pulka; the next write that leaves it finished, or a
    close, freezes it again."""
    with pulkas.writing(command.uid, command.expected) as change:
        before = change.before
        if before.frozen is None:
            raise PulkaOpen()
        change.thaw(by)
        return change.done(before.deals, before.replay, note("reopened", None, by))


def verify(pulkas: PulkaRepository, frozen: FrozenPulkas) -> Iterator[tuple[Pulka, Result]]:
    """Each frozen pulka whose stored result the engine would now write otherwise, with what it would write.
    Nothing is changed."""
    for uid in frozen.frozen_uids():
        pulka = pulkas.get(uid)
        assert pulka.frozen is not None
        now = pulka.settled_now(pulka.frozen.ending, pulka.frozen.at, pulka.frozen.by)
        if not pulka.frozen.same_score(now):
            yield pulka, now

