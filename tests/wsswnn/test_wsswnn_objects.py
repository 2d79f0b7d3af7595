"""WSSWNN clauses: targeting arms, throwing, attacking objects (Taking Actions "Other Attack Rules";
docs/wsswnn.md#silent-objects)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.wsswnn.helpers import dist, make, row, trace
from tohit.systems.wsswnn.objects import average_toughness

BALLOON = {"name": "Balloon", "materials": ["cloth", "wicker"], "structure": 16}


def at_object(
    face: int, obj: dict[str, Any] | None = None, weapon: dict[str, Any] | None = None, **attack: Any
) -> dict[str, Any]:
    data = make(
        attacker={"attack_die": "d12", **({"weapon": weapon} if weapon is not None else {})},
        attack=attack,
        dice={"attack": [face]},
    )
    data["targets"] = [obj or BALLOON]
    return data


# -- Targeting Arms Directly ----------------------------------------------------------------------------


def test_wsswnn_targeting_arms_hit_counts_as_a_block() -> None:
    """Targeting Arms Directly: "If the attack is a hit, treat it as a block instead"."""
    r = row(make(attack={"target_arms": True}, dice={"attack": [8]}))
    assert (r["result"], r["lethal"], r["guard_damage"]) == ("block", 0, 1)
    assert "the hit counts as a block" in trace(make(attack={"target_arms": True}, dice={"attack": [8]}))


def test_wsswnn_targeting_arms_block_and_miss_unchanged() -> None:
    """Targeting Arms Directly: only a hit changes; a block stays a block and a miss a miss."""
    odds = dist(make(attack={"target_arms": True}), "result")
    assert odds == {"block": Fraction(7, 8), "miss": Fraction(1, 8)}


def test_wsswnn_targeting_arms_may_trigger_disarm() -> None:
    """Targeting Arms / Breaking and Disarming Arms: the block (from a hit) may trigger a free disarm brace."""
    data = make(
        attacker={"brace_die": "d8"},
        attack={"target_arms": True, "brace": "disarm"},
        target={"stamina": 2, "strength": 1},
        dice={"attack": [8], "brace": [6]},
    )
    r = row(data)
    assert (r["result"], r["brace_result"], r["brace_effect"]) == ("block", "success", "disarmed")


# -- Throwing Weapons and Objects -----------------------------------------------------------------------


def test_wsswnn_throw_trait_is_a_normal_ranged_attack() -> None:
    """Throwing: "If a weapon has the throw trait, you can throw it as a normal ranged attack" (not capped)."""
    data = make(
        attacker={"attack_die": "d12", "weapon": {"name": "javelin", "throw": True}},
        attack={"kind": "ranged", "throw": True},
        target={"guard": 1, "agility": 0},
        dice={"attack": [12]},
    )
    r = row(data)
    assert (r["attack_roll"], r["lethal"]) == (10, 9)
    assert "a normal ranged attack" in trace(data)


def test_wsswnn_improvised_throw_is_a_blunted_ranged_attack() -> None:
    """Throwing (issue 7): anything thrown without the throw trait is an improvised ranged attack, blunted."""
    data = make(
        attacker={"attack_die": "d12", "strength": 1, "weapon": {"name": "sword"}},
        attack={"kind": "ranged", "throw": True},
        target={"guard": 1, "agility": 0},
        dice={"attack": [12]},
    )
    r = row(data)
    assert (r["attack_roll"], r["lethal"]) == (10, 2)
    assert "improvised" in trace(data)


def test_wsswnn_thrown_rock_unarmed_is_improvised() -> None:
    """Throwing: "even rocks on the ground": with no weapon the throw is improvised, blunted, ranged (-2)."""
    data = make(
        attacker={"attack_die": "d10", "weapon": None},
        attack={"kind": "ranged", "throw": True},
        target={"guard": 1, "agility": 0},
        dice={"attack": [10]},
    )
    assert row(data)["lethal"] == 1


# -- Attacking Objects ----------------------------------------------------------------------------------


def test_wsswnn_object_has_no_guard_the_result_only_has_to_beat_zero() -> None:
    """Attacking Objects: "An object ... has no guard or other defenses": any result above 0 hits."""
    assert row(at_object(1))["result"] == "hit"
    data = make(attack={"kind": "ranged"}, dice={"attack": [2]})
    data["targets"] = [BALLOON]
    assert row(data)["result"] == "miss"  # 2 - 2 = 0: plain miss


def test_wsswnn_object_toughness_reduces_damage_like_armor() -> None:
    """Attacking Objects: "Toughness works like Armor: it reduces the damage from an attack"."""
    r = row(at_object(9, {"name": "Door", "toughness": 2, "structure": 30}))
    assert (r["damage"], r["structure_after"]) == (7, 23)


def test_wsswnn_object_structure_works_like_life_and_crumbles_at_zero() -> None:
    """Attacking Objects: "when an object's Structure is reduced to zero, it crumbles"."""
    r = row(at_object(12, {"name": "Jar", "toughness": 0, "structure": 5}))
    assert (r["damage"], r["structure_after"], r["destroyed"]) == (12, 0, True)
    assert "it crumbles" in trace(at_object(12, {"name": "Jar", "toughness": 0, "structure": 5}))


@pytest.mark.parametrize(("guard_damage", "expected"), [(1, 7 - 1), (2, 7 * 2 - 1), (3, 7 * 3 - 1)])
def test_wsswnn_object_guard_damage_multiplies_the_result(guard_damage: int, expected: int) -> None:
    """Object Toughness and Structure: -2 guard: "multiply the attack result by 2 before subtracting the
    object's Toughness"; -3: by 3."""
    assert row(at_object(7, weapon={"guard_damage": guard_damage}))["damage"] == expected


def test_wsswnn_object_blunted_weapon_is_not_capped() -> None:
    """Attacking Objects: "Attacks with the blunted property are not limited in how much structural damage"."""
    r = row(at_object(12, weapon={"blunted": True}))
    assert r["damage"] == 11


def test_wsswnn_object_creature_damage_fields_are_null() -> None:
    """Attacking Objects: an object has no life or guard: lethal / guard / awareness fields are null."""
    r = row(at_object(5))
    assert (r["lethal"], r["guard_damage"], r["awareness_damage"], r["guard_after"]) == (None,) * 4
    assert r["damage"] == 4


@pytest.mark.parametrize(
    ("materials", "toughness"),
    [(["cloth", "wicker"], 1), (["cloth"], 0), (["wood", "bronze"], 3), (["cloth", "bronze", "stone"], 3)],
)
def test_wsswnn_mixed_materials_average_toughness_rounded_down(materials: list[str], toughness: int) -> None:
    """Attacking Objects / docs/wsswnn.md#silent-objects: "use the average Toughness", rounded down."""
    assert average_toughness(materials) == toughness
    assert row(at_object(10, {"name": "Thing", "materials": materials, "structure": 99}))["damage"] == 10 - toughness


def test_wsswnn_object_exact_structure_damage_distribution() -> None:
    """Attacking Objects: a d12 axe (-2 guard) on the balloon: damage 2f - 1 for each face f, 1/12 each."""
    data = make(attacker={"attack_die": "d12", "weapon": {"guard_damage": 2}})
    data["targets"] = [BALLOON]
    assert dist(data, "damage") == {2 * f - 1: Fraction(1, 12) for f in range(1, 13)}
