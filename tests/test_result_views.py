"""Issue 31, "Python": the notebook views (`to_dataframe()`, `_repr_html_`, a one-line `repr()`) and a fight's wins
by side name are the engine's result classes' own methods (engine/frames.py), there without `tohit.api` (nothing
patches them in), and building them is what loads pandas: a roll never does."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.engine.fight.exact import ExactResult
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import FightLog, FightStats, simulate_fights
from tohit.engine.frames import Views, side_index
from tohit.engine.odds import OddsResult
from tohit.engine.simulate import SimResult

BOW = EXAMPLES / "rtw" / "bow-vs-evasion.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"

#: A fresh process that imports only the engine, builds each result and reads its views.
ENGINE_ONLY = f"""
import json, sys
from tohit.engine.scenario import load
from tohit.engine.odds import odds
from tohit.engine.simulate import simulate
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights

attack, duel = load({str(BOW)!r}), load_fight({str(DUEL)!r})
before = "pandas" in sys.modules
results = [
    odds(attack), simulate(attack, 200, 1), simulate_fights(duel, 50, 1), exact_duel(duel, depth=2), narrate(duel, 1)
]
seen = [[type(r).__name__, repr(r), len(r.to_dataframe()), "<table" in r._repr_html_()] for r in results]
stats = results[2]
print(json.dumps({{
    "api": "tohit.api" in sys.modules, "pandas_before": before, "seen": seen,
    "wins": [stats.wins("Ceil") == stats.wins(0), stats.wins("Bandits") == stats.wins(1)],
}}))
"""


def test_the_views_are_the_result_classes_own_without_the_api() -> None:
    """The views exist when only the engine is imported: each result is a table in a notebook, one short line in
    `repr()`, and its rows in `to_dataframe()`; `FightStats.wins` takes a side's name."""
    done = subprocess.run([sys.executable, "-c", ENGINE_ONLY], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["api"] is False and got["pandas_before"] is False  # no API imported; pandas only once a frame is built
    names = [row[0] for row in got["seen"]]
    assert names == ["OddsResult", "SimResult", "FightStats", "ExactResult", "FightLog"]
    for name, text, rows, table in got["seen"]:
        assert text.startswith(f"<{name}") and len(text) < 200 and "\n" not in text
        assert rows > 0 and table
    assert got["wins"] == [True, True]


def test_every_result_class_defines_its_views_in_its_body() -> None:
    """No view is attached from outside: each class is a `Views`, with its own frame, title and repr."""
    for cls in (OddsResult, SimResult, FightStats, ExactResult, FightLog):
        assert issubclass(cls, Views)
        assert {"_frame", "_title", "__repr__"} <= set(vars(cls)), cls.__name__


def test_wins_takes_a_side_by_name_or_index_and_refuses_another() -> None:
    stats = simulate_fights(load_fight(DUEL), 30, 2)
    assert stats.wins("Bandits") == stats.wins(1) == stats.wins(np.int64(1))
    assert stats.wins("Ceil") + stats.wins("Bandits") + stats.draws == 30
    for bad in ("ceil", -1, 2, True, 1.0, None):
        with pytest.raises(InputError, match="the sides are Ceil, Bandits") as caught:
            stats.wins(bad)  # type: ignore[arg-type]
        assert caught.value.field == "side"


def test_side_index_reads_a_name_or_a_whole_number() -> None:
    names = ("Ceil", "Bandits")
    assert [side_index(names, s) for s in ("Ceil", "Bandits", 0, 1, np.int32(1))] == [0, 1, 0, 1, 1]
    with pytest.raises(InputError, match="no side 'x'; the sides are Ceil, Bandits"):
        side_index(names, "x")


def test_a_roll_never_loads_pandas() -> None:
    """`tohit --help` and `tohit roll` import no pandas: the frames import it only when one is built."""
    code = (
        "import json, sys\n"
        "from tohit.cli.app import main\n"
        "for argv in (['--help'], ['roll', {path!r}, '--seed', '1']):\n"
        "    sys.argv = ['tohit', *argv]\n"
        "    try:\n        main()\n    except SystemExit:\n        pass\n"
        "sys.stderr.write(json.dumps('pandas' in sys.modules))\n"
    ).format(path=str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stderr.strip().splitlines()[-1]) is False


def test_without_pandas_a_frame_says_what_to_install_and_the_notebook_shows_the_repr(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stats = simulate_fights(load_fight(DUEL), 20, 3)
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now fails, as where it is not installed
    with pytest.raises(ModuleNotFoundError, match=r"^to_dataframe\(\) needs pandas: pip install 'tohit\[sweep\]'$"):
        stats.to_dataframe()
    assert stats._repr_html_() is None and repr(stats).startswith("<FightStats 20 fights: Ceil ")
