"""The server's memory of encounters, bounded: the most recently used encounters (each with
its fight and that fight's memo of static tables) and their stored rows, the least recently used forgotten first.
A forgotten encounter is read again from the store when it is next asked for, so the bound changes no answer."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A mapping that keeps at most `size` entries, forgetting the least recently read or written (safe across the
    worker threads that read and write it)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an LRU keeps at least one entry")
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def __setitem__(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def pop(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            return self._items.pop(key, default)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items
