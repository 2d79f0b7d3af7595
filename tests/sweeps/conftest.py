"""Shared Dask clusters for the sweep tests, started once per session (a cluster takes seconds to start):
an in-process LocalCluster of two workers, and a real cluster of `dask scheduler` and two `dask worker`
processes on 127.0.0.1 (random free ports), ended when the session ends."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.subprocesses import ending_with_the_run
from tohit.sweeps.execute import dask, local_cluster

DASK = Path(sys.executable).parent / "dask"
#: Seconds the external cluster may take to start.
START_TIMEOUT = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def local_client() -> Iterator[Any]:
    """A Client on an in-process LocalCluster of two worker processes."""
    with local_cluster(2) as client:
        yield client


@contextmanager
def external_cluster(workers: int = 2) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """`dask scheduler` and `workers` `dask worker` processes on 127.0.0.1 (a random free port, no nanny: one
    process per worker, so ending it ends the worker); yields the scheduler's address and the worker processes.
    Every process is ended on the way out (SIGTERM, then SIGKILL after 5 s)."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    # Each ends with the test run, even a run killed from outside (a worker left behind retries the scheduler).
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, **ending_with_the_run()}
    processes = [
        subprocess.Popen(
            [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], **quiet
        )
    ]
    try:
        for _ in range(workers):
            processes.append(
                subprocess.Popen(
                    [
                        str(DASK),
                        "worker",
                        address,
                        "--host",
                        "127.0.0.1",
                        "--nworkers",
                        "1",
                        "--nthreads",
                        "1",
                        "--no-dashboard",
                        "--no-nanny",  # one process per worker: ending it ends the worker
                    ],
                    **quiet,
                )
            )
        client = dask().Client(address, timeout=START_TIMEOUT)
        try:
            client.wait_for_workers(workers, timeout=START_TIMEOUT)
        finally:
            client.close()
        yield address, processes[1:]
    finally:
        for process in reversed(processes):
            process.terminate()
        deadline = time.monotonic() + 5
        for process in processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="session")
def scheduler_address() -> Iterator[str]:
    """A real cluster (`external_cluster`) for the session; yields the scheduler's address."""
    with external_cluster(2) as (address, _):
        yield address
