"""Where a sweep's points run: in this process, on an in-process Dask `LocalCluster` (one worker process per
core, by default), on an existing Dask cluster (`--scheduler tcp://host:8786`), or on a local process pool (kept
for the benchmark's comparison). Each yields (task, rows) as points complete, in whatever order they finish;
the points' seeds do not depend on where or in which order they run.

Leaving the `with` block by an exception (Ctrl-C and SIGTERM included) cancels the points not yet run and
ends the workers this process started (a cluster given by address is left running).

A script that calls `tohit.sweep` at its top level without `if __name__ == "__main__":` would be run again by
each new Dask worker process (they start by importing the main module), which fails; so such a call runs its
points on a local process pool (forked: nothing is imported again) with a warning, and the table is the same.
A notebook's cell (Jupyter, IPython) or the REPL is not such a script: its main module has no file for a worker
to import, so Dask runs there, without a warning (a cell's code is compiled under a temporary file name that is
not the main module's).
"""

from __future__ import annotations

import ast
import logging
import multiprocessing
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import as_completed as futures_completed
from contextlib import contextmanager
from typing import Any, Literal

from tohit.core.errors import InputError, short_repr
from tohit.engine.pool import process_pool
from tohit.sweeps.measure import Task, measure

Executor = Literal["dask", "pool"]
Results = Iterator[tuple[Task, list[dict[str, Any]]]]
Runner = Callable[[list[Task]], Results]
#: Seconds to wait for an existing cluster's scheduler to answer.
CONNECT_TIMEOUT = 10

#: The loggers a stopped sweep quiets while its in-process cluster closes: Dask's, and the event loop's under it.
QUIETED = ("distributed", "tornado.application")
#: The environment variable that sets the level of Dask's loggers in a worker process as it starts.
WORKER_LOGS = "DASK_LOGGING__DISTRIBUTED"


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def dask() -> Any:
    """The `distributed` package, untyped (Dask's own hints are partial; this module is typed at its edges)."""
    import importlib

    return importlib.import_module("distributed")


