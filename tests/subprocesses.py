"""Processes the tests start (`tohit serve`, `dask scheduler`, `dask worker`, busy loops) end with the test run,
even when the run is killed from outside (a CI job cancelled, `kill -9` of pytest): a fixture's `finally` then
never runs, and a `dask worker` left behind would retry a scheduler that is gone for as long as the machine is up.

On Linux each child asks the kernel, between fork and exec, for SIGTERM when its parent dies
(prctl(PR_SET_PDEATHSIG)); a child whose parent died before that ends itself at once. Elsewhere nothing is
asked (the fixtures' own `finally` still ends the children of a run that is not killed).

    subprocess.Popen([...], **ending_with_the_run())

The kernel's "parent" is the thread that started the child: start these processes from the main thread (as
fixtures and tests run), not from a thread that ends before them.

Under pytest-xdist (`make test` runs the suite in two worker processes) the run is the controlling process, and
the children are the workers' children: each worker asks the same for itself when it starts
(`worker_ends_with_the_run`, called by tests/conftest.py), so that a killed run ends its workers, and they theirs.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

#: prctl's option: the signal sent to this process when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: The C library's prctl, looked up here, in the parent: the child between fork and exec only calls it (no
#: dlopen there, whose lock another thread of the parent may have held at the fork).
PRCTL: Any = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def _end_with(parent: int) -> Callable[[], None]:
    """What the child runs before exec: SIGTERM when `parent` dies (now already, if it has)."""

    def preexec() -> None:
        if PRCTL(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
        if os.getppid() != parent:  # the parent died between the fork and the prctl
            os.kill(os.getpid(), signal.SIGTERM)

    return preexec


def ending_with_the_run() -> dict[str, Any]:
    """`subprocess.Popen`'s keyword arguments that make the child end when this process ends."""
    if not sys.platform.startswith("linux"):
        return {}
    return {"preexec_fn": _end_with(os.getpid())}


def worker_ends_with_the_run() -> None:
    """In a worker process of pytest-xdist: SIGTERM to itself when the run that started it (its parent) dies, as
    a child started with `ending_with_the_run` gets it; a worker whose run is already gone ends at once."""
    if PRCTL is None:
        return
    if PRCTL(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() == 1:  # the run died before the prctl: the worker was handed to init
        os.kill(os.getpid(), signal.SIGTERM)
