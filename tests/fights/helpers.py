"""Builders for fight files in tests."""

from __future__ import annotations

import copy
from typing import Any

from tohit.core.fight.contract import LoadedFight
from tohit.engine.fight.load import fight_from_dict

#: PhR so high that no Critical a combatant of 40 LP or less lives through leaves a penalty (level at most
#: 12 + 3 = 15 <= 2 + 13): the shared fight tests built on these combatants keep the chains they had before
#: Criticals were played; tests/fights/test_kaiser_critical.py plays Criticals that bite.
KAISER_PHR = 13


def merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`base` (a combatant mapping) with `over` applied: a mapping given for one of its blocks (`attacker`,
    `target`, ...) is merged into that block, anything else replaces the key."""
    for key, value in over.items():
        base[key] = {**base[key], **value} if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return base


def fight_file(system: str, *sides: list[dict[str, Any]], **over: Any) -> dict[str, Any]:
    """A fight file of `system` with one side per list of combatants (named side0, side1, ...)."""
    data = {"system": system, "sides": [{"name": f"side{i}", "combatants": s} for i, s in enumerate(sides)]}
    return {**data, **over}


def kinds(log: Any, kind: str) -> list[dict[str, Any]]:
    """The events of one kind in a narrated fight's log."""
    return [e for e in log.events if e["kind"] == kind]


def changes(log: Any, kind: str) -> list[tuple[Any, ...]]:
    """(who, stat, from, to) of every change the events of one kind made."""
    return [(c["who"], c["stat"], c["from"], c["to"]) for e in kinds(log, kind) for c in e["changes"]]


def kaiser_combatant(name: str, **over: Any) -> dict[str, Any]:
    """A Kaiser combatant: Offensive Skill 10, Defensive Skill 8, long sword (Base Damage 7), 40 LP, PhR 13."""
    comb: dict[str, Any] = {
        "name": name,
        "physical_resistance": KAISER_PHR,
        "attacker": {"offensive_skill": 10, "strength": 8, "weapon": {"damage": 5, "damage_type": "cut"}},
        "target": {"defensive_skill": 8, "absorption": 2, "lp": 40},
        "attacks": [{"name": "sword", "attack": {"range": "hand_to_hand"}}],
    }
    return merged(comb, over)


def kaiser_fight(*sides: list[dict[str, Any]], policy: str = "first", **over: Any) -> dict[str, Any]:
    """A Kaiser fight of these sides. The clause tests script their dice one defense at a time, so the Multiple
    Defense Penalty is off here unless `options` says otherwise (its own tests: test_kaiser_multiple_defense.py)."""
    data: dict[str, Any] = {
        "system": "kaiser",
        "sides": [{"name": f"side{i}", "policy": policy, "combatants": copy.deepcopy(s)} for i, s in enumerate(sides)],
        "options": {"multiple_defense_penalty": False},
    }
    data.update(over)
    return data


def duel(**over: Any) -> dict[str, Any]:
    return kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")], **over)


def load(data: dict[str, Any]) -> LoadedFight:
    return fight_from_dict(data, source="fight.yaml")
