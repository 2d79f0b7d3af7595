"""Where a fight batch's time goes (`python -m benchmarks.fight_where`, issue 42 item 1): each part of the loop it
measures is a function the engine has, so that no share reads 0% because its function was renamed or moved (a
game's attack resolved on its rows alone, `resolve_at`, is a draw)."""

from __future__ import annotations

import ast
from pathlib import Path

from benchmarks import fight_where

ENGINE = Path(__file__).resolve().parents[1] / "src" / "tohit" / "engine" / "fight"


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
