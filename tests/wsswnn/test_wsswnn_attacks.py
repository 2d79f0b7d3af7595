"""WSSWNN clauses: attack actions, action dice and advantage, melee and ranged attacks, damage.

Each test cites the section of Taking Actions (or the game's other pages / decisions.md) it applies.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.wsswnn.helpers import clauses, dist, make, row, trace

# -- Attack Actions -----------------------------------------------------------------------------------


def test_wsswnn_attack_beating_guard_is_a_hit() -> None:
    """Attack Actions: "An opposed attack roll is a Success if it beats the foe's Guard" (a hit)."""
    assert row(make(dice={"attack": [5]}))["result"] == "hit"


def test_wsswnn_attack_beating_only_agility_is_a_block() -> None:
    """Attack Actions: "It's a Struggle if it only beats the foe's Agility" (a block)."""
    assert row(make(dice={"attack": [3]}))["result"] == "block"


def test_wsswnn_attack_beating_neither_is_a_miss() -> None:
    """Attack Actions: "a Failure if it doesn't beat either the foe's Guard or Agility" (a miss)."""
    assert row(make(dice={"attack": [1]}))["result"] == "miss"


def test_wsswnn_beats_is_strictly_greater() -> None:
    """docs/wsswnn.md#silent-action-dice: "beats" is strictly greater; equal to Guard is a block, equal to Agility a
    miss."""
    assert row(make(dice={"attack": [4]}))["result"] == "block"  # 4 vs Guard 4
    assert row(make(target={"agility": 2}, dice={"attack": [2]}))["result"] == "miss"  # 2 vs Agility 2


def test_wsswnn_hit_block_miss_exact_odds_d8_vs_guard_4_agility_1() -> None:
    """Attack Actions: a d8 vs Guard 4 / Agility 1: hit on 5-8, block on 2-4, miss on 1."""
    odds = dist(make(), "result")
    assert odds == {"hit": Fraction(4, 8), "block": Fraction(3, 8), "miss": Fraction(1, 8)}


def test_wsswnn_guard_worn_below_agility_beating_guard_is_a_hit() -> None:
    """Attack Actions: a result that beats Guard is a hit, even when damage has worn Guard below Agility."""
    assert row(make(target={"guard": 0, "agility": 3}, dice={"attack": [2]}))["result"] == "hit"


# -- Action dice and advantage --------------------------------------------------------------------------


@pytest.mark.parametrize("die", ["d4", "d6", "d8", "d10", "d12"])
def test_wsswnn_action_dice_are_d4_to_d12(die: str) -> None:
    """docs/wsswnn.md#silent-action-dice: an action die is d4, d6, d8, d10 or d12; each face is equally likely."""
    sides = int(die[1:])
    odds = dist(make(attacker={"attack_die": die}, target={"guard": 100, "agility": 100}), "attack_roll")
    assert odds == {k: Fraction(1, sides) for k in range(1, sides + 1)}


def test_wsswnn_advantage_keeps_the_higher() -> None:
    """Advantage [taking-actions]: roll the named second die too and keep the higher."""
    data = make(
        attacker={"maneuver_die": "d8"}, attack={"advantage": "maneuver"}, dice={"attack": [2], "advantage": [7]}
    )
    assert row(data)["attack_roll"] == 7
    data["dice"] = {"attack": [6], "advantage": [3]}
    assert row(data)["attack_roll"] == 6


def test_wsswnn_advantage_exact_distribution_is_the_higher_of_two_dice() -> None:
    """Advantage: P(highest of d10 and d8 = k) = (k*min(k,8) - (k-1)*min(k-1,8)) / 80."""
    data = make(
        attacker={"attack_die": "d10", "maneuver_die": "d8"},
        attack={"advantage": "maneuver"},
        target={"guard": 100, "agility": 100},
    )
    expected = {k: Fraction(k * min(k, 8) - (k - 1) * min(k - 1, 8), 80) for k in range(1, 11)}
    assert dist(data, "attack_roll") == expected


def test_wsswnn_advantage_penalties_apply_to_the_advantage_die() -> None:
    """Advantage (the game's other pages): penalties apply to the advantage die too: Chom's d4 at -2 rolled -1."""
    data = make(
        attacker={"attack_die": "d4", "brace_die": "d6", "penalty": {"brace": 3}},
        attack={"advantage": "brace"},
        dice={"attack": [2], "advantage": [4]},
    )
    assert row(data)["attack_roll"] == 2  # brace 4 - 3 = 1 loses to Attack 2
    assert "Brace advantage d6-3 (4) = 1" in trace(data).replace("brace advantage", "Brace advantage")


