"""The calls a game's step makes on the fight context are the same in every mode (issue 36, item 6): its words
are made only when the fight is told (`emit` with a function, `tell`), and a roll it declares (`FightRoll`) is
rolled face by face when told, drawn as arrays when sampled and weighed face by face in the exact chain."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from tohit.core.fight.rolls import FightRoll
from tohit.core.fight.state import IntArray
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes import DirectSample, Exact, Narration, TableSample
from tohit.engine.fight.modes.base import StepContext

FIGHT = load_fight(EXAMPLES / "fights" / "kaiser-duel.yaml")


def _total(args: Mapping[str, Any], faces: Mapping[str, IntArray]) -> IntArray:
    """The two dice's sum plus the `bonus` argument."""
    out: IntArray = faces["die"].sum(axis=1) + np.asarray(args["bonus"])
    return out


#: A toy roll: 2d4 + bonus.
TWO_D4 = FightRoll("toy", (("die", (4, 4)),), _total)
#: The same, its dice read from the attack just resolved when told.
SHOWN = FightRoll("toy", (("die", (4, 4)),), _total, ("die",))


def context(kind: type[StepContext], n: int = 1) -> StepContext:
    state = initial_state(FIGHT, n)
    if kind is Exact:
        return Exact(FIGHT, state)
    return kind(FIGHT, state, np.random.default_rng(5))


def unsaid() -> str:
    raise AssertionError("a batch made an event's words")


@pytest.mark.parametrize("kind", [DirectSample, TableSample, Exact])
def test_a_batch_never_makes_an_events_words(kind: type[StepContext]) -> None:
    ctx = context(kind, 3)
    ctx.emit("round", [ctx.set("round", np.arange(3), 2)], unsaid, round=unsaid)
    ctx.tell("aside", unsaid)
    assert ctx.state.fight["round"].tolist() == [2, 2, 2] and ctx.log == []


def test_a_told_fight_makes_each_events_words_once() -> None:
    ctx = context(Narration)
    calls: list[str] = []

    def words() -> str:
        calls.append("text")
        return "Round 2"

    ctx.emit("round", [ctx.set("round", np.arange(1), 2)], words, round=lambda: 2)
    ctx.tell("aside", lambda: "an aside")
    ctx.tell("nothing", lambda: None)
    assert calls == ["text"]
    assert [(e["kind"], e["text"], e.get("round")) for e in ctx.log] == [
        ("round", "Round 2", 2),
        ("aside", "an aside", None),
    ]


def test_a_declared_roll_is_weighed_face_by_face_in_the_exact_chain() -> None:
    ctx = context(Exact, 2)
    assert isinstance(ctx, Exact)
    rolled = ctx.roll(np.asarray([1]), TWO_D4, {"bonus": np.asarray([10])})
    weights = {
        int(v): Fraction(int(w), ctx.denominator)
        for v, w, p in zip(rolled.value, ctx.weight, ctx.parent, strict=True)
        if p == 1
    }
    assert weights == {
        12: Fraction(1, 16),
        13: Fraction(2, 16),
        14: Fraction(3, 16),
        15: Fraction(4, 16),
        16: Fraction(3, 16),
        17: Fraction(2, 16),
        18: Fraction(1, 16),
    }
    assert [int(v) for v, p in zip(rolled.value, ctx.parent, strict=True) if p == 0] == [0]  # a row the roll is not for


@pytest.mark.parametrize("kind", [DirectSample, TableSample])
def test_a_declared_roll_is_drawn_as_arrays_when_sampled(kind: type[StepContext]) -> None:
    ctx = context(kind, 4)
    rolled = ctx.roll(np.asarray([0, 2]), TWO_D4, {"bonus": 1})
    faces = np.random.default_rng(5).integers(1, 5, size=(2, 2))
    assert rolled.faces["die"].tolist() == faces.tolist()
    assert rolled.value.tolist() == [int(faces[0].sum()) + 1, 0, int(faces[1].sum()) + 1, 0]


def test_a_told_roll_takes_the_faces_typed_then_rolls_the_rest() -> None:
    ctx = context(Narration)
    assert isinstance(ctx, Narration)
    ctx.script = [{"die": [4, 3]}]
    assert ctx.roll(np.asarray([0]), TWO_D4, {"bonus": 0}).value.tolist() == [7]
    again = ctx.roll(np.asarray([0]), TWO_D4, {"bonus": 0})
    assert again.faces["die"].tolist() == [np.random.default_rng(5).integers(1, 5, size=2).tolist()]


def test_a_told_roll_reads_the_dice_the_attack_showed() -> None:
    ctx = context(Narration)
    assert isinstance(ctx, Narration)
    ctx.shown = {"die": [2, 2]}
    assert ctx.roll(np.asarray([0]), SHOWN, {"bonus": 5}).value.tolist() == [9]
