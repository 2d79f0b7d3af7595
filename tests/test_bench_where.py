"""Where a fight batch's time goes (`python -m benchmarks.fight_where`, issue 42 item 1): each part of the loop it
measures is a function the engine has, so that no share reads 0% because its function was renamed or moved (a
game's attack resolved on its rows alone, `resolve_at`, is a draw)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks import fight_where

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "src" / "tohit" / "engine" / "fight"


def _functions(name: str) -> set[str]:
    """The functions and methods defined in the engine's fight modules of file name `name`."""
    found: set[str] = set()
    for path in ENGINE.rglob(name):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    return found


def test_each_part_the_tool_measures_is_a_function_of_the_engine() -> None:
    missing = [(file, name) for file, name in fight_where.PARTS if name not in _functions(file)]
    assert missing == []


def test_a_game_s_attacks_resolved_on_their_rows_alone_count_as_draws() -> None:
    assert fight_where.PARTS[("table.py", "resolve_at")] == "draws"


def _f(file: str, name: str) -> fight_where.Func:
    return (f"/src/tohit/engine/fight/{file}", 1, name)


LOOP, STEP, ADVANCE = _f("play.py", "play_out"), _f("play.py", "step"), _f("play.py", "advance")
TABLE, DRAWN, STALL = _f("modes/table.py", "resolve"), _f("modes/drawn.py", "resolve"), _f("run.py", "stall")


def test_a_draw_made_inside_a_draw_counts_once_and_a_stalemate_check_s_step_is_not_the_loop_s() -> None:
    """A loop of 100: its steps 80 (of which a resolve 30, which hands 20 of it to the drawn resolve, as a shared
    roll does), and a stalemate check of 10 whose own step takes 6: draws 30, the game's own step 50, the
    stalemate 10 (the check's step counted in it alone)."""
    stats: fight_where.Stats = {
        LOOP: (1, 1, 0.0, 100.0, {}),
        STEP: (3, 3, 0.0, 86.0, {LOOP: (2, 2, 0.0, 80.0), ADVANCE: (1, 1, 0.0, 6.0)}),
        TABLE: (1, 1, 0.0, 30.0, {STEP: (1, 1, 0.0, 30.0)}),
        DRAWN: (1, 1, 0.0, 20.0, {TABLE: (1, 1, 0.0, 20.0)}),
        STALL: (1, 1, 0.0, 10.0, {LOOP: (1, 1, 0.0, 10.0)}),
        ADVANCE: (1, 1, 0.0, 6.0, {STALL: (1, 1, 0.0, 6.0)}),
    }
    assert fight_where.shares(stats) == {"game's own step": 0.5, "draws": 0.3, "stalemate": 0.1}


@pytest.mark.parametrize(
    ("module", "words"),
    [
        ("benchmarks.fight_where", "no bench fights for 'no-such-game'"),
        ("benchmarks", "no benchmark named 'no-such-game'"),
    ],
)
def test_an_unknown_name_is_one_line_and_exit_2(module: str, words: str) -> None:
    """A name no bench has: argparse's usage and one error line naming it, exit 2 (before: a KeyError's traceback
    from fight_where, and an empty table with exit 0 from the benchmarks' runner)."""
    out = subprocess.run(
        [sys.executable, "-m", module, "no-such-game"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.returncode == 2
    assert words in out.stderr.strip().splitlines()[-1]
    assert "Traceback" not in out.stderr and out.stdout == ""