def test_wsswnn_penalty_applies_to_the_acting_die() -> None:
    """Action dice: a penalty on the Attack die lowers the attack roll (a roll can go to 0 or below)."""
    data = make(attacker={"penalty": {"attack": 2}}, dice={"attack": [1]})
    assert row(data)["attack_roll"] == -1


def test_wsswnn_penalty_number_is_the_maneuver_die_penalty() -> None:
    """Jump-Attacks (Chom): "a d4 Maneuver die with a -2 penalty from his shield and armor": a bare number."""
    data = make(
        attacker={"maneuver_die": "d4", "penalty": 2},
        attack={"advantage": "maneuver"},
        dice={"attack": [3], "advantage": [4]},
    )
    assert row(data)["attack_roll"] == 3  # Attack 3 untouched; Maneuver 4 - 2 = 2


def test_wsswnn_advantage_never_rolls_the_same_die_twice() -> None:
    """Advantage: never the same die twice: a jump-attack's maneuver advantage named again is one die."""
    from tests.conftest import scenario
    from tohit.systems.wsswnn import SYSTEM

    data = make(
        attacker={"maneuver_die": "d8"},
        attack={"kind": "jump", "heights": 1, "advantage": "maneuver"},
        target={"guard": 4, "agility": 0},
    )
    loaded = scenario(data)
    roles = SYSTEM.roles(loaded.scenario, loaded.scenario.targets[0])
    assert roles["advantage"].sides == (8,)  # type: ignore[attr-defined]


def test_wsswnn_two_advantage_dice_keep_the_highest() -> None:
    """Advantage from two sources (named compel, and brace against a grappled foe): keep the highest."""
    data = make(
        attacker={"compel_die": "d6", "brace_die": "d10"},
        attack={"advantage": "compel"},
        target={"grappled": True},
        dice={"attack": [1], "advantage": [2, 9]},
    )
    assert row(data)["attack_roll"] == 9


# -- Melee Attack ---------------------------------------------------------------------------------------


def test_wsswnn_melee_hit_inflicts_lethal_and_guard_damage() -> None:
    """Melee Attack: "Success: Hit! Inflict lethal and guard damage"."""
    r = row(make(dice={"attack": [7]}))
    assert (r["result"], r["lethal"], r["guard_damage"], r["damage"]) == ("hit", 3, 1, 3)


def test_wsswnn_melee_block_inflicts_only_guard_damage() -> None:
    """Melee Attack: "Struggle: Block: inflict only guard damage based on your weapon"."""
    r = row(make(attacker={"weapon": {"guard_damage": 2}}, dice={"attack": [3]}))
    assert (r["result"], r["lethal"], r["guard_damage"], r["guard_after"], r["damage"]) == ("block", 0, 2, 2, 0)


def test_wsswnn_melee_miss_inflicts_nothing() -> None:
    """Melee Attack: "Fail: Miss! The foe dodges"."""
    r = row(make(dice={"attack": [1]}))
    assert (r["result"], r["lethal"], r["guard_damage"], r["awareness_damage"], r["guard_after"]) == (
        "miss",
        0,
        0,
        0,
        4,
    )
    assert "the foe dodges" in trace(make(dice={"attack": [1]}))


# -- Ranged Attack --------------------------------------------------------------------------------------

RANGED_FOE = {"guard": 4, "agility": 1, "shield": True}


@pytest.mark.parametrize("spans", [0, 1, 2])
def test_wsswnn_ranged_attack_has_a_minus_2_penalty(spans: int) -> None:
    """Ranged Attack: "All ranged attacks have a -2 penalty" (docs/wsswnn.md#silent-ranged-penalty: -max(2, spans))."""
    r = row(make(attack={"kind": "ranged", "spans": spans}, target=RANGED_FOE, dice={"attack": [7]}))
    assert r["attack_roll"] == 5


@pytest.mark.parametrize(("spans", "penalty"), [(3, 3), (4, 4), (7, 7)])
def test_wsswnn_ranged_penalty_is_n_at_n_spans(spans: int, penalty: int) -> None:
    """Ranged Attack: "-3 if you're three spans away, -4 if you're four spans away, and so on"."""
    data = make(
        attacker={"attack_die": "d12"},
        attack={"kind": "ranged", "spans": spans},
        target=RANGED_FOE,
        dice={"attack": [12]},
    )
    assert row(data)["attack_roll"] == 12 - penalty


def test_wsswnn_ranged_hit_inflicts_lethal_and_guard_damage() -> None:
    """Ranged Attack: "Success: Hit! Inflict lethal and guard damage"."""
    r = row(make(attack={"kind": "ranged"}, target={"armor": 1}, dice={"attack": [8]}))
    assert (r["result"], r["lethal"], r["guard_damage"]) == ("hit", 1, 1)  # 8 - 2 = 6, - Guard 4 - Armor 1


