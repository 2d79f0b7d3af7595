"""FullPlate damage (wiki Damage, via the FullPlate wiki): weapon dice + Strength + Enhancement, then Special
Defence, then Resistance or Vulnerability as a percentage rounded down, then the natural-20 halvings."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fullplate.helpers import make, row, trace
from tohit.systems.fullplate.damage import halve, halvings, percent


def test_fullplate_damage_is_weapon_dice_plus_strength_plus_enhancement() -> None:
    """Damage (wiki): "roll the weapon dice, add Strength, Enhancement and proficiency modifiers"."""
    data = make(
        attacker={"damage_bonus": 2},
        weapon={"damage": "2d4+1", "enhancement": 1},
        dice={"to_hit": [15], "damage": [3, 2]},
    )
    assert row(data)["damage"] == 3 + 2 + 1 + 2 + 1
    assert "Damage = 2d4+1 (3, 2) + Strength/damage bonus +2 + Enhancement +1 = 9" in trace(data)


def test_fullplate_vulnerability_25_percent_turns_6_into_7() -> None:
    """Damage (wiki): "Vulnerability 25%: 6 -> 7, i.e. 7.5 rounded down"."""
    out = row(make(target={"vulnerability_pct": 25}, dice={"to_hit": [15], "damage": [6]}))
    assert out["damage"] == 7


@pytest.mark.parametrize(
    ("resistance", "vulnerability", "damage"), [(50, 0, 3), (25, 0, 5), (100, 0, 0), (50, 50, 7), (0, 100, 14)]
)
def test_fullplate_resistance_and_vulnerability_are_percentages_rounded_down(
    resistance: int, vulnerability: int, damage: int
) -> None:
    """Resistance and Vulnerability scale damage by a percentage, rounded down (7 x 75% = 5.25 -> 5)."""
    data = make(
        target={"resistance_pct": resistance, "vulnerability_pct": vulnerability},
        dice={"to_hit": [15], "damage": [7]},
    )
    assert row(data)["damage"] == damage


def test_fullplate_a_hit_deals_at_least_1_before_defences() -> None:
    """A Strength penalty never takes a hit's damage below 1 before Special Defence and Resistance."""
    out = row(make(attacker={"damage_bonus": -3}, dice={"to_hit": [15], "damage": [1]}))
    assert (out["result"], out["damage"]) == ("hit", 1)


def test_fullplate_halving_comes_after_resistance() -> None:
    """The natural-20 halving is of "the effective damage done": 8 x 75% = 6, halved once = 3."""
    data = make(attacker={"thac0": 20}, target={"ac": -12, "resistance_pct": 25}, dice={"to_hit": [20], "damage": [8]})
    assert row(data)["damage"] == 3


def test_fullplate_no_damage_through_special_defence_is_not_a_halving_miss() -> None:
    """A natural-20 hit beyond the window on a creature immune to the weapon is a hit for 0, not a miss."""
    data = make(attacker={"thac0": 20}, target={"ac": -12, "special_defence": 4}, dice={"to_hit": [20], "damage": [8]})
    out = row(data)
    assert (out["result"], out["damage"], out["halvings"]) == ("hit", 0, 1)


def test_fullplate_halving_helpers_match_fractions() -> None:
    """halve(): D / 2^k exactly, checked against Fractions for every D in 0..200 and k in 0..9."""
    from fractions import Fraction

    damage = np.repeat(np.arange(201, dtype=np.int64), 10)
    times = np.tile(np.arange(10, dtype=np.int64), 201)
    out, missed = halve(damage, times)
    for d, k, o, m in zip(damage, times, out, missed, strict=True):
        x = Fraction(int(d), 2 ** int(k))
        want = int(x) if x >= 1 else (1 if x >= Fraction(1, 2) else 0)
        assert (int(o), bool(m)) == (want, bool(k > 0 and d > 0 and x < Fraction(1, 2)))
    assert list(halvings(np.arange(0, 27, dtype=np.int64))) == [0] * 11 + [1] * 5 + [2] * 5 + [3] * 5 + [4]
    assert list(percent(np.asarray([6, 10], dtype=np.int64), 0, 25)) == [7, 12]
