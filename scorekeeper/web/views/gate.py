"""Gates for the slow things: a PDF (Turns: each caller one at a time, the callers in turn, a few at once), one
account's home list (Gate: a few at once, a few more waiting); whoever comes beyond is turned away (Busy)."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

# Seconds a PDF waits for its turn at most, past those ahead of it: a worker stuck on a PDF holds the line
# no longer than this, and the caller is told to come back.
PATIENCE = 60.0


class Busy(Exception):
    """As many callers as the gate lets in are in already; or (`own`) this caller's other build is."""

    def __init__(self, own: bool = False):
        super().__init__()
        self.own = own


class Gate:
    """At most `running` slow builds at once, and as many callers again waiting for one (their own or one
    they share): whoever comes beyond that is turned away at once (Busy) rather than hold a server thread."""

    def __init__(self, running: int = 2):
        self.running = running
        self.limit = 2 * running
        self.inside = 0
        self._running = threading.BoundedSemaphore(running)
        self._lock = threading.Lock()

    @contextmanager
    def entered(self) -> Iterator[None]:
        with self._lock:
            if self.inside >= self.limit:
                raise Busy()
            self.inside += 1
        try:
            yield
        finally:
            with self._lock:
                self.inside -= 1

    def run(self, build: Callable[[], T]) -> T:
        with self._running:
            return build()


class Turns:
    """PDFs made fairly among their callers (an account, a share link, an address: the edge says who).

    At most `running` are made at once. Each caller has one PDF in progress at most: asking for another
    meanwhile is its own flood, turned away at once (Busy(own=True)), however free the server. The others
    wait for a free slot in the order they came; as each caller has one place in the line at most, the line
    goes round the callers, and nobody's flood delays another's PDF beyond its own turn. Each waiter holds a
    server thread: at most `running` callers wait besides those served (beyond, Busy), each at most
    `patience` seconds (then Busy)."""

    def __init__(self, running: int = 2, patience: float = PATIENCE):
        self.running = running
        self.limit = 2 * running  # callers in at once: served or waiting
        self.patience = patience
        self._callers: set[Hashable] = set()
        self._line: deque[object] = deque()  # the tickets of the builds waiting for a slot, first come first
        self._building = 0
        self._changed = threading.Condition()

    @property
    def inside(self) -> int:
        """Callers with a PDF in progress: being made, waiting for a slot, or for another's making of it."""
        return len(self._callers)

    @property
    def waiting(self) -> int:
        """Builds waiting for a slot."""
        return len(self._line)

    @contextmanager
    def entered(self, who: Hashable) -> Iterator[None]:
        """`who`'s PDF in progress while inside: Busy(own) when `who` has one already, Busy when the line is full."""
        with self._changed:
            if who in self._callers:
                raise Busy(own=True)
            if len(self._callers) >= self.limit:
                raise Busy()
            self._callers.add(who)
        try:
            yield
        finally:
            with self._changed:
                self._callers.discard(who)

    def run(self, build: Callable[[], T]) -> T:
        """`build` once a slot is free and the builds that came before have theirs; Busy after `patience`."""
        ticket = object()
        with self._changed:
            self._line.append(ticket)
            turn = self._changed.wait_for(lambda: self._line[0] is ticket and self._building < self.running,
                                          self.patience)
            self._line.remove(ticket)
            self._changed.notify_all()  # the next in line: another slot may be free, or it is first now
            if not turn:
                raise Busy()
            self._building += 1
        try:
            return build()
        finally:
            with self._changed:
                self._building -= 1
                self._changed.notify_all()


@dataclass(frozen=True)
class Turn:
    """One caller's way to a PDF through the app's Turns: `who` it is, the edge decides (edge/presenting.py)."""

    turns: Turns
    who: Hashable

    @property
    def running(self) -> int:
        """PDFs made at once, so the worker processes kept for them."""
        return self.turns.running

    @contextmanager
    def entered(self) -> Iterator[None]:
        with self.turns.entered(self.who):
            yield

    def run(self, build: Callable[[], T]) -> T:
        return self.turns.run(build)
