"""issue 40, item 5: the processes the tests start (`tohit serve`, `dask scheduler`, `dask worker`, busy loops)
end with the test run, even when the run is killed from outside (`tests/subprocesses.py`)."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.subprocesses import ending_with_the_run

TESTS = ROOT / "tests"

#: A stand-in for pytest: it starts a long child as the test helpers do, says the child's pid, then waits.
PARENT = """
import subprocess, sys, time
from tests.subprocesses import ending_with_the_run
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], **ending_with_the_run())
print(child.pid, flush=True)
time.sleep(600)
"""


def running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie waiting for init to reap it has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_child_of_a_killed_test_run_ends_with_it() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")])}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], env=env, stdout=subprocess.PIPE, text=True, **ending_with_the_run()
    )
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert running(child)
        parent.kill()  # as a CI job cancelled, or `kill -9` of pytest: no `finally` of the run's runs
        parent.wait(timeout=30)
        deadline = time.monotonic() + 30
        while running(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        ended = not running(child)
        if not ended:
            os.kill(child, signal.SIGKILL)  # this test's own leftover, not the next one's
        assert ended, "the child outlived the run that started it"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


#: A test for a run of pytest-xdist: it starts a long child as the test helpers do, writes its worker's pid and the
#: child's into the pipe named in PIDS, then waits.
HANGING_TEST = """
import os, subprocess, sys, time
from tests.subprocesses import ending_with_the_run

def test_hangs():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], **ending_with_the_run())
    with open(os.environ["PIDS"], "w") as pipe:
        pipe.write(f"{os.getpid()} {child.pid}\\n")
    time.sleep(600)
"""


def ended_within(pids: list[int], seconds: float) -> bool:
    """Whether every process of `pids` has ended within `seconds` (those left are killed: this test's leftovers,
    not the next one's)."""
    deadline = time.monotonic() + seconds
    while any(map(running, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in pids if running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return not left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_worker_of_a_killed_xdist_run_ends_with_it_and_its_child_too(tmp_path: Path) -> None:
    """`make test` runs the suite in two pytest-xdist workers: a worker (tests/conftest.py asks for it) ends with
    the run that started it, and the children of its tests with it."""
    (tmp_path / "test_hanging.py").write_text(HANGING_TEST)
    pids = tmp_path / "pids"
    os.mkfifo(pids)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")]), "PIDS": str(pids)}
    # Only xdist and the tests' conftest (the other plugins' start-up is most of a small run's time).
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    plugins = ["-p", "xdist.plugin", "-p", "tests.conftest", "-p", "no:cacheprovider"]
    args = [*plugins, "-n", "1", "--rootdir", str(tmp_path)]
    run = subprocess.Popen([sys.executable, "-m", "pytest", *args, str(tmp_path / "test_hanging.py")],
                           cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           **ending_with_the_run())  # fmt: skip
    try:
        with open(pids) as pipe:  # waits for the test to write: a bound on a hang is pytest-timeout's
            worker, child = map(int, pipe.readline().split())
        assert running(worker) and running(child)
        run.kill()  # as a CI job cancelled, or `kill -9` of pytest: no `finally` of the run's runs
        run.wait(timeout=30)
        assert ended_within([worker, child], 30), "the worker or its child outlived the run that started them"
        assert run.stderr is not None
        assert "stopped from outside (SIGTERM)" in run.stderr.read().decode()  # the worker's stacks, printed
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


def popen_calls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Popen"
    ]


def ends_with_the_run(call: ast.Call) -> bool:
    """The call passes `**ending_with_the_run()`, directly or through a dict that spreads it."""
    spread = [k.value for k in call.keywords if k.arg is None]
    return any("ending_with_the_run" in ast.unparse(value) for value in spread)


def test_every_process_the_tests_start_ends_with_the_run() -> None:
    """Every `subprocess.Popen` in the tests (the helpers starting `tohit serve`, `dask scheduler` and
    `dask worker` among them) asks for it, through `ending_with_the_run` (or a dict of options built with it,
    as the sweep tests' cluster does)."""
    calls = {path: popen_calls(path) for path in sorted(TESTS.rglob("*.py"))}
    assert sum(map(len, calls.values())) >= 8  # the check found the helpers
    quiet_options = (TESTS / "sweeps" / "conftest.py").read_text(encoding="utf-8")
    assert "**ending_with_the_run()}" in quiet_options  # the cluster's options spread it
    missing = [
        f"{path.relative_to(ROOT)}:{call.lineno}"
        for path, found in calls.items()
        for call in found
        if not ends_with_the_run(call) and "**quiet" not in ast.unparse(call)
    ]
    assert not missing, "started without ending_with_the_run: " + ", ".join(missing)
