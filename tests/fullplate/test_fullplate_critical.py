"""FullPlate, Attacking: Critical Hits and Severity (issue #5 clause 4; docs/fullplate.md#silent-critical-hit; wiki
Severity)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.fullplate.helpers import exact, make, p, row, trace


def test_fullplate_critical_hit_needs_a_hit_by_5_or_more() -> None:
    """Critical Hits: "If the attack qualifies ... and would successfully hit by 5 or more, the attack is a
    Critical Hit"."""
    # effective 16, natural 20: To-Hit Roll -4. AC 1 is hit by 5, AC 0 by 4.
    by5 = row(make(attacker={"thac0": 16}, target={"ac": 1}, dice={"to_hit": [20], "damage": [3], "severity": [2]}))
    by4 = row(make(attacker={"thac0": 16}, target={"ac": 0}, dice={"to_hit": [20], "damage": [3], "severity": [2]}))
    assert (by5["result"], by5["critical"], by5["severity"]) == ("hit", True, 2)
    assert (by4["result"], by4["critical"], by4["severity"]) == ("hit", False, None)


def test_fullplate_natural_20_inside_the_window_is_no_critical_hit() -> None:
    """A natural 20 that only hits through the 10-point window did not hit by 5: no Critical Hit."""
    out = row(make(attacker={"thac0": 20}, target={"ac": -4}, dice={"to_hit": [20], "damage": [3]}))
    assert (out["result"], out["critical"]) == ("hit", False)


@pytest.mark.parametrize("natural", [17, 18, 19])
def test_fullplate_critical_range_makes_a_critical_hit_by_5(natural: int) -> None:
    """Critical Hits: "if an attack roll falls within the Critical Range of an attack, it may be a Critical Hit"."""
    data = make(
        attacker={"thac0": 10},
        weapon={"critical_range": 17},
        target={"ac": 5},
        dice={"to_hit": [natural], "damage": [3], "severity": [4]},
    )
    out = row(data)
    assert (out["result"], out["critical"], out["severity"]) == ("hit", True, 4)
    assert "inside the Critical Range (17-20)" in trace(data)


def test_fullplate_natural_below_the_critical_range_is_no_critical_hit() -> None:
    """A natural 16 with Critical Range 17 hits by 11 but is not a Critical Hit."""
    out = row(make(attacker={"thac0": 10}, weapon={"critical_range": 17}, dice={"to_hit": [16], "damage": [3]}))
    assert (out["result"], out["critical"]) == ("hit", False)


def test_fullplate_critical_range_never_grants_the_automatic_hit() -> None:
    """ "Note, Critical Range effects only when Critical Hits can occur, not the automatic hit qualities of a
    Critical roll": a natural 19 in the range that falls short is a plain miss."""
    out = row(make(attacker={"thac0": 20}, weapon={"critical_range": 18}, target={"ac": -1}, dice={"to_hit": [19]}))
    assert (out["result"], out["critical"], out["damage"]) == ("miss", False, 0)


def test_fullplate_critical_hit_odds_with_a_critical_range() -> None:
    """Exact odds: THAC0 10 vs AC 5 with Critical Range 18: hits on 5+, criticals on 18, 19, 20 (all hit by 5+)."""
    odds = exact(make(attacker={"thac0": 10}, weapon={"critical_range": 18}))
    assert p(odds, "result", "hit") == Fraction(16, 20)
    assert p(odds, "critical", True) == Fraction(3, 20)
    # Severity 1d4 on each critical: 3/20 x 1/4 each.
    assert [p(odds, "severity", s) for s in (1, 2, 3, 4)] == [Fraction(3, 80)] * 4
    assert p(odds, "severity", None) == Fraction(17, 20)


def test_fullplate_severity_mode_keeps_normal_damage() -> None:
    """crit_damage: severity (default): the Critical Hit rolls 1d4 Severity and normal weapon damage."""
    data = make(attacker={"thac0": 10, "damage_bonus": 2}, dice={"to_hit": [20], "damage": [5], "severity": [3]})
    out = row(data)
    assert (out["critical"], out["damage"], out["severity"]) == (True, 7, 3)
    assert "Severity = d4 (3) (Critical Hit) = 3" in trace(data)


