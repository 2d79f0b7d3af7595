"""Where a sweep's points run: in this process, on an in-process Dask `LocalCluster` (one worker process per
core, by default), on an existing Dask cluster (`--scheduler tcp://host:8786`), or on a local process pool (kept
for the benchmark's comparison). Each yields (task, rows) as points complete, in whatever order they finish;
the points' seeds do not depend on where or in which order they run.

Leaving the `with` block by an exception (Ctrl-C and SIGTERM included) cancels the points not yet run and
ends the workers this process started (a cluster given by address is left running).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
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
def local_cluster(workers: int) -> Iterator[Any]:
    """A Dask `LocalCluster` in this process: `workers` worker processes of one thread each, on 127.0.0.1, no
    dashboard; a `Client` on it is yielded, and both are closed when the block ends."""
    with warnings.catch_warnings():
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
    try:
        client = dask().Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


@contextmanager
def connect(address: str) -> Iterator[Any]:
    """A `Client` on the cluster whose scheduler is at `address` (an InputError when it does not answer)."""
    try:
        client = dask().Client(address, timeout=CONNECT_TIMEOUT)
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
        try:
            for future in dask().as_completed(futures):
                yield of[future.key], future.result()
        finally:
            client.cancel(futures)

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
    if executor == "pool":
        with _pool(count) as run:
            yield run
        return
    with local_cluster(count) as local:
        yield on_client(local)


def cluster_workers(client: Any) -> int:
    """How many worker threads the client's cluster has now (at least 1)."""
    info = client.scheduler_info()
    return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))
