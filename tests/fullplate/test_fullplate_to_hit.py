"""FullPlate, Attacking: To-Hit, Effective thac0, Making The Roll, Fumbles and Criticals (issue #5 clauses 1-3)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.fullplate.helpers import exact, make, p, row, trace


def test_fullplate_effective_thac0_subtracts_bonuses_and_adds_penalties() -> None:
    """Effective thac0: THAC0 - To-Hit Bonuses + To-Hit Penalties (docs/fullplate.md#silent-effective-thac0)."""
    data = make(
        attacker={"thac0": 14, "to_hit_bonus": 2},
        weapon={"enhancement": 1},
        attack={"circumstances": ["target_cover_50", "attacker_above"]},
        dice={"to_hit": [10], "damage": [3]},
    )
    # 14 - 2 (bonuses) - 1 (enhancement) + 4 (cover) - 1 (above) = 14
    assert row(data)["effective_thac0"] == 14
    assert "THAC0 14 - 2 (to-hit bonuses) - 1 (Enhancement) + 4 (target_cover_50) - 1 (attacker_above) = 14" in (
        trace(data)
    )


def test_fullplate_to_hit_penalty_from_attributes_raises_effective_thac0() -> None:
    """To-Hit Roll: a negative to-hit bonus is a penalty, added to THAC0."""
    assert row(make(attacker={"thac0": 14, "to_hit_bonus": -3}, dice={"to_hit": [5]}))["effective_thac0"] == 17


@pytest.mark.parametrize("natural", range(2, 20))
def test_fullplate_to_hit_roll_is_effective_thac0_minus_d20(natural: int) -> None:
    """To-Hit Roll = thac0 - 1d20 - bonuses + penalties; it hits when it is at or below the target's AC."""
    data = make(attacker={"thac0": 15}, target={"ac": 4}, dice={"to_hit": [natural], "damage": [5]})
    out = row(data)
    assert out["to_hit_roll"] == 15 - natural
    assert out["result"] == ("hit" if 15 - natural <= 4 else "miss")
    assert out["damage"] == (5 if 15 - natural <= 4 else 0)


def test_fullplate_roll_hits_every_ac_at_or_above_it() -> None:
    """Making The Roll: a To-Hit Roll of 6 hits "AC 6 or worse", and misses AC 5 or lower."""
    targets = [{"name": f"AC {ac}", "ac": ac} for ac in (3, 5, 6, 7, 10)]
    data = make(weapon={"enhancement": 1}, attack={"circumstances": ["target_cover_50"]}, targets=targets)
    data["dice"] = {"to_hit": [11], "damage": [2]}
    from tests.fullplate.helpers import rolled

    results = {t.name: t.row["result"] for t in rolled(data).targets}
    assert results == {"AC 3": "miss", "AC 5": "miss", "AC 6": "hit", "AC 7": "hit", "AC 10": "hit"}
    assert all(t.row["ac_hit"] == 6 for t in rolled(data).targets)


def test_fullplate_reports_natural_needed_and_its_chance() -> None:
    """Making The Roll: "against AC 5 they'd need to roll 12 or better ... only a 45% chance"."""
    data = make(weapon={"enhancement": 1}, attack={"circumstances": ["target_cover_50"]}, dice={"to_hit": [3]})
    out = row(data)
    assert (out["natural_needed"], out["natural_chance_pct"]) == (12, 45)
    assert "needs 12+ on the d20 (45%)" in trace(data)
    # The exact odds agree: 12..20 hit (9 in 20), natural 1 fumbles, 2..11 miss.
    odds = exact(data)
    assert p(odds, "result", "hit") == Fraction(9, 20)


@pytest.mark.parametrize(
    ("thac0", "ac", "needed", "pct"), [(10, 9, 2, 95), (10, 12, 2, 95), (30, 0, 20, 5), (25, 0, 20, 5)]
)
def test_fullplate_natural_needed_is_between_2_and_20(thac0: int, ac: int, needed: int, pct: int) -> None:
    """A natural 1 always misses, so at best 2+ (95%); a natural 20 may hit anything in its window: 20 (5%)."""
    out = row(make(attacker={"thac0": thac0}, target={"ac": ac}, dice={"to_hit": [10]}))
    assert (out["natural_needed"], out["natural_chance_pct"]) == (needed, pct)


def test_fullplate_natural_1_is_a_fumble_always_a_miss() -> None:
    """Fumbles: "A roll of 1 is considered a Fumble ... no matter what, the attack has failed"."""
    data = make(attacker={"thac0": -10}, target={"ac": 10}, dice={"to_hit": [1], "damage": [8]})
    out = row(data)
    assert (out["result"], out["damage"], out["critical"]) == ("fumble", 0, False)
    assert out["ac_hit"] is None
    assert "natural 1: a Fumble" in trace(data)
    odds = exact(make(attacker={"thac0": -10}, target={"ac": 10}))
    assert p(odds, "result", "fumble") == Fraction(1, 20)
    assert p(odds, "result", "hit") == Fraction(19, 20)


@pytest.mark.parametrize("shortfall", [1, 5, 10])
def test_fullplate_natural_20_hits_when_short_by_10_or_less(shortfall: int) -> None:
    """Fumbles and Criticals: "If you could lower the effective AC hit by 10 or less and still hit, the attack
    automatically hits" (full damage)."""
    # effective 20, natural 20: To-Hit Roll 0; AC = -shortfall.
    data = make(attacker={"thac0": 20}, target={"ac": -shortfall}, dice={"to_hit": [20], "damage": [7]})
    out = row(data)
    assert (out["result"], out["damage"], out["halvings"], out["critical"]) == ("hit", 7, 0, False)
    assert out["ac_hit"] == -10


@pytest.mark.parametrize(
    ("shortfall", "halvings"),
    [(11, 1), (12, 1), (15, 1), (16, 2), (20, 2), (21, 3), (25, 3), (26, 4)],
)
def test_fullplate_natural_20_halves_damage_once_per_5_after_10(shortfall: int, halvings: int) -> None:
    """ "For every 5 points ... after the first 10, half the effective damage": ceil((s - 10) / 5) halvings."""
    data = make(attacker={"thac0": 20}, target={"ac": -shortfall}, dice={"to_hit": [20], "damage": [8]})
    data["attacker"]["weapon"]["damage"] = "1d8+56"  # 64 damage: halvings stay whole
    out = row(data)
    assert out["halvings"] == halvings
    assert out["damage"] == 64 >> halvings
    assert out["result"] == "hit"


@pytest.mark.parametrize(
    ("damage", "halvings", "dealt", "result"),
    [
        (7, 1, 3, "hit"),  # 3.5 rounds down
        (1, 1, 1, "hit"),  # 0.5: "between 1 and half a point ... 1 point of damage is still dealt"
        (3, 2, 1, "hit"),  # 0.75 -> 1
        (2, 2, 1, "hit"),  # 0.5 -> 1
        (1, 2, 0, "miss"),  # 0.25: "below half a point ... no damage is dealt and the attack probably misses"
        (3, 3, 0, "miss"),  # 0.375
        (4, 3, 1, "hit"),  # 0.5
    ],
)
def test_fullplate_natural_20_halving_rounds_half_to_1_and_below_half_misses(
    damage: int, halvings: int, dealt: int, result: str
) -> None:
    """Decisions 3: after halving, 0.5 <= damage < 1 becomes 1; below 0.5 becomes 0 and the attack misses."""
    shortfall = 10 + 5 * halvings
    data = make(
        attacker={"thac0": 20},
        weapon={"damage": f"1d8+{damage - 1}" if damage > 1 else "1d8"},
        target={"ac": -shortfall},
        dice={"to_hit": [20], "damage": [1]},
    )
    out = row(data)
    assert (out["halvings"], out["damage"], out["result"]) == (halvings, dealt, result)
    assert out["creature_hit"] == ("Target" if result == "hit" else None)


def test_fullplate_natural_20_halving_is_exact_for_many_halvings() -> None:
    """Exact is exact: 2^k is integer arithmetic, so even 9 halvings of 300 decide 0.5 correctly."""
    # 300 / 512 = 0.586 -> 1; 255 / 512 < 0.5 -> miss.
    for dmg, dealt in ((300, 1), (256, 1), (255, 0)):
        # THAC0 20 with a -25 penalty: effective 45, a natural 20 gives 25; AC -30 is short by 55: 9 halvings.
        data = make(
            attacker={"thac0": 20, "to_hit_bonus": -25},
            weapon={"damage": f"1d4+{dmg - 1}"},
            target={"ac": -30},
            dice={"to_hit": [20], "damage": [1]},
        )
        assert (row(data)["halvings"], row(data)["damage"]) == (9, dealt)


def test_fullplate_halving_applies_only_to_a_natural_20() -> None:
    """A natural 19 short of the AC is a plain miss (no window, no halving)."""
    out = row(make(attacker={"thac0": 20}, target={"ac": -12}, dice={"to_hit": [19], "damage": [4]}))
    assert (out["result"], out["halvings"], out["damage"]) == ("miss", 0, 0)


def test_fullplate_natural_20_window_odds_are_exact() -> None:
    """Exact odds, effective 20 vs AC -12 (short by 12 at a natural 20): only a natural 20 hits, at half damage."""
    odds = exact(make(attacker={"thac0": 20}, weapon={"damage": "1d4"}, target={"ac": -12}))
    assert p(odds, "result", "hit") == Fraction(1, 20)
    # 1d4 halved: 1 -> 0.5 -> 1, 2 -> 1, 3 -> 1.5 -> 1, 4 -> 2.
    assert p(odds, "damage", 1) == Fraction(3, 80)
    assert p(odds, "damage", 2) == Fraction(1, 80)
    assert p(odds, "halvings", 1) == Fraction(1, 20)