def _serial(tasks: list[Task]) -> Results:
    for task in tasks:
        yield task, measure(task)


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back while the cluster starts: the threads and worker processes started meanwhile inherit the
    block, so a Ctrl-C sent to the whole process group (a terminal's) reaches this process alone, which stops
    the workers itself; no worker prints a KeyboardInterrupt traceback. A Ctrl-C in the meantime is delivered
    here as soon as the cluster is up."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # first: starting it unblocks SIGINT in the thread that starts it
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextmanager
def _worker_logs_quiet() -> Iterator[None]:
    """The worker processes started meanwhile (a worker that died is started again) log nothing below CRITICAL
    (Dask reads its logging levels from the environment as a worker process starts): a point that fails comes
    back as its error, and what a worker says as a stopped run closes (a fetch in flight whose client has gone)
    would follow the run's one line. The environment is the process's: changed from its main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = os.environ.get(WORKER_LOGS)
    os.environ[WORKER_LOGS] = "critical"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(WORKER_LOGS, None)
        else:
            os.environ[WORKER_LOGS] = before


@contextmanager
def local_cluster(workers: int) -> Iterator[Any]:
    """A Dask `LocalCluster` in this process: `workers` worker processes of one thread each, on 127.0.0.1, no
    dashboard, quiet (`_worker_logs_quiet`); a `Client` on it is yielded, and both are closed when the block ends."""
    with _worker_logs_quiet():
        with warnings.catch_warnings(), _sigint_blocked():
            # The scheduler's small HTTP server (health and metrics, no dashboard) asks for port 8787 on 127.0.0.1 and
            # takes another when a second cluster holds it: nothing a user needs to read.
            warnings.filterwarnings("ignore", message="Port .* is already in use")
            cluster = dask().LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        logs = [logging.getLogger(name) for name in QUIETED]
        levels = [log.level for log in logs]
        try:
            client = dask().Client(cluster, set_as_default=False)
            try:
                yield client
            finally:
                client.close()
        finally:
            cluster.close()
            for log, level in zip(logs, levels, strict=True):
                log.setLevel(level)  # as before the sweep (a stopped one quiets them while it closes)


@contextmanager
def connect(address: str) -> Iterator[Any]:
    """A `Client` on the cluster whose scheduler is at `address` (an InputError when it does not answer)."""
    try:
        # Not made the process's default client: one that fails to connect would stay the default (Dask sets it
        # before connecting), and what asks the default for its event loop would wait on that one's for ever.
        client = dask().Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (ValueError, TypeError) as exc:
        message = f"{short_repr(address)} is not a Dask scheduler address ({exc})"
        raise InputError(message, field="--scheduler") from None
    except OSError as exc:
        raise InputError(
            f"no Dask scheduler answers at {short_repr(address)} within {CONNECT_TIMEOUT} s ({exc})",
            field="--scheduler",
        ) from None
    try:
        yield client
    finally:
        client.close()


def on_client(client: Any) -> Runner:
    """Run the tasks on a Dask client's cluster, yielding each point as it completes."""

    def run(tasks: list[Task]) -> Results:
        futures = client.map(measure, tasks, pure=False)
        of = {future.key: task for future, task in zip(futures, tasks, strict=True)}
        waiting = {future.key: future for future in futures}
        # The client's own event loop: as_completed takes the default client's otherwise, which may be another
        # client's (a notebook's, or one that failed), where these futures' completions are never seen.
        finished = dask().as_completed(futures, loop=client.loop)
        del futures
        try:
            for future in finished:
                rows = future.result()
                # Let go of a point once its rows are here: a worker lost later does not make Dask run it again.
                waiting.pop(future.key, None)
                future.release()
                yield of[future.key], rows
        except BaseException:
            # Stopped (Ctrl-C, an error): a fetch still in flight finds its point cancelled, and the scheduler in
            # this process (or the event loop under it, when Dask's own cancel callback fails as it is interrupted)
            # would log that as an error after the one line the command prints.
            for name in QUIETED:
                logging.getLogger(name).setLevel(logging.CRITICAL)
            raise
        finally:
            client.cancel(list(waiting.values()))

    return run


@contextmanager
def _pool(workers: int) -> Iterator[Runner]:
    context = multiprocessing.get_context("fork")
    with process_pool(workers, context) as pool:

        def run(tasks: list[Task]) -> Results:
            futures = {pool.submit(measure, task): task for task in tasks}
            for future in futures_completed(futures):
                yield futures[future], future.result()

        yield run


def unguarded_main() -> tuple[str, int] | None:
    """The script (its file name and the line of the call) when this call comes from its top level outside
    `if __name__ == "__main__":` (read from the script's syntax tree); None from a guarded block, a notebook,
    `python -c` or a REPL: wherever the main module has no file that a worker process would import again."""
    if getattr(sys.modules.get("__main__"), "__file__", None) is None:
        return None
    frame = sys._getframe(1)
    while frame is not None and not (
        frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__main__"
    ):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return None
    path = frame.f_code.co_filename
    try:
        with open(path, encoding="utf-8") as source:
            tree = ast.parse(source.read())
    except (OSError, SyntaxError, ValueError):
        return None if path.startswith("<") else (path, frame.f_lineno)
    line = frame.f_lineno
    for node in ast.walk(tree):
        guarded = isinstance(node, ast.If) and _is_main_test(node.test) and node.end_lineno is not None
        if guarded and node.body[0].lineno <= line <= (node.end_lineno or 0):  # type: ignore[attr-defined]
            return None
    return path, line


def _is_main_test(test: ast.expr) -> bool:
    """`__name__ == "__main__"` (either way round)."""
    if not isinstance(test, ast.Compare) or len(test.comparators) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    named = any(isinstance(x, ast.Name) and x.id == "__name__" for x in sides)
    return named and any(isinstance(x, ast.Constant) and x.value == "__main__" for x in sides)


@contextmanager
def runner(
    *, workers: int | None = None, scheduler: str | None = None, client: Any = None, executor: Executor = "dask"
) -> Iterator[Runner]:
    """The runner for these options: a given Dask `client`; else a cluster at `scheduler`; else one worker:
    this process; else `workers` (default: one per core) on a LocalCluster (or a process pool)."""
    if client is not None:
        yield on_client(client)
        return
    if scheduler is not None:
        with connect(scheduler) as remote:
            yield on_client(remote)
        return
    count = workers or default_workers()
    if count <= 1:
        yield _serial
        return
    script = unguarded_main() if executor == "dask" else None
    if script is not None:
        warnings.warn_explicit(
            f"tohit.sweep is called at the top level of {os.path.basename(script[0])} without "
            '`if __name__ == "__main__":`, so Dask\'s worker processes would run the script again; '
            f"the points run on {count} forked local processes instead (the same table)",
            RuntimeWarning,
            script[0],
            script[1],
        )
    if executor == "pool" or script is not None:
        with _pool(count) as run:
            yield run
        return
    with local_cluster(count) as local:
        yield on_client(local)


def cluster_workers(client: Any) -> int:
    """How many worker threads the client's cluster has now (at least 1)."""
    info = client.scheduler_info()
    return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))
