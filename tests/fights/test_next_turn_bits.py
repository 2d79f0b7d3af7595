"""Whose turn comes next in the file's order (core/fight/rounds.py), for fights of 2, 4 or 8 combatants read through
a table of every answer (`NextPlaces`, issue 42): the same place, found or not, and combatant as the place-by-place
search gives, from any cursor and whoever is able, the round's first place too."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tohit.core.fight import rounds
from tohit.core.fight.state import State
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.load import fight_from_dict


def _fighter(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "attacker": {"thac0": 15, "damage_bonus": 1, "weapon": {"damage": "1d8"}},
        "target": {"ac": 5, "hp": 10},
        "attacks": [{"name": "weapon"}],
    }


@pytest.mark.parametrize("sizes", [(1, 1), (3, 1), (2, 2), (4, 4), (5, 3), (2, 1)])
def test_the_next_turn_by_the_table_is_the_place_by_place_search(
    monkeypatch: pytest.MonkeyPatch, sizes: tuple[int, int]
) -> None:
    """Every cursor (past the last place too) and a random mix of who is able: the table's answer is the search's
    (fights of 3 or 6 combatants are searched either way)."""
    data = {
        "system": "fullplate",
        "sides": [
            {"name": side, "combatants": [_fighter(f"{side} {i}") for i in range(count)]}
            for side, count in zip(("Red", "Blue"), sizes, strict=True)
        ],
    }
    fight = fight_from_dict(data, source="turns")
    size = fight.roster.size
    rng = np.random.default_rng(size)
    n = 4_000
    base = initial_state(fight, n)
    state = State(base.per, {**base.fight, "cursor": rng.integers(0, size + 2, size=n)})
    able = rng.random((n, size)) < 0.6
    rules: Any = fight.rules
    found = rules._next_at(fight, state, able, with_first=True)
    monkeypatch.setattr(rounds, "packed_rows", lambda x: None)  # the place-by-place search
    searched = rules._next_at(fight, state, able, with_first=True)
    for got, want in zip([*found[:3], *found[3][:3]], [*searched[:3], *searched[3][:3]], strict=True):
        assert got.tolist() == want.tolist()
