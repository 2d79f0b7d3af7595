"""The play loop keeps who is standing from the step that left it (issue 42, round 2): the end check before the
next step reads the step context's `standing` while no event of the step changed a stat it reads (the rules'
`standing_stats`), and computes it afresh otherwise. The same fights, the same bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import BoolArray, State
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "fights"


def _counted(monkeypatch: pytest.MonkeyPatch, fight: LoadedFight) -> list[int]:
    """Count the calls of the rules' `standing` of `fight`."""
    calls: list[int] = []
    original = type(fight.rules).standing

    def standing(self: Any, fight: LoadedFight, state: State) -> BoolArray:
        calls.append(1)
        out: BoolArray = original(self, fight, state)
        return out

    monkeypatch.setattr(type(fight.rules), "standing", standing)
    return calls


def test_a_step_that_hurts_nobody_leaves_its_standing_to_the_end_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A narrated fight: every step whose attack misses keeps who stands, so the rules' `standing` is asked fewer
    times than the fight has turns (the loop's end check and the turn order's `able` read the one kept; before,
    each asked it every step)."""
    fight = load_fight(EXAMPLES / "fullplate-skirmish.yaml")
    calls = _counted(monkeypatch, fight)
    log = narrate(fight, seed=3)
    turns = sum(1 for e in log.events if e["kind"] == "turn")
    hurt = sum(1 for e in log.events if e["kind"] == "damage")
    assert hurt < turns
    assert len(calls) <= hurt + 2  # the first check, one after each damage, one spare


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.yaml"))[:6])
def test_the_kept_standing_is_the_rules_standing(name: str) -> None:
    """Every end check of a narrated fight reads what the rules' `standing` gives on the state it checks."""
    from tohit.engine.fight import play

    fight = load_fight(EXAMPLES / name)
    seen: list[bool] = []
    original = play.decided

    def decided(fight: LoadedFight, state: State, max_rounds: int | None, standing: BoolArray | None = None) -> Any:
        if standing is not None:
            seen.append(bool(np.array_equal(standing, fight.rules.standing(fight, state))))
        return original(fight, state, max_rounds, standing)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(play, "decided", decided)
        narrate(fight, seed=5)
    assert seen and all(seen)
