"""A bounded cache keyed by pulka version.

Every write gives a pulka a new version, so what was built for one version
never goes stale: no invalidation, and several server processes each keep
their own cache while the database alone decides what is true.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class VersionCache(Generic[T]):
    """The `size` most recently used items, safe to share between threads."""

    def __init__(self, size: int = 128):
        self.size = size
        self._items: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: Hashable, item: T) -> T:
        with self._lock:
            self._items[key] = item
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return item
