"""Last Odyssey: exact odds and rolls against an independent oracle (icepool and brute force over the die).

`oracle` below is written again from the page, one face and one target at a time, in plain Python with
Fractions; it shares no code with `tohit.systems.last_odyssey` (only the scenario dicts).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import icepool
import pytest

from tests.last_odyssey.helpers import load, scenario
from tohit.engine.odds import odds
from tohit.engine.roll import roll

TRACK = [-7, -3, -1, 0, 1, 3, 7]
THRESHOLDS = {Fraction(1, 2): 3, Fraction(1): 5, Fraction(2): 7}


def oracle(face: int, data: dict[str, Any], target: dict[str, Any]) -> dict[str, Any]:
    """One face of the d10 against one target, straight from the page, Statuses and Shells."""
    user, attack = data["attacker"], data["attack"]
    options = data.get("options", {})
    kind = attack["kind"]
    assert all(step in TRACK for step in [*user.get("buffs", {}).values(), *target.get("buffs", {}).values()])

    def user_stat(name: str) -> int:
        value = user[name]
        if name.endswith("accuracy") and "blinded" in user.get("statuses", []):
            value = math.floor(value / 2)
        return int(value + user.get("buffs", {}).get(name, 0))

    def target_stat(name: str) -> int:
        value = target[name]
        if name == "evasion" and "petrified" in target.get("statuses", []):
            value = math.floor(value / 2)
        return int(value + target.get("buffs", {}).get(name, 0))

    element = Fraction(str(target.get("element_multiplier", 1)))
    shell = target.get("shell", False)
    shelled = shell is True or (type(shell) is int and shell > 0)
    out: dict[str, Any] = {"base_damage": None, "status_applied": None, "damage": 0}
    if kind == "status":
        total = face - user_stat("status_accuracy") + target_stat("resistance")
        if element == Fraction(1, 4):
            landed = False
        elif element == 4:
            landed = True
        else:
            landed = total <= THRESHOLDS[element] or target.get("lean_in", False)
        out.update(result="hit" if landed else "miss", status_applied=landed)
    else:
        accuracy = user_stat(f"{kind}_accuracy")
        total = face - accuracy + target_stat("evasion")
        hit = total <= 7 or face == 1 or target.get("lean_in", False)
        if ("paralyzed" if kind == "physical" else "silenced") in user.get("statuses", []):
            hit = False
        out["result"] = "hit" if hit else "miss"
        if hit:
            die = 1 if attack.get("knock_out") else face
            base = max(1, user_stat(f"{kind}_attack") - target_stat(f"{kind}_defense") + die)
            modifier = element
            if (kind == "magical" and shelled) or (kind == "physical" and not shelled):
                modifier *= 2
            for m in attack.get("multipliers", []):
                modifier *= Fraction(str(m))
            exact = base * modifier
            final = math.floor(exact) if options.get("rounding") == "down" else math.floor(exact + Fraction(1, 2))
            out.update(base_damage=base, damage=final)
    damage, hp = out["damage"], target.get("hp")
    if type(shell) is int and shell > 0:
        overflow = damage - min(damage, shell)
        broke = damage >= shell
        unknown_hp = None if broke and overflow > 0 else 0
        lost = unknown_hp if hp is None else (hp if broke and overflow >= hp else 0)
        out.update(shell_absorbed=min(damage, shell), overflow=overflow if broke else None)
    elif shelled:
        lost = 0 if damage == 0 else None
    else:
        lost = min(damage, hp) if hp is not None else (0 if damage == 0 else None)
    out["hp_lost"] = lost
    out["downed"] = None if lost is None else (hp is not None and lost == hp)
    return out


SCENARIOS: dict[str, dict[str, Any]] = {
    "multi physical on 5 targets": scenario(
        {"evasion": 0, "physical_defense": 0, "shell": False, "hp": 12},
        {"evasion": 4, "physical_defense": 3, "shell": True, "element_multiplier": 0.5},
        {"evasion": 2, "physical_defense": 1, "shell": 6, "hp": 9, "buffs": {"evasion": 3}},
        {"evasion": 9, "physical_defense": 0, "shell": False, "statuses": ["petrified"], "element_multiplier": 4},
        {"evasion": 12, "physical_defense": 5, "shell": 0, "lean_in": True, "hp": 30},
        attacker={"physical_accuracy": 4, "physical_attack": 3, "buffs": {"physical_attack": 1}},
        attack={"kind": "physical", "type": "multi", "multipliers": [1.5]},
    ),
    "magical, blinded, knock-out, rounding down": scenario(
        {"evasion": 1, "magical_defense": 2, "shell": 5, "hp": 10, "element_multiplier": 2},
        {"evasion": 3, "magical_defense": 0, "shell": False, "hp": 4, "element_multiplier": 0.25},
        {"evasion": 8, "magical_defense": 1, "shell": True, "hp": 7},
        attacker={
            "magical_accuracy": 7,
            "magical_attack": 5,
            "statuses": ["blinded"],
            "buffs": {"magical_accuracy": 1},
        },
        attack={"kind": "magical", "type": "multi", "knock_out": True, "multipliers": [0.5, 3]},
        options={"rounding": "down"},
    ),
    "status with every element threshold": scenario(
        {"resistance": 1, "element_multiplier": 0.25},
        {"resistance": 2, "element_multiplier": 0.5},
        {"resistance": 3},
        {"resistance": 4, "element_multiplier": 2, "shell": 3, "hp": 5},
        {"resistance": 40, "element_multiplier": 4},
        {"resistance": 40, "lean_in": True},
        {"resistance": 9},
        attacker={"status_accuracy": 3, "statuses": ["blinded"]},
        attack={"kind": "status", "type": "multi", "status": "confused"},
    ),
    "paralyzed physical": scenario(
        {"evasion": 0, "lean_in": True},
        attacker={"statuses": ["paralyzed"]},
        attack={"kind": "physical", "type": "ranged"},
    ),
    "silenced magical, physical stats ignored": scenario(
        {"evasion": -5, "magical_defense": 0, "shell": True},
        attacker={"statuses": ["silenced", "paralyzed"]},
        attack={"kind": "magical", "type": "ranged"},
    ),
}
FIELDS = ("result", "damage", "base_damage", "status_applied", "hp_lost", "downed")


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_last_odyssey_rolls_match_the_oracle_on_every_face(name: str) -> None:
    """Brute force over the die (itertools.product of the one d10 shared by all targets): every target's row
    of a forced roll equals the oracle's."""
    data = SCENARIOS[name]
    for (face,) in itertools.product(range(1, 11)):
        result = roll(load({**data, "dice": {"hit": [face]}}), 0)
        for target in data["targets"]:
            ours = result.target(target["name"]).row
            expected = oracle(face, data, target)
            for key, value in expected.items():
                assert ours[key] == value, (name, face, target["name"], key, ours[key], value)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_last_odyssey_exact_odds_match_icepool(name: str) -> None:
    """Exact odds of every field, per target, equal icepool's distribution of the oracle over a d10."""
    data = SCENARIOS[name]
    exact = odds(load(data))
    for target in data["targets"]:
        ours = exact.target(target["name"])
        joint = icepool.d10.map(lambda f, t=target: tuple(_sortable(oracle(f, data, t)[k]) for k in FIELDS))
        for i, field in enumerate(FIELDS):
            marginal = joint.marginals[i]
            theirs = {v: marginal.probability(v) for v in marginal.outcomes()}
            mine = {_sortable(v): pr for v, pr in ours.distribution(field) if pr}
            assert mine == theirs, (name, target["name"], field)
        damage = icepool.d10.map(lambda f, t=target: oracle(f, data, t)["damage"])
        assert ours.mean_damage == damage.mean()


def _sortable(value: Any) -> tuple[int, Any]:
    """icepool sorts outcomes: null first, then the values (all of one type within a field)."""
    return (0, 0) if value is None else (1, value)


def test_last_odyssey_multi_target_joint_outcome_from_one_roll() -> None:
    """One roll for all targets: the joint of five targets' results has only 10 outcomes (one per face),
    never the 10^5 an independent roll per target would give; icepool agrees with the forced rolls."""
    data = SCENARIOS["multi physical on 5 targets"]
    names = [t["name"] for t in data["targets"]]
    joint = icepool.d10.map(lambda f: tuple(oracle(f, data, t)["damage"] for t in data["targets"]))
    counted: dict[tuple[int, ...], int] = {}
    for face in range(1, 11):
        result = roll(load({**data, "dice": {"hit": [face]}}), 0)
        key = tuple(result.target(n).row["damage"] for n in names)
        counted[key] = counted.get(key, 0) + 1
    assert {k: Fraction(v, 10) for k, v in counted.items()} == {v: joint.probability(v) for v in joint.outcomes()}
    assert len(counted) <= 10
