"""Games that do not know their mode (issue 36, item 6): a game's fight step draws its dice through calls every
mode implements (`choose`, `die`, `draw`, `roll`, `resolve`) and hands its words over lazily, so no module of a
game, nor the fight contract games build on, reads which mode runs it (`narrating`, `mode`), the narrated log or
script, or the context's random generator."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tohit.core.fight.contract import FightContext

SRC = Path(__file__).resolve().parents[1] / "src" / "tohit"
#: The games, and the contract code their steps run (round structure, consequences, rows).
GAME_SIDE = sorted([*(SRC / "systems").rglob("*.py"), *(SRC / "core" / "fight").rglob("*.py")])
#: What tells a mode apart: read on anything.
MODE_WORDS = frozenset({"narrating", "mode", "script"})
#: What only one mode fills or draws from: read on the step's context.
CONTEXT_ONLY = frozenset({"log", "rng"})


def mode_reads(tree: ast.AST) -> list[str]:
    """The places in `tree` that read the mode, the log, the script or the generator: "line: expression"."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        on_ctx = isinstance(node.value, ast.Name) and node.value.id == "ctx"
        if node.attr in MODE_WORDS or (on_ctx and node.attr in CONTEXT_ONLY):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", GAME_SIDE, ids=[str(p.relative_to(SRC)) for p in GAME_SIDE])
def test_no_game_module_reads_its_mode_the_log_or_the_dice_generator(path: Path) -> None:
    assert mode_reads(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_fight_context_offers_a_game_no_mode_log_script_or_generator() -> None:
    offered = set(dir(FightContext)) | set(FightContext.__annotations__)
    assert offered.isdisjoint(MODE_WORDS | CONTEXT_ONLY)


def test_the_checker_finds_a_mode_branch() -> None:
    tree = ast.parse("if ctx.narrating:\n    x = ctx.log[-1]\nelif ctx.mode == 'sample':\n    d = ctx.rng.random()\n")
    assert len(mode_reads(tree)) == 4
