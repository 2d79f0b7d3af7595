"""issue 31, item 9: Ctrl-C in the middle of a sweep on a LocalCluster is one line, with no worker's traceback,
whether the signal goes to the process alone or to its whole process group (as a terminal sends it).

The signal goes once the first point is written (one of 40), and the sweep must stop: a sweep that exits 0 is a
failure, not a skip. These tests used to skip in every suite started in the background, whose children inherit
SIGINT ignored (`TOHIT` below gives it back). A Ctrl-C Python drops in Dask's garbage-collector callback now stops
the sweep at its next point too (`cli/errors.py`, `on_sigint`; tests/sweeps/test_sweep_run.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, TOHIT_CODE
from tests.subprocesses import ending_with_the_run

#: `tohit` with Ctrl-C given its meaning back: a test run started in the background (a shell's `&`, as CI may start
#: it) hands its children SIGINT ignored, and a process that starts with it ignored keeps ignoring it (`main`).
TOHIT = [sys.executable, "-c", TOHIT_CODE]
BANDITS = EXAMPLES / "fights" / "kaiser-party-vs-bandits.yaml"


@pytest.mark.parametrize("group", [True, False], ids=["process group", "process"])
def test_ctrl_c_is_one_line(tmp_path: Path, group: bool) -> None:
    out = tmp_path / "t.csv"
    args = [
        *TOHIT,
        "sweep",
        str(BANDITS),
        "--vary",
        "count:Bandit=1..8",
        "--vary",
        "sides[1].combatants[0].target.lp=20..40:5",
    ]
    args += ["-n", "1500", "--seed", "1", "--workers", "2", "--out", str(out)]
    process = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **ending_with_the_run()
    )
    deadline = time.monotonic() + 90
    while not out.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    if group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=90)
    # Not a skip when it exits 0: one of 40 points was written when the signal went, and a sweep that ran on to its
    # end had dropped the Ctrl-C (it did, in a loaded suite, where this test used to skip).
    assert process.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip()]  # (the progress bar may leave a blank line)
    assert len(lines) == 1 and lines[0].startswith("error: interrupted (Ctrl-C): stopped; "), err


def test_sigterm_is_one_line(tmp_path: Path) -> None:
    """issue 41, item 6: SIGTERM to a sweep says "stopped; N of M points written ... --resume" and nothing else
    (not a second "stopped, nothing written" as well)."""
    out = tmp_path / "t.csv"
    args = [*TOHIT, "sweep", str(BANDITS), "--vary", "count:Bandit=1..8", "--vary"]
    args += ["sides[1].combatants[0].target.lp=20..40:5", "-n", "1500", "--seed", "1", "--workers", "2"]
    args += ["--out", str(out)]
    process = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **ending_with_the_run()
    )
    deadline = time.monotonic() + 90
    while not out.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=90)
    assert process.returncode == 143, err  # (not a skip when it exits 0: see test_ctrl_c_is_one_line)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: terminated (SIGTERM): stopped; "), err
    assert "--resume" in lines[0]
