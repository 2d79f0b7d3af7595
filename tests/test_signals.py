"""Long commands stop on the first Ctrl-C or SIGTERM (issue 20, item 1): within a few seconds, their worker
processes ended (none orphaned), one `error:` line, exit 130 / 143, and no result printed as if complete."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT, TOHIT_CODE
from tests.subprocesses import ending_with_the_run

CEIL = str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml")
DUEL = str(EXAMPLES / "fights" / "wsswnn-kulu-brute.yaml")
COMMANDS = {
    "simulate": ["simulate", CEIL, "-n", "10000000000", "--workers", "2"],
    "fight": ["fight", DUEL, "-n", "100000000", "--workers", "2"],
}


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc for the worker processes")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_long_command_stops_on_first_signal_and_leaves_no_worker(command: str, sig: signal.Signals) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-c", TOHIT_CODE, *COMMANDS[command]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        **ending_with_the_run(),
    )
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        workers |= children(proc.pid)
        time.sleep(0.1)
    assert len(workers) >= 2, "the workers never started"
    time.sleep(1.0)  # working
    sent = time.monotonic()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    took = time.monotonic() - sent
    assert took < 5, f"stopped after {took:.1f} s"
    assert proc.returncode == 128 + int(sig), (proc.returncode, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "outcome" not in out and "win" not in out  # no result printed as if complete
    time.sleep(0.5)
    assert not [w for w in workers if alive(w)], "orphaned workers"


def test_a_stopped_pool_leaves_its_manager_off_the_exit_hook() -> None:
    """`stop` takes the pool's manager thread off concurrent.futures' exit hook, whose unlocked wake-up of that
    thread's pipe raced the thread closing it ("Exception ignored ... OSError: Bad file descriptor" after a
    stopped command's error line, seen on a loaded machine). The thread is taken before `shutdown` forgets it."""
    import multiprocessing
    from concurrent.futures import process as futures_process

    from tohit.engine.pool import process_pool, stop

    with process_pool(1, multiprocessing.get_context("fork")) as pool:
        started = pool.submit(time.sleep, 0)
        started.result(timeout=30)
        pool.submit(time.sleep, 30)
        manager = pool._executor_manager_thread  # held here, so the hook's weak entry cannot vanish by itself
        assert manager is not None and manager in futures_process._threads_wakeups
        stop(pool)
        assert manager not in futures_process._threads_wakeups
        manager.join(timeout=10)
        assert not manager.is_alive()
