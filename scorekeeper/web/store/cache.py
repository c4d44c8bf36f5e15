"""The one cache of the store: bounded, shared by threads, keyed by a version.

Every write gives a pulka a new version (and what a circle or a ledger is read from a new fingerprint), so
what was built for one version never goes stale: no invalidation, and several server processes each keep
their own cache while the database alone decides what is true. An old version is simply not asked for
again, and leaves as the least recently used.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


def one(item: Any) -> int:
    return 1


class VersionCache(Generic[T]):
    """The most recently used items within a budget, safe to share between threads.

    The budget counts items, or whatever `weigh` measures (bytes). Items may grow after they are put
    in (a presenter builds each part when first asked), but only while a request holds them, and a request
    holds what it was handed: so an item is weighed when it comes in, again whenever it is asked for, and
    the items handed out since the last put are weighed again by the next put (what a request built is
    counted by the next). A put weighs those few, never the whole cache: `weigh` should be cheap. An item
    that knows when it grows says so (`grew`), and is counted at once, however long a request holds it.
    """

    def __init__(self, budget: int = 128, weigh: Callable[[Any], int] = one):
        self.budget = budget
        self.weigh = weigh
        self.total = 0
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self._weights: dict[Hashable, int] = {}
        self._handed: set[Hashable] = set()  # handed out since the last put: they may have grown since
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
                self._reweigh(key)
                self._handed.add(key)
                self._evict()
            return item

    def put(self, key: Hashable, item: T) -> T:
        """The item kept for `key`: this one, or the one another thread put first (so that two requests
        that both missed it share one, and whatever it builds once)."""
        with self._lock:
            item = self._items.setdefault(key, item)
            self._items.move_to_end(key)
            self._handed.add(key)
            for handed in self._handed:
                if handed in self._items:
                    self._reweigh(handed)
            self._handed = {key}  # weighed now, and still held by the request that put it
            self._evict()
            return item

    def grew(self, key: Hashable, item: T, more: int) -> None:
        """`item` built a part weighing `more`: counted now if it is what the cache keeps for `key` (an item
        that lost the race to be put, or was let go, counts nothing)."""
        with self._lock:
            if self._items.get(key) is item:
                self._weights[key] += more
                self.total += more
                self._evict()

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._weights.clear()
            self._handed.clear()
            self.total = 0

    def section(self, name: Hashable) -> Section[Any]:
        """A cache with keys of its own in this one: two kinds of item share one budget and one order (or the
        items worked out from one version, keyed by it)."""
        return Section(self, name)

    def _reweigh(self, key: Hashable) -> None:
        weight = self.weigh(self._items[key])
        self.total += weight - self._weights.get(key, 0)
        self._weights[key] = weight

    def _evict(self) -> None:
        # The newest item stays even when it alone is over the budget: its request holds it anyway.
        while self.total > self.budget and len(self._items) > 1:
            key, _ = self._items.popitem(last=False)
            self.total -= self._weights.pop(key)
            self._handed.discard(key)


class Section(Generic[T]):
    def __init__(self, cache: VersionCache[Any], name: Hashable):
        self.cache = cache
        self.name = name

    def get(self, key: Hashable) -> T | None:
        found: T | None = self.cache.get((self.name, key))
        return found

    def put(self, key: Hashable, item: T) -> T:
        kept: T = self.cache.put((self.name, key), item)
        return kept

    def grew(self, key: Hashable, item: T, more: int) -> None:
        self.cache.grew((self.name, key), item, more)
