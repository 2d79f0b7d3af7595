"""Worker processes that stop when asked: a long run interrupted by Ctrl-C or SIGTERM
cancels its pending tasks and ends its workers at once, instead of waiting for every task (what leaving a
`with ProcessPoolExecutor(...)` block does) or leaving orphans behind.

A long-lived pool heals: `HealingPool` replaces a pool one of whose workers died
(the task that lost it fails with `WorkerLost`; the next task runs in the new pool), and its workers die with
the process that started them (Linux's parent-death signal). Its tasks can be stopped:
`HealingPool.stop_work` raises a flag the task's worker reads at its next `cancel.check()`, so the worker stops
the work and is free for the next task (nothing is killed).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import process as futures_process
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

from tohit.engine import cancel

T = TypeVar("T")

#: Tasks of a `HealingPool` that can be stopped at once (running or queued); more are run, unstoppable.
SLOTS = 4096
#: In a worker of a `HealingPool`: one byte per task slot, 1 when the task in that slot is to stop.
_FLAGS: Any = None

#: prctl's option that sets the signal a process gets when the thread that started it ends (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def _worker_init() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it ends the workers); SIGTERM ends the worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _die_with_parent(parent: int, flags: Any = None) -> None:
    """In a worker of a long-lived pool: `_worker_init`, and on Linux the kernel sends SIGKILL to this worker
    when its parent ends, however it ends (kill -9 included). The signal follows the *thread* that started the
    worker, so a `HealingPool` is submitted to from one long-lived thread (a server's event loop). A parent
    that ended before the signal was set is seen by its pid: the worker ends at once. `flags` are the pool's
    stop flags, shared with the parent."""
    global _FLAGS
    _FLAGS = flags
    _worker_init()
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _in_slot(slot: int, fn: Callable[..., T], *args: Any) -> T:
    """In a worker: `fn(*args)`, stopped at its next `cancel.check()` once the parent raises the slot's flag."""
    flags = _FLAGS
    with cancel.watched(lambda: bool(flags[slot])):
        return fn(*args)


class WorkerLost(Exception):
    """A task whose worker process died under it (killed, or out of memory); the pool has been replaced."""


class HealingPool:
    """A process pool of `workers` processes that replaces itself when one of its workers dies: a task
    submitted to a broken pool is submitted again to its replacement (no work was lost), a task running when
    its worker died fails with `WorkerLost`, and the tasks after it run in the new pool."""

    def __init__(self, workers: int, context: BaseContext | None = None) -> None:
        self.workers, self.context = workers, context
        self._lock = threading.Lock()
        #: The stop flags, shared with every worker of this pool and of its replacements.
        self._flags = (context or multiprocessing.get_context()).RawArray(ctypes.c_byte, SLOTS)
        self._free = list(range(SLOTS))
        self._slots: dict[Future[Any], int] = {}
        self._pool = self._new()
        #: How many times the pool was replaced (for tests and logs).
        self.replaced = 0

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers, mp_context=self.context, initializer=_die_with_parent, initargs=(os.getpid(), self._flags)
        )

    def _renew(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """The pool after `broken`: a new one, unless another task renewed it already."""
        with self._lock:
            if self._pool is broken:
                self._pool = self._new()
                self.replaced += 1
                threading.Thread(target=stop, args=(broken,), daemon=True).start()
            return self._pool

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """`fn(*args)` in a worker. Its future fails with `WorkerLost` when the worker dies under it, and with
        `cancel.Cancelled` when `stop_work` stopped it."""
        with self._lock:
            slot = self._free.pop() if self._free else None
        if slot is not None:
            self._flags[slot] = 0
            fn, args = _in_slot, (slot, fn, *args)
        pool = self._pool
        try:
            inner = pool.submit(fn, *args)
        except BrokenProcessPool:
            pool = self._renew(pool)
            inner = pool.submit(fn, *args)
        outer: Future[T] = Future()
        if slot is not None:
            self._slots[outer] = slot

        def settle(done: Future[T]) -> None:
            if slot is not None:
                with self._lock:
                    self._slots.pop(outer, None)
                    self._free.append(slot)
            if done.cancelled():
                # Its pool was stopped before the work began (replaced after a worker died, or closed). `outer`
                # is running and cannot be cancelled: it fails, or its asker would wait for it until its deadline.
                outer.set_exception(WorkerLost("the worker pool was replaced before this request's work began"))
                return
            error = done.exception()
            if isinstance(error, BrokenProcessPool):
                self._renew(pool)
                outer.set_exception(WorkerLost("a worker process died under this request"))
            elif error is not None:
                outer.set_exception(error)
            else:
                outer.set_result(done.result())

        outer.set_running_or_notify_cancel()
        inner.add_done_callback(settle)
        return outer

    def stop_work(self, future: Future[Any]) -> None:
        """Ask the task of `future` to stop: its worker raises `cancel.Cancelled` at its next check (a task not
        started yet stops before it begins), and is then free."""
        with self._lock:
            slot = self._slots.get(future)
            if slot is not None:
                self._flags[slot] = 1

    def pids(self) -> list[int]:
        """The pids of the current pool's workers (those started so far)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return [int(pid) for pid in processes]

    def close(self) -> None:
        """Cancel what has not started and end the workers now."""
        with self._lock:
            stop(self._pool)


@contextmanager
def process_pool(workers: int, context: BaseContext) -> Iterator[ProcessPoolExecutor]:
    """A process pool that is shut down normally when its block ends, and stopped at once (pending tasks
    cancelled, workers terminated) when the block is left by an exception, KeyboardInterrupt included."""
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init)
    try:
        yield pool
    except BaseException:
        stop(pool)
        raise
    pool.shutdown(wait=True)


def stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started, and terminate the workers now (SIGTERM, then SIGKILL after a second)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # `shutdown` forgets it: taken first
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=1.0)
        if process.is_alive():
            process.kill()
            process.join(timeout=1.0)
    if manager is not None:
        # The pool's manager thread notices its workers gone and closes its wake-up pipe. The interpreter's exit
        # hook (concurrent.futures' `_python_exit`) wakes every manager thread it knows through that pipe,
        # without a lock: on a loaded machine it can write while the thread closes it ("Exception ignored ...
        # OSError: Bad file descriptor" after the command's last line). This thread needs no wake-up (its
        # workers are gone), so it is taken off the hook's list; as a non-daemon thread it is still joined at
        # exit.
        manager.join(timeout=2.0)
        getattr(futures_process, "_threads_wakeups", {}).pop(manager, None)
