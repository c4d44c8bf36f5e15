"""A gate for the slow things built per version (a PDF): a few at once, a few more waiting, the rest turned away."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class Busy(Exception):
    """As many callers as the gate lets in are in already."""


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