def test_wsswnn_ranged_block_needs_a_shield() -> None:
    """Ranged Attack: "Ranged attacks can only be blocked by a shield": with one, a Struggle is a block."""
    r = row(make(attack={"kind": "ranged"}, target={"shield": True}, dice={"attack": [5]}))
    assert (r["result"], r["guard_damage"], r["lethal"]) == ("block", 1, 0)


def test_wsswnn_ranged_struggle_without_a_shield_is_a_miss() -> None:
    """docs/wsswnn.md#silent-ranged-penalty: a Struggle on a ranged attack against a target with no shield is a miss,
    no guard damage."""
    data = make(attack={"kind": "ranged"}, dice={"attack": [5]})  # 5 - 2 = 3: beats Agility 1 only
    r = row(data)
    assert (r["result"], r["guard_damage"]) == ("miss", 0)
    assert "can only be blocked by a shield" in trace(data)


def test_wsswnn_ranged_unshielded_struggle_option_block() -> None:
    """docs/wsswnn.md#silent-ranged-penalty as an option: `unshielded_ranged_struggle: block` lets an unshielded foe
    block."""
    r = row(make(attack={"kind": "ranged"}, dice={"attack": [5]}, options={"unshielded_ranged_struggle": "block"}))
    assert (r["result"], r["guard_damage"]) == ("block", 1)


def test_wsswnn_ranged_result_zero_or_below_is_a_plain_miss() -> None:
    """Ranged Attack: "if the range penalty reduces your roll to zero or below, you just plain miss"."""
    data = make(
        attack={"kind": "ranged", "spans": 5}, target={"guard": 0, "agility": 0, "shield": True}, dice={"attack": [5]}
    )
    r = row(data)
    assert (r["attack_roll"], r["result"], r["guard_damage"]) == (0, "miss", 0)
    assert "you just plain miss" in trace(data)


def test_wsswnn_ranged_exact_odds_d8_at_three_spans_without_shield() -> None:
    """Ranged Attack: d8 - 3 vs Guard 4 / Agility 1, no shield: hit on 8 only; every other face misses."""
    odds = dist(make(attack={"kind": "ranged", "spans": 3}), "result")
    assert odds == {"hit": Fraction(1, 8), "miss": Fraction(7, 8)}


# -- Lethal Damage --------------------------------------------------------------------------------------


def test_wsswnn_lethal_damage_is_result_minus_guard_minus_armor() -> None:
    """Lethal Damage: "Lethal Damage = Attack roll - Guard - Armor"."""
    r = row(make(attacker={"attack_die": "d12"}, target={"armor": 2}, dice={"attack": [11]}))
    assert r["lethal"] == 11 - 4 - 2


def test_wsswnn_lethal_damage_never_below_zero() -> None:
    """docs/wsswnn.md#silent-lethal-damage: lethal damage on a hit is at least 0 (armor larger than the margin stops
    it all)."""
    r = row(make(target={"armor": 5}, dice={"attack": [6]}))
    assert (r["result"], r["lethal"], r["guard_damage"]) == ("hit", 0, 1)


def test_wsswnn_blunted_weapon_caps_lethal_at_strength_plus_1() -> None:
    """Lethal Damage: "Blunted weapons ... cap their lethal damage at your Strength + 1"."""
    data = make(
        attacker={"attack_die": "d12", "strength": 1, "weapon": {"blunted": True}}, target={"guard": 0, "agility": 0}
    )
    assert max(dist(data, "lethal")) == 2


def test_wsswnn_unarmed_strike_caps_lethal_at_strength_plus_1() -> None:
    """Lethal Damage: "... and unarmed strikes cap their lethal damage at your Strength + 1" (no weapon)."""
    data = make(
        attacker={"attack_die": "d12", "strength": 3, "weapon": None},
        target={"guard": 0, "agility": 0},
        dice={"attack": [12]},
    )
    assert row(data)["lethal"] == 4
    assert "unarmed strike: capped at (Strength 3 + 1) = 4" in trace(data)


def test_wsswnn_unblunted_weapon_is_capped_only_by_the_die() -> None:
    """Lethal Damage: weapons without the blunted property can inflict up to the number of sides on the die."""
    data = make(attacker={"attack_die": "d12", "weapon": {"name": "sword"}}, target={"guard": 0, "agility": 0})
    assert max(dist(data, "lethal")) == 12


# -- Guard, awareness, reduction ------------------------------------------------------------------------


def test_wsswnn_guard_damage_is_1_on_a_hit_or_block() -> None:
    """Guard Damage: "Most attacks inflict -1 guard on a hit or block"."""
    assert row(make(dice={"attack": [6]}))["guard_damage"] == 1
    assert row(make(dice={"attack": [3]}))["guard_damage"] == 1


