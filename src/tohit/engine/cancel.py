"""Work that stops when nobody waits for it any more: a server request whose client hung up,
or whose deadline passed, has its work cancelled in the process (or thread) that runs it. The work's loops call
`check()` between chunks (of attacks, of fight steps, of targets); it raises `Cancelled` once the asker has
cancelled. Outside `watched` (the CLI, the tests) `check` does nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: The question "has this work been cancelled?" of the work running in this thread (None: nobody asks).
_CANCELLED: ContextVar[Callable[[], bool] | None] = ContextVar("tohit_cancelled", default=None)


class Cancelled(Exception):
    """The work was cancelled by its asker (a client that hung up, a deadline that passed)."""


def check() -> None:
    """Between two chunks of work: stop (raise `Cancelled`) when the asker has cancelled it."""
    asked = _CANCELLED.get()
    if asked is not None and asked():
        raise Cancelled("the work was cancelled")


def progress_check(done: int) -> None:
    """`check` as a progress callback (the engine's loops report progress once a chunk)."""
    check()


@contextmanager
def watched(cancelled: Callable[[], bool]) -> Iterator[None]:
    """Run the block's work so that `check` stops it once `cancelled()` is true."""
    token = _CANCELLED.set(cancelled)
    try:
        check()  # cancelled before it started: nothing is done
        yield
    finally:
        _CANCELLED.reset(token)
