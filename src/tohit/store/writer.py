"""Turns to write, for a store on SQLite: one write transaction at a time in a process, and the appends that
arrive while one is under way committed together after it.

SQLite has one write lock per database. Two connections that want it at once leave one in SQLite's busy handler,
which sleeps in steps growing to 100 ms however soon the lock is free: under eight writers, a few writes of 2 ms
waited over 300 ms. A store's threads wait for their turn here instead, woken as soon as the write before them
ends, so SQLite's lock is contended only between processes (where the busy timeout still bounds the wait).

Appends wait as a group: the thread that takes the turn commits every append queued by then in one transaction
(one sync of the log for all of them), and each caller returns once the transaction holding its append has
committed, so nothing is answered before it is durable.

    turns = Turns(timeout=10.0)
    with turns.turn():                       # a write transaction of its own
        ...
    turns.together(item, commit_all)         # commit_all([item, ...]) run by whichever thread takes the turn
    turns.together(item, commit_all, landed) # landed(item): it committed although commit_all raised after
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


class TurnTimeout(Exception):
    """No turn to write came within the timeout (a write of another process held SQLite's lock that long)."""


@dataclass(eq=False)
class _Queued(Generic[T]):
    item: T
    taken: bool = False  # in a group being committed: past the point where it can be given up
    done: bool = False
    error: BaseException | None = None


class Turns(Generic[T]):
    """One writer at a time among a store's threads, and appends committed in groups."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._changed = threading.Condition()
        self._writing = False
        self._queue: list[_Queued[T]] = []

    def _take_turn(self, deadline: float, queued: _Queued[T] | None = None) -> bool:
        """Wait (holding the condition) until the turn is free, then take it; False when `queued` was committed
        by another thread meanwhile. TurnTimeout past the deadline (`queued`, not yet taken, leaves the queue)."""
        while self._writing and not (queued is not None and queued.done):
            left = deadline - time.monotonic()
            if left <= 0 and (queued is None or not queued.taken):
                if queued is not None:
                    self._queue.remove(queued)
                raise TurnTimeout(f"no turn to write within {self.timeout:g} s")
            self._changed.wait(left if left > 0 else None)  # taken: its group is being committed, which ends
        if queued is not None and queued.done:
            return False
        self._writing = True
        return True

    def _end_turn(self) -> None:
        with self._changed:
            self._writing = False
            self._changed.notify_all()

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold the turn to write for one transaction (TurnTimeout when none comes within the timeout)."""
        with self._changed:
            self._take_turn(time.monotonic() + self.timeout)
        try:
            yield
        finally:
            self._end_turn()

    def together(
        self, item: T, commit: Callable[[list[T]], None], committed: Callable[[T], bool] = lambda _: False
    ) -> None:
        """`item` committed with the others queued beside it: `commit(items)`, one transaction, is run by the
        thread that takes the turn, for every item queued by then. Returns once `item`'s transaction has
        committed; raises what `commit` raised for its group, unless `committed(item)` says the item landed
        all the same (in a transaction of its own before the failure): an item that landed is never answered
        with an error. TurnTimeout when the item was still waiting (not yet in a group) at the timeout."""
        queued = _Queued(item)
        with self._changed:
            self._queue.append(queued)
            if not self._take_turn(time.monotonic() + self.timeout, queued):
                self._outcome(queued)
                return
            group, self._queue = self._queue, []
            for q in group:
                q.taken = True
        try:
            commit([q.item for q in group])
        except BaseException as exc:
            for q in group:
                if not committed(q.item):
                    q.error = exc
            if not isinstance(exc, Exception):  # an interrupt of this thread: not to be swallowed
                raise
        finally:
            with self._changed:
                for q in group:
                    q.done = True
            self._end_turn()
        self._outcome(queued)

    @staticmethod
    def _outcome(queued: _Queued[T]) -> None:
        if queued.error is not None:
            raise queued.error


__all__ = ["TurnTimeout", "Turns"]
