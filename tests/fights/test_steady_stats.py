"""Steady stats (core/fight/contract.py `steady`, engine/fight/situation.py `steady_values`): a bound stat that
every combatant of a batch holds at one value, and that no step of the fight can change, keys the table
sampler's draws by that value, read once a batch; the draws stay the same. Last Odyssey's statuses, Bonus
Tracker and Body Armor (Statuses, Buffs and Debuffs, Death and Injury, Body Armor: the game's pages)."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest

from tests.fights.helpers import load
from tests.fights.test_last_odyssey_fight import STRIKE, character, fight
from tohit.core.errors import InputError
from tohit.engine.fight.caches import caches
from tohit.engine.fight.run import initial_state, simulate_fights
from tohit.engine.fight.situation import SituationKey, steady_values
from tohit.systems.last_odyssey.consequences import BIT
from tohit.systems.last_odyssey.fight import LastOdysseyFight

FIRE = {"name": "Fire", "attack": {"kind": "magical", "type": "ranged", "element": "fire"}}
LOCK = {"name": "Thunder Lock", "attack": {"kind": "status", "type": "ranged", "element": "thunder"}}
ROAR = {"name": "Roar", "attack": {"kind": "buff", "type": "self", "stat": "physical_attack"}}


def plain(**over: Any) -> Any:
    """A Last Odyssey duel whose abilities give no status and move no tracker."""
    return load(fight([character("A", **over)], [character("B", attacks=[STRIKE, FIRE])]))


def test_steady_stats_last_odyssey_no_ability_gives_a_status_so_statuses_and_tracker_are_steady() -> None:
    """Statuses and the Bonus Tracker change only by an ability's status or buff and by Downed, which keeps
    nothing else at 0: with none, both are steady at 0; Body Armor not up (0) stays down."""
    f = plain()
    assert steady_values(f, initial_state(f, 4).per) == {"statuses": 0, "buffs": 0, "body_armor": 0}


def test_steady_stats_last_odyssey_a_status_or_buff_ability_makes_them_unsteady() -> None:
    """A status ability or a buff moves them: they are read on every resolve."""
    for ability in (LOCK, ROAR):
        user = character("A", attacks=[STRIKE, ability], attacker={"status_accuracy": 5})
        f = load(fight([user], [character("B", target={"resistance": 2})]))
        found = steady_values(f, initial_state(f, 4).per)
        assert "statuses" not in found and "buffs" not in found


def test_steady_stats_last_odyssey_a_status_held_by_one_combatant_is_not_one_value() -> None:
    """A state where the combatants hold different statuses (a game master's, a live encounter's) is read as
    it is; Downed keeps Poisoned, so every combatant Poisoned is steady, a lost status (Blinded) is not."""
    f = plain()
    state = initial_state(f, 3)
    per = {k: v.copy() for k, v in state.per.items()}
    per["statuses"][1, 0] = BIT["poisoned"]
    assert "statuses" not in steady_values(f, per)
    per["statuses"][:] = BIT["poisoned"]
    per = dict(per, statuses=per["statuses"].copy())  # a new array: looked at anew
    assert steady_values(f, per)["statuses"] == BIT["poisoned"]
    per = dict(per, statuses=np.full_like(per["statuses"], BIT["blinded"]))
    assert "statuses" not in steady_values(f, per)


def test_steady_stats_last_odyssey_body_armor_up_is_steady_only_without_physical_abilities() -> None:
    """Body Armor: the first physical hit uses it up; with no physical ability it stays up."""
    armored = {"target": {"body_armor": True}}
    f = load(fight([character("A", attacks=[FIRE], **armored)], [character("B", attacks=[FIRE], **armored)]))
    assert steady_values(f, initial_state(f, 2).per)["body_armor"] == 1
    g = load(fight([character("A", **armored)], [character("B", **armored)]))
    assert "body_armor" not in steady_values(g, initial_state(g, 2).per)


def test_steady_stats_each_array_is_looked_at_once() -> None:
    """The answer is kept with the array: the same array is not looked at again."""
    f = plain()
    per = initial_state(f, 2).per
    steady_values(f, per)
    held = caches(f).steady
    assert held["statuses"][0]() is per["statuses"]
    held["statuses"] = (held["statuses"][0], None)
    assert "statuses" not in steady_values(f, per)


def test_steady_stats_key_leaves_their_columns_out_and_decodes_the_same_situation() -> None:
    f = plain()
    rules = f.rules
    state = initial_state(f, 3)
    actor, attack, target = np.array([0, 1, 0]), np.zeros(3, dtype=np.int64), np.array([1, 0, 1])
    args = (state.per, np.arange(3), actor, attack, target, {})
    full = SituationKey(rules)
    short = SituationKey(rules, steady=steady_values(f, state.per))
    cols, kept = full.columns(*args), short.columns(*args)
    assert len(cols) - len(kept) == 5  # statuses and buffs on both sides, Body Armor on the target's
    for i in range(3):
        assert short.decode([c[i] for c in kept]) == full.decode([c[i] for c in cols])


def test_steady_stats_the_draws_are_the_same_bytes() -> None:
    """The same seed, the same results, with or without the steady columns (same order of groups, same draws)."""
    f, g = plain(), plain()
    g.rules = type("Unsteady", (LastOdysseyFight,), {"steady_stats": ()})()
    a, b = simulate_fights(f, 3000, seed=5), simulate_fights(g, 3000, seed=5)
    assert "statuses" in caches(f).steady and not caches(g).steady
    assert a.to_json() == b.to_json()


def test_steady_stats_a_stat_the_fight_does_not_keep_is_refused() -> None:
    rules = type("Wrong", (LastOdysseyFight,), {"steady_stats": ("mana",)})()
    f = plain()
    with pytest.raises(InputError, match="mana"):
        rules.check_declarations(f.system)


def test_steady_stats_a_plain_stat_of_either_block_is_left_out_too() -> None:
    """A plain stat of the target's or the attacker's block (a table's stat, a clipped one, the attacker's own)
    held steady is left out of the columns and decoded back at its place."""
    f = plain()
    rules = f.rules
    state = initial_state(f, 3)
    actor, attack, target = np.array([0, 1, 0]), np.zeros(3, dtype=np.int64), np.array([1, 0, 1])
    args = (state.per, np.arange(3), actor, attack, target, {"modifiers": np.array([0, 2, -1])})
    parts: dict[str, Any] = {"stats": ["hp", "row"], "clips": ["ap"], "own": ["row"], "overrides": ["modifiers"]}
    full = SituationKey(rules, **parts)
    short = SituationKey(rules, **parts, steady={"row": 0, "ap": int(state.per["ap"][0, 0])})
    cols, kept = full.columns(*args), short.columns(*args)
    assert len(cols) - len(kept) == 3
    for i in range(3):
        assert short.decode([c[i] for c in kept]) == full.decode([c[i] for c in cols])


def test_steady_stats_a_finished_batch_s_arrays_are_not_kept_alive() -> None:
    """The answer is kept with a weak reference: the fight's caches do not hold a batch's arrays."""
    f = plain()
    per = dict(initial_state(f, 2).per)
    steady_values(f, per)
    del per
    gc.collect()
    assert caches(f).steady["statuses"][0]() is None
