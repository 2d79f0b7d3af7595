"""Worker processes that stop when asked (issue 20, item 1): a long run interrupted by Ctrl-C or SIGTERM
cancels its pending tasks and ends its workers at once, instead of waiting for every task (what leaving a
`with ProcessPoolExecutor(...)` block does) or leaving orphans behind.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import process as futures_process
from contextlib import contextmanager
from multiprocessing.context import BaseContext


def _worker_init() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it ends the workers); SIGTERM ends the worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


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
