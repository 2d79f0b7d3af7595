"""The structure: one loop owns ending (issue 36, item 1). `engine/fight/play.py` alone decides that a fight is over
and writes its end; every other module plays a fight forward through it. Every module under src/tohit is parsed
with `ast` and held to that:

- an end is written only by the loop: no other module emits an `end` event, builds one as a mapping, or changes a
  fight's `over` or `winner`;
- the rules are played forward only by the loop: no other module calls the rules' `step` or `turn` (a game's own
  code calls its own `self.step` / `super().step`, which is the game's, not a loop);
- a fight is decided over only by the loop: no other module defines an end check, reads a fight's `over` or
  `winner` off a state, or counts the sides with someone standing (`side_columns`), except the places listed in
  SIDES_READ, each with why it is no end check.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import pytest

from tests.test_layers import TREES, parse_sources

LOOP = "tohit.engine.fight.play"
#: Modules that read the sides with someone standing without deciding that a fight is over: each with its reason.
SIDES_READ = {
    "tohit.core.fight.state": "defines `side_columns` (the roster's columns of each side)",
    "tohit.core.fight.rounds": "a round's turns stop once one side is left (inside a step; the loop ends the fight)",
    "tohit.systems.last_odyssey.fight_turn": "a side's back row comes forward when its front row is down",
}
#: The names an end check would go by.
CHECK_NAMES = {"ended", "decided", "is_over", "fight_over", "over_now"}
END_STATS = {"over", "winner"}


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def end_writes(tree: ast.AST) -> Iterator[str]:
    """Where a module writes an end: `emit("end", ...)`, a mapping with kind "end", a change of over / winner."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            first, name = _text(node.args[0]), _called(node)
            if name == "emit" and first == "end":
                yield f"line {node.lineno}: emits an end event"
            if name in ("change", "set") and first in END_STATS:
                yield f"line {node.lineno}: changes the fight's {first}"
        if isinstance(node, ast.Dict):
            pairs = {_text(k): _text(v) for k, v in zip(node.keys, node.values, strict=True) if k is not None}
            if pairs.get("kind") == "end":
                yield f"line {node.lineno}: builds an end event"


def plays_forward(tree: ast.AST) -> Iterator[str]:
    """Where a module plays the rules forward itself: `<...>.rules.step(...)`, `rules.turn(...)`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("step", "turn"):
            owner = node.func.value
            if (isinstance(owner, ast.Attribute) and owner.attr == "rules") or (
                isinstance(owner, ast.Name) and owner.id == "rules"
            ):
                yield f"line {node.lineno}: calls the rules' {node.func.attr}"


def decides_over(tree: ast.AST, name: str) -> Iterator[str]:
    """Where a module decides a fight is over: an end check defined or imported by name, a state's over / winner
    read, the sides with someone standing counted (outside SIDES_READ)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in CHECK_NAMES and _of_a_fight(node):
            yield f"line {node.lineno}: defines an end check ({node.name})"
        if isinstance(node, ast.ImportFrom) and any(alias.name in CHECK_NAMES for alias in node.names):
            yield f"line {node.lineno}: imports an end check by name (call the loop's: play.decided)"
        if isinstance(node, ast.Subscript) and _text(node.slice) in END_STATS:
            owner = node.value
            if isinstance(owner, ast.Attribute) and owner.attr == "fight":
                yield f"line {node.lineno}: reads the fight's {_text(node.slice)} off a state"
        if isinstance(node, ast.Attribute) and node.attr == "side_columns" and name not in SIDES_READ:
            yield f"line {node.lineno}: counts the sides with someone standing"


def _of_a_fight(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function of a fight or its state (a server stream's `ended()` is not an end check)."""
    return any(arg.arg in ("fight", "state", "ctx") for arg in node.args.args)


def problems(modules: dict[str, tuple[ast.Module, bool]]) -> list[str]:
    out = []
    for name, (tree, _) in sorted(modules.items()):
        if name == LOOP:
            continue
        for found in (*end_writes(tree), *plays_forward(tree), *decides_over(tree, name)):
            out.append(f"{name}: {found}")
    return out


def test_one_loop_owns_ending() -> None:
    """No module but engine/fight/play.py decides that a fight is over, writes its end or plays the rules forward."""
    modules = TREES
    assert problems(modules) == []
    assert LOOP in modules


def test_the_loop_itself_does_what_the_others_may_not() -> None:
    """The checks see the loop's own end check, end event and step: they are not blind."""
    tree = TREES[LOOP][0]
    assert list(end_writes(tree)) and list(plays_forward(tree)) and list(decides_over(tree, "x"))


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ('ctx.emit("end", [])', "emits an end event"),
        ('events.append({"kind": "end", "changes": []})', "builds an end event"),
        ('ctx.emit("x", [change("over", rows, 1)])', "changes the fight's over"),
        ('ctx.set("winner", rows, 0)', "changes the fight's winner"),
        ("fight.rules.step(ctx)", "calls the rules' step"),
        ("rules.turn(ctx, acting, actor)", "calls the rules' turn"),
        ("def ended(fight, state):\n    return None", "defines an end check"),
        ("def decided(self, ctx):\n    return None", "defines an end check"),
        ("from tohit.engine.fight.play import decided", "imports an end check by name"),
        ('done = state.fight["over"] == 1', "reads the fight's over off a state"),
        ("up = [standing[:, m] for m in fight.roster.side_columns]", "counts the sides with someone standing"),
    ],
)
def test_the_one_loop_check_finds_each_way_around_the_loop(source: str, said: str) -> None:
    found = problems(parse_sources({"tohit.engine.elsewhere": source}))
    assert len(found) == 1 and said in found[0], found


def test_a_games_own_step_and_turn_are_its_own() -> None:
    """A game calls its own `self.turn` and `super().step` inside its step: that is no loop around the loop."""
    source = "class R:\n    def step(self, ctx):\n        super().step(ctx)\n        self.turn(ctx, a, b)\n"
    source += "def ended():\n    return 'the stream closed'\n"  # no fight's: a server stream's end
    assert problems(parse_sources({"tohit.systems.game.fight": source})) == []


#: The longest function the engine may hold, in lines (the exact duel was one of 179 before it was split).
LONGEST = 120


def test_no_engine_function_is_over_120_lines() -> None:
    """Functions short: the exact duel split into its budget, its chain's exploration and its steps."""
    long = [
        f"{name}.{node.name}: {node.end_lineno - node.lineno + 1} lines"
        for name, (tree, _) in TREES.items()
        if name.startswith("tohit.engine")
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > LONGEST
    ]
    assert long == []
