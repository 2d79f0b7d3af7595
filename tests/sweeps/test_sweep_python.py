"""issue 31, item 8 ("Python"): `tohit.sweep()` from a script without a `__main__` guard, results that render in a
notebook (`_repr_html_`, `to_dataframe()`, a short `repr()`), and a fight's wins by side name."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import tohit
from tests.conftest import EXAMPLES
from tohit.sweeps.execute import unguarded_main

BOW = EXAMPLES / "rtw" / "bow-vs-evasion.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"


def test_a_script_without_a_main_guard_sweeps_with_one_warning(tmp_path: Path) -> None:
    """Item 8: a plain script that calls `tohit.sweep()` at its top level ends well, with one warning line naming
    the script's line, and the table a guarded run (here: one process) gives."""
    script = tmp_path / "plain.py"
    script.write_text(
        "import tohit\n"
        f"data = tohit.sweep({str(DUEL)!r}, {{'sides[1].combatants[0].target.lp': '10,20'}}, n=40, seed=1, workers=2)\n"
        "print(data['win_Ceil'].tolist())\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Nanny" not in done.stderr
    assert f"{script}:2: RuntimeWarning: tohit.sweep is called at the top level of plain.py without" in done.stderr
    alone = tohit.sweep(DUEL, {"sides[1].combatants[0].target.lp": "10,20"}, n=40, seed=1, workers=1)
    assert done.stdout.strip() == str(alone["win_Ceil"].tolist())


def test_a_guarded_call_is_left_to_dask(tmp_path: Path) -> None:
    script = tmp_path / "guarded.py"
    script.write_text(
        "from tohit.sweeps.execute import unguarded_main\n"
        "print('top', unguarded_main() is not None)\n"
        "if __name__ == '__main__':\n"
        "    print('guarded', unguarded_main() is not None)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["top", "True", "guarded", "False"]
    assert unguarded_main() is None  # under pytest: no script's top level calls it


def test_results_render_in_a_notebook_as_tables() -> None:
    """`_repr_html_` is a table, `repr()` one short line, `to_dataframe()` tidy rows (exact stays a Fraction)."""
    odds = tohit.odds(tohit.load(BOW))
    data = odds.to_dataframe()
    hit = data[(data["field"] == "result") & (data["value"] == "hit")]
    assert hit["probability"].iloc[0] == Fraction(7, 12)
    assert "<table" in odds._repr_html_() and "7/12 (58.3%)" in odds._repr_html_()
    duel = tohit.load_fight(DUEL)
    results = [
        odds,
        tohit.simulate(tohit.load(BOW), 200, seed=1),
        tohit.fight(duel, n=50, seed=1),
        tohit.fight(duel, exact=True, depth=2),
        tohit.fight(duel, seed=1),
    ]
    for result in results:
        assert len(repr(result)) < 200 and "\n" not in repr(result)
        assert "<table" in result._repr_html_()
        assert len(result.to_dataframe()) > 0
    stats = results[2].to_dataframe()
    assert set(stats["measure"]) >= {"win", "draw", "survives", "damage dealt (mean)"}


def test_wins_by_side_name() -> None:
    stats = tohit.fight(tohit.load_fight(DUEL), n=50, seed=1)
    assert stats.wins("Ceil") == stats.wins(0) and stats.wins("Bandits") == stats.wins(1)
    for bad in ("Nobody", 5):
        with pytest.raises(tohit.InputError, match="the sides are Ceil, Bandits"):
            stats.wins(bad)