def test_fullplate_double_dice_rolls_weapon_dice_twice_flat_once() -> None:
    """crit_damage: double_dice: "roll damage twice", the weapon dice twice and flat modifiers once
    (docs/fullplate.md#silent-critical-hit)."""
    data = make(
        attacker={"thac0": 10, "damage_bonus": 3},
        weapon={"damage": "1d8+1", "enhancement": 1},
        options={"crit_damage": "double_dice"},
        dice={"to_hit": [20], "damage": [5], "damage_again": [7]},
    )
    out = row(data)
    # 5 + 7 (dice twice) + 1 (weapon's flat part) + 3 (Strength) + 1 (Enhancement), once each.
    assert (out["critical"], out["damage"], out["severity"]) == (True, 17, None)
    normal = row({**data, "dice": {"to_hit": [15], "damage": [5], "damage_again": [7]}})
    assert (normal["critical"], normal["damage"]) == (False, 10)


def test_fullplate_max_damage_deals_maximum_normal_weapon_damage() -> None:
    """crit_damage: max_damage: "do maximum normal weapon damage without rolling for Severity"."""
    data = make(
        attacker={"thac0": 10, "damage_bonus": 1},
        weapon={"damage": "2d6"},
        options={"crit_damage": "max_damage"},
        dice={"to_hit": [20], "damage": [1, 2]},
    )
    out = row(data)
    assert (out["critical"], out["damage"], out["severity"]) == (True, 13, None)


def test_fullplate_severity_from_backstab_called_attack_and_armour() -> None:
    """Severity (wiki): "a Backstab-5 called attack that is not a Sneak Attack gives 4 + 1d3(2) = 6"."""
    data = make(attack={"backstab": 5, "called": True}, dice={"to_hit": [15], "damage": [3], "called": [2]})
    out = row(data)
    assert (out["result"], out["critical"], out["severity"]) == ("hit", False, 6)


def test_fullplate_sneak_attack_backstab_gives_the_full_level() -> None:
    """Severity (wiki): Backstab gives level - 1 points; a Sneak Attack instead gives the level."""
    plain = row(make(attack={"backstab": 3}, dice={"to_hit": [15], "damage": [3]}))
    sneak = row(make(attack={"backstab": 3, "circumstances": ["sneak_attack"]}, dice={"to_hit": [15], "damage": [3]}))
    assert (plain["severity"], sneak["severity"]) == (2, 3)


@pytest.mark.parametrize(("armour", "bonus"), [("none", 2), ("natural", 1), ("worn", 0)])
def test_fullplate_armourless_target_adds_severity(armour: str, bonus: int) -> None:
    """Severity (wiki): no natural and no equipped armour +2; natural armour only +1; all sources stack."""
    data = make(
        attacker={"thac0": 10},
        target={"armour": armour},
        dice={"to_hit": [20], "damage": [3], "severity": [1]},
    )
    assert row(data)["severity"] == 1 + bonus
    # Armour alone grants nothing on a plain hit.
    assert row({**data, "dice": {"to_hit": [12], "damage": [3]}})["severity"] is None


def test_fullplate_severity_stacks_every_source() -> None:
    """Critical Hit 1d4 + Backstab + Called 1d3 + no armour: 4 + 1 + 3 + 2 = 10."""
    data = make(
        attacker={"thac0": 10},
        attack={"backstab": 2, "called": True},
        target={"armour": "none"},
        dice={"to_hit": [20], "damage": [3], "severity": [4], "called": [3]},
    )
    assert row(data)["severity"] == 10


def test_fullplate_no_severity_on_a_miss() -> None:
    """Severity comes with a hit: a missed backstab or called attack grants none."""
    out = row(make(attack={"backstab": 4, "called": True}, dice={"to_hit": [2], "called": [3]}))
    assert (out["result"], out["severity"]) == ("miss", None)
