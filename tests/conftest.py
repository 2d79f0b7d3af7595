"""Shared test helpers."""

from __future__ import annotations

import faulthandler
import math
import os
import signal
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import settings

from tests.entry_points import GamePackages
from tests.subprocesses import worker_ends_with_the_run
from tohit.engine import registry
from tohit.engine.scenario import Loaded, from_dict

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

# The fuzz suite (tests/test_fuzz.py): a bounded run in `make test`, the long campaign in `make fuzz`
# (`pytest tests/test_fuzz.py --hypothesis-profile=fuzz`).
settings.register_profile("fuzz-quick", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("fuzz", max_examples=3000, deadline=None)
# Every other property test: hypothesis's own profile without its 200 ms deadline per example, a stopwatch that a
# loaded machine trips (test_fight_situation's pack property did, at load 7); `--hypothesis-profile` still chooses.
settings.register_profile("no-stopwatch", deadline=None)
settings.load_profile("no-stopwatch")


#: Python code that gives Ctrl-C its default meaning back in a child process started with `python -c`: a child
#: inherits SIGINT ignored from a test run started in the background (a shell's `&`), and then never stops on it.
CTRL_C_RESTORED = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
#: `tohit ...` as `python -c CODE ...`, with Ctrl-C restored.
TOHIT_CODE = CTRL_C_RESTORED + "import sys; from tohit.cli.app import main; sys.argv[0] = 'tohit'; main()"


def pytest_configure(config: pytest.Config) -> None:
    """A run stopped from outside (SIGTERM: CI past its time limit) first prints every thread's stack, past the
    output capture, so that what it waited for is seen (under pytest-xdist each worker prints its own, as it
    ends with the run). A test that hangs is stopped by pytest-timeout first."""

    run = os.getpid()

    def stacks_then_stop(signum: int, frame: FrameType | None) -> None:
        capture = config.pluginmanager.getplugin("capturemanager")
        if os.getpid() == run:  # not in a worker forked from the run: it stops as it would have
            if capture is not None:
                capture.suspend_global_capture(in_=True)
            sys.stderr.write("\nstopped from outside (SIGTERM); every thread's stack:\n")
            sys.stderr.flush()
            faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)

    signal.signal(signal.SIGTERM, stacks_then_stop)
    if hasattr(config, "workerinput"):  # a worker of pytest-xdist ends with the run (its stacks printed first)
        worker_ends_with_the_run()
    for message, category in FILTERED:
        config.addinivalue_line("filterwarnings", f"ignore:{message}:{category.__name__}")


#: Warnings of the libraries the tests use that the tests leave alone, each with its reason (issue 40, item 5):
#: (the start of the message, its category).
FILTERED: tuple[tuple[str, type[Warning]], ...] = (
    # fastapi.testclient is Starlette's TestClient, which warns that it runs on httpx (Starlette now wants
    # httpx2). The tests use it as FastAPI documents it; the server itself never imports it, and httpx2 is not a
    # dependency of the test tools.
    ("Using `httpx` with `starlette.testclient` is deprecated", UserWarning),
)
# Also from here on, before pytest_configure: a conftest given on the command line (tests/server/conftest.py
# imports fastapi.testclient) is imported before it runs, while pytest records the warnings of its start.
for _message, _category in FILTERED:
    warnings.filterwarnings("ignore", message=_message, category=_category)


def scenario(data: dict[str, Any]) -> Loaded:
    """Validate a scenario given as a dict (as the Python API does)."""
    return from_dict(data, source="test")


@pytest.fixture
def exact_uncapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact duel's cap on seconds (requests.MAX_SECONDS, the default of `exact_duel`'s `seconds`: the command
    line's, the demo's and the Python API's) lifted for the test: a cap on time may only refuse, and a loaded
    machine refuses sooner; a test of what is answered must not fail on it. Lifted to no cap at all, not an hour: the
    solve's estimate of its time, from its rate in its first seconds, reached an hour once on a machine at load 10
    (its process waiting its turn for the core), and refused a chain of seconds."""
    from tohit.engine.fight.exact import exact_duel

    defaults = exact_duel.__kwdefaults__
    assert defaults is not None  # `seconds` is keyword-only: it has a keyword default
    monkeypatch.setitem(defaults, "seconds", math.inf)


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


@pytest.fixture
def game_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GamePackages]:
    """Fake installed packages for the registry (tests/entry_points.py), gone after the test:
    `game_packages.register(name, "package.module:SYSTEM", dist=...)` registers a game by entry point in group
    `tohit.systems`, as an installed package registers it."""
    root = tmp_path / "site-packages"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    registry.systems.cache_clear()
    yield GamePackages(root)
    registry.systems.cache_clear()