@pytest.mark.parametrize("heavy", [2, 3])
def test_wsswnn_heavier_weapons_inflict_more_guard_damage(heavy: int) -> None:
    """Guard Damage: "Some attacks with heavier weapons can inflict -2 guard or even more"."""
    r = row(make(attacker={"weapon": {"guard_damage": heavy}}, dice={"attack": [6]}))
    assert (r["guard_damage"], r["guard_after"]) == (heavy, 4 - heavy)


def test_wsswnn_guard_damage_comes_after_lethal_damage() -> None:
    """Guard Damage: "On a hit, guard damage occurs after lethal damage": lethal uses the Guard before it."""
    r = row(make(attacker={"weapon": {"guard_damage": 3}}, dice={"attack": [7]}))
    assert (r["lethal"], r["guard_after"]) == (3, 1)  # 7 - 4, not 7 - 1


def test_wsswnn_guard_never_below_zero() -> None:
    """Guard Damage (docs/wsswnn.md#silent-lethal-damage): Guard stops at 0."""
    assert (
        row(make(attacker={"weapon": {"guard_damage": 3}}, target={"guard": 1}, dice={"attack": [7]}))["guard_after"]
        == 0
    )


def test_wsswnn_awareness_damage_on_a_hit_ignores_armor_and_margin() -> None:
    """Awareness Damage: "-1 awareness on a hit ... ignores armor, but doesn't vary based on your success margin"."""
    weapon = {"awareness_damage": 1}
    assert row(make(attacker={"weapon": weapon}, target={"armor": 9}, dice={"attack": [5]}))["awareness_damage"] == 1
    assert row(make(attacker={"weapon": weapon}, dice={"attack": [8]}))["awareness_damage"] == 1
    assert row(make(attacker={"weapon": weapon}, dice={"attack": [3]}))["awareness_damage"] == 0  # a block


def test_wsswnn_awareness_damage_rather_than_lethal() -> None:
    """Awareness Damage: "rather than (or in addition to) lethal damage": `lethal: false` inflicts none."""
    r = row(make(attacker={"weapon": {"awareness_damage": 1, "lethal": False}}, dice={"attack": [8]}))
    assert (r["result"], r["lethal"], r["awareness_damage"], r["guard_damage"]) == ("hit", 0, 1, 1)


def test_wsswnn_armor_reduces_lethal_damage_only() -> None:
    """Damage Reduction: "Armor ... reduces incoming lethal damage" (not guard damage)."""
    r = row(make(target={"armor": 2}, dice={"attack": [8]}))
    assert (r["lethal"], r["guard_damage"]) == (2, 1)


def test_wsswnn_unflinching_reduces_guard_damage_default_1() -> None:
    """Damage Reduction: Unflinching reduces incoming guard damage; `true` is the default amount, 1."""
    heavy = {"weapon": {"guard_damage": 2}}
    r = row(make(attacker=heavy, target={"unflinching": True}, dice={"attack": [8]}))
    assert (r["lethal"], r["guard_damage"]) == (4, 1)
    r = row(make(attacker=heavy, target={"unflinching": 3}, dice={"attack": [3]}))
    assert r["guard_damage"] == 0
    assert "Damage Reduction" in " ".join(
        clauses(make(attacker=heavy, target={"unflinching": 1}, dice={"attack": [8]}))
    )


def test_wsswnn_life_after_the_hit() -> None:
    """Lethal Damage: "Lethal damage reduces life" (never below 0)."""
    assert row(make(target={"life": 5}, dice={"attack": [8]}))["life_after"] == 1
    assert row(make(attacker={"attack_die": "d12"}, target={"life": 2}, dice={"attack": [12]}))["life_after"] == 0


# -- Mighty Blow (champion) -----------------------------------------------------------------------------


def test_wsswnn_mighty_blow_doubles_lethal_and_adds_guard_damage() -> None:
    """Mighty Blow [champion]: brace advantage; double lethal damage and an extra -1 guard."""
    data = make(attacker={"brace_die": "d6"}, attack={"mighty_blow": True}, dice={"attack": [7], "advantage": [2]})
    r = row(data)
    assert (r["lethal"], r["guard_damage"]) == (6, 2)


def test_wsswnn_mighty_blow_doubles_the_blunted_cap() -> None:
    """Mighty Blow [champion]: "a blunted weapon's cap is doubled"."""
    data = make(
        attacker={"attack_die": "d12", "brace_die": "d6", "strength": 1, "weapon": {"blunted": True}},
        attack={"mighty_blow": True},
        target={"guard": 0, "agility": 0},
        dice={"attack": [12], "advantage": [1]},
    )
    assert row(data)["lethal"] == 4
