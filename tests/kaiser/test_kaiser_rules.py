"""Kaiser RPG, Attacking and Defending (Attacking and Defending): one test per clause, with
docs/kaiser.md#where-the-page-is-silent and the damage / dice / action-point definitions of the game's other pages."""

from __future__ import annotations

import pytest

from tests.kaiser.helpers import ceil, row
from tohit.core.errors import InputError
from tohit.engine.roll import roll
from tohit.systems.kaiser.consequences import critical_level
from tohit.systems.kaiser.tables import characteristic_modifier, fumble_dice_count


# -- The page's worked example ------------------------------------------------------------------------------
def test_kaiser_page_example_ceil_21_vs_14_deals_14_and_1_ap() -> None:
    """ "Ceil ... Offensive Roll of 21 ... Defensive Roll of 14 ... 7 DoS ... 2 Units ... 14 points of damage.\""""
    r = row(ceil(offense=[5, 4], defense=[3, 4]))
    assert r["offensive_roll"] == 21 and r["defensive_roll"] == 14
    assert (r["result"], r["dos"], r["units"], r["damage"], r["ap_lost"]) == ("hit", 7, 2, 14, 1)


# -- Steps 1 and 2: the rolls --------------------------------------------------------------------------------
def test_kaiser_offensive_roll_is_2d6_plus_offensive_skill_plus_factors() -> None:
    """Step 1: Final Offensive Roll = 2d6 + Offensive Skill + factors."""
    assert row(ceil(offense=[2, 3], defense=[3, 3], attack={"modifiers": -4}))["offensive_roll"] == 2 + 3 + 12 - 4


def test_kaiser_defensive_roll_is_2d6_plus_defensive_skill_plus_modifiers() -> None:
    """Step 2: Final Defensive Roll = 2d6 + Defensive Skill + modifiers."""
    assert row(ceil(offense=[2, 3], defense=[4, 5], target={"modifiers": 3}))["defensive_roll"] == 4 + 5 + 7 + 3


# -- Step 3: compare -------------------------------------------------------------------------------------------
def test_kaiser_offensive_roll_greater_is_a_successful_attack() -> None:
    assert row(ceil(offense=[2, 2], defense=[2, 2]))["result"] == "hit"  # 16 vs 11


def test_kaiser_defensive_roll_greater_is_a_failed_attack() -> None:
    r = row(ceil(offense=[2, 2], defense=[6, 5], target={"defensive_skill": 12}))  # 16 vs 23
    assert (r["result"], r["damage"], r["ap_lost"], r["units"]) == ("miss", 0, 0, 0)


def test_kaiser_tie_nothing_happens() -> None:
    """ "If there is a tie: nothing happens" — no damage, no AP lost, no Counter."""
    r = row(ceil(offense=[3, 3], defense=[5, 6]))  # 18 vs 18
    assert (r["result"], r["dos"], r["damage"], r["ap_lost"]) == ("tie", 0, 0, 0)
    assert r["counter_bonus"] is None and r["counterattack"] is False


# -- Successful Attack -----------------------------------------------------------------------------------------
def test_kaiser_successful_attack_defender_loses_1_ap_even_at_0_units() -> None:
    """ "The defender loses 1 AP" on a successful attack, even when Absorption and AV leave 0 Units."""
    r = row(ceil(offense=[2, 2], defense=[4, 4]))  # 16 vs 15: 1 DoS, 0 Units
    assert (r["result"], r["units"], r["damage"], r["ap_lost"]) == ("hit", 0, 0, 1)


def test_kaiser_ap_never_below_0_and_hit_at_0_ap_is_flat_footed() -> None:
    """Action Points: AP never below 0; losing AP at 0 makes the defender Flat-Footed."""
    r = row(ceil(offense=[5, 4], defense=[3, 4], target={"ap": 0}))
    assert (r["ap_lost"], r["flat_footed"]) == (0, True)
    assert row(ceil(offense=[5, 4], defense=[3, 4], target={"ap": 1}))["flat_footed"] is False


def test_kaiser_units_are_dos_minus_absorption_minus_av_for_the_damage_type() -> None:
    """Units = DoS - Absorption - AV against the Damage Type (AV of other types does not count)."""
    r = row(ceil(offense=[6, 5], defense=[1, 2], target={"armor": {"cut": 1, "impact": 9}, "absorption": 3}))
    # 23 vs 10: 13 DoS - 3 - 1 = 9 Units x 7 = 63
    assert (r["dos"], r["units"], r["damage"]) == (13, 9, 63)


def test_kaiser_units_never_below_0() -> None:
    r = row(ceil(offense=[2, 2], defense=[2, 2], target={"armor": {"cut": 20}}))
    assert (r["result"], r["units"], r["damage"]) == ("hit", 0, 0)


def test_kaiser_absorption_defaults_to_2() -> None:
    assert ceil().scenario.targets[0].absorption == 2


def test_kaiser_damage_is_units_times_base_damage() -> None:
    """Damage Dealt = (DoS - Absorption - AV) x Base Damage."""
    r = row(ceil(offense=[6, 5], defense=[1, 2], attacker={"strength": 20}))  # Base 5 + 6 = 11; 13 - 2 - 3 = 8
    assert (r["units"], r["damage"]) == (8, 88)


def test_kaiser_base_damage_is_weapon_damage_plus_strength_modifier_and_always_above_0() -> None:
    """combat_terms.md: Base Damage = Weapon Damage + Strength modifier, always above 0."""
    weak = {"strength": 1, "weapon": {"damage": 1, "damage_type": "cut"}}  # 1 - 3 -> still 1 per Unit
    r = row(ceil(offense=[6, 5], defense=[1, 2], attacker=weak))
    assert r["damage"] == r["units"] == 8


@pytest.mark.parametrize(
    ("score", "modifier"),
    [
        (1, -3),
        (2, -2),
        (3, -2),
        (4, -1),
        (5, 0),
        (6, 1),
        (7, 1),
        (8, 2),
        (9, 2),
        (10, 3),
        (12, 3),
        (13, 4),
        (15, 4),
        (16, 5),
        (19, 5),
        (20, 6),
        (21, 7),
        (22, 7),
        (23, 8),
        (25, 8),
        (26, 9),
        (29, 9),
        (30, 10),
    ],
)
def test_kaiser_strength_modifier_table(score: int, modifier: int) -> None:
    """gameplay.json index 200: the characteristic modifier table, every band edge."""
    assert characteristic_modifier(score) == modifier


def test_kaiser_strength_modifier_table_runs_to_30() -> None:
    """the game's other pages, Kaiser: "21-22: +7; 23-25: +8; 26-29: +9; 30: +10": a Strength 24 attacker's Base
    Damage is the weapon's 5 + 8 = 13; 31 is refused, naming the field."""
    r = row(ceil(offense=[5, 4], defense=[3, 4], attacker={"strength": 24}))
    assert r["damage"] == 2 * 13
    with pytest.raises(InputError) as err:
        row(ceil(offense=[5, 4], defense=[3, 4], attacker={"strength": 31}))
    assert err.value.field == "attacker.strength"


# -- Failed Attack ---------------------------------------------------------------------------------------------
def test_kaiser_counter_bonus_defender_dos_5_on_melee_gives_plus_2() -> None:
    """the game's other pages fixture: defender DoS 5 on a melee attack gives Counter +2 (half, round down)."""
    r = row(
        ceil(offense=[2, 2], defense=[6, 6], target={"defensive_skill": 9}, options={"open_rolls_and_fumbles": False})
    )
    # 16 vs 21: defender 5 DoS
    assert (r["result"], r["dos"], r["counter_bonus"], r["counterattack"]) == ("miss", -5, 2, True)


def test_kaiser_point_blank_failed_attack_gives_counter() -> None:
    r = row(ceil(offense=[2, 2], defense=[6, 5], target={"defensive_skill": 12}, attack={"range": "point_blank"}))
    assert r["counter_bonus"] == 3  # 16 vs 23: 7 DoS -> 3


def test_kaiser_ranged_failed_attack_beyond_point_blank_gives_no_counter() -> None:
    r = row(ceil(offense=[2, 2], defense=[6, 5], target={"defensive_skill": 12}, attack={"range": "ranged"}))
    assert (r["result"], r["counter_bonus"], r["counterattack"]) == ("miss", None, False)


def test_kaiser_counter_bonus_0_at_1_dos_still_allows_counterattack() -> None:
    """Counter: allowed with 1 or more DoS; floor(1 / 2) = 0."""
    r = row(ceil(offense=[2, 2], defense=[5, 5], target={"defensive_skill": 7}))  # 16 vs 17
    assert (r["counter_bonus"], r["counterattack"]) == (0, True)


def test_kaiser_counterattack_costs_1_ap_so_needs_ap() -> None:
    r = row(ceil(offense=[2, 2], defense=[6, 5], target={"defensive_skill": 12, "ap": 0}))
    assert (r["counter_bonus"], r["counterattack"]) == (3, False)


# -- Open rolls and fumbles (docs/kaiser.md#silent-open-rolls)
# -----------------------------------------------------------
def test_kaiser_open_roll_double_6_adds_a_d6() -> None:
    assert row(ceil(offense=[6, 6, 3], defense=[1, 2]))["offensive_roll"] == 12 + 3 + 12


def test_kaiser_open_roll_again_on_each_6() -> None:
    assert row(ceil(offense=[6, 6, 6, 6, 2], defense=[1, 2]))["offensive_roll"] == 26 + 12


def test_kaiser_open_roll_applies_to_the_defensive_roll() -> None:
    assert row(ceil(offense=[1, 2], defense=[6, 6, 4]))["defensive_roll"] == 16 + 7


@pytest.mark.parametrize(("severity", "counts"), [((1, 1), 0), ((2, 3), 0), ((3, 3), -5), ((6, 5), -5), ((6, 6), -10)])
def test_kaiser_fumble_double_1_severity_sets_what_the_dice_count(severity: tuple[int, int], counts: int) -> None:
    """Fumble: severity 2d6: 2-5 count 0, 6-11 count -5, 12+ count -10; the skill is still added."""
    assert fumble_dice_count(sum(severity)) == counts
    assert row(ceil(offense=[1, 1, *severity], defense=[1, 2]))["offensive_roll"] == max(0, counts + 12)


def test_kaiser_fumble_total_never_below_0() -> None:
    r = row(ceil(offense=[1, 2], defense=[1, 1, 6, 6], target={"defensive_skill": 3}))
    assert r["defensive_roll"] == 0  # -10 + 3 -> 0


def test_kaiser_option_open_rolls_and_fumbles_false_gives_bare_2d6() -> None:
    off = {"open_rolls_and_fumbles": False}
    assert row(ceil(offense=[6, 6], defense=[1, 1], options=off))["offensive_roll"] == 24
    assert row(ceil(offense=[6, 6], defense=[1, 1], options=off))["defensive_roll"] == 9


# -- Advantage -------------------------------------------------------------------------------------------------
def test_kaiser_advantage_rolls_2_plus_n_dice_and_keeps_the_best_two() -> None:
    assert row(ceil(offense=[1, 5, 2, 6], defense=[1, 2], attack={"advantage": 2}))["offensive_roll"] == 11 + 12


def test_kaiser_disadvantage_keeps_the_worst_two() -> None:
    assert row(ceil(offense=[1, 5, 2], defense=[1, 2], attack={"advantage": -1}))["offensive_roll"] == 3 + 12


def test_kaiser_advantage_and_disadvantage_cancel_a2_d3_is_d1() -> None:
    """Dice: A2 and D3 net to D1: roll 3d6 and keep the lowest 2."""
    loaded = ceil(offense=[6, 4, 5], defense=[1, 2], attack={"advantage": [2, -3]})
    assert loaded.scenario.attack.advantage == -1
    assert row(loaded)["offensive_roll"] == 9 + 12


def test_kaiser_open_roll_with_advantage_when_the_kept_two_are_sixes() -> None:
    assert row(ceil(offense=[6, 1, 6, 4], defense=[1, 2], attack={"advantage": 1}))["offensive_roll"] == 16 + 12


def test_kaiser_defender_advantage_applies_to_the_defensive_roll() -> None:
    assert row(ceil(offense=[1, 2], defense=[1, 5, 6], target={"advantage": 1}))["defensive_roll"] == 11 + 7


# -- Critical (Critical) -----------------------------------------------------------------------------
def test_kaiser_critical_when_a_hit_costs_at_least_half_current_lp() -> None:
    r = row(ceil(offense=[5, 4], defense=[3, 4], critical=[3, 4], target={"lp": 28}))  # 14 damage = 28 / 2
    assert (r["critical"], r["critical_level"]) == (True, 7 + 1)
    r = row(ceil(offense=[5, 4], defense=[3, 4], critical=[3, 4], target={"lp": 29}))
    assert (r["critical"], r["critical_level"]) == (False, None)


def test_kaiser_critical_180_lp_needs_90() -> None:
    """Critical: 180 LP: a hit of 90 or more is a Critical."""
    big = {"weapon": {"damage": 88, "damage_type": "cut"}}  # Base 90 per Unit
    # 1 Unit: 16 vs 10 = 6 DoS - 2 - 3
    r = row(ceil(offense=[2, 2], defense=[1, 2], critical=[1, 1], attacker=big, target={"lp": 180}))
    assert (r["damage"], r["critical"], r["critical_level"]) == (90, True, 2 + 9)
    r = row(ceil(offense=[2, 2], defense=[1, 2], critical=[1, 1], attacker=big, target={"lp": 181}))
    assert r["critical"] is False


def test_kaiser_critical_level_excess_over_20_is_halved() -> None:
    """Critical: critical levels of 26 and 31 become 23 and 25."""
    assert critical_level(6, 200) == 23
    assert critical_level(11, 200) == 25
    assert critical_level(10, 100) == 20


def test_kaiser_critical_needs_damage() -> None:
    r = row(ceil(offense=[2, 2], defense=[4, 4], target={"lp": 0}))  # a 0-Unit hit on 0 LP
    assert (r["damage"], r["critical"]) == (0, False)


# -- The trace cites the clauses --------------------------------------------------------------------------------
def test_kaiser_trace_cites_each_clause_applied() -> None:
    result = roll(ceil(offense=[6, 6, 3], defense=[3, 4], critical=[2, 2], target={"lp": 20}))
    steps = {s.name: s for s in result.targets[0].steps}
    assert set(steps) >= {"offensive_roll", "defensive_roll", "compare", "ap_lost", "units", "damage", "critical"}
    assert "2d6 (6, 6) open +3" in steps["offensive_roll"].text
    assert all(s.clause.startswith("kaiser:") for s in steps.values())
    assert steps["damage"].text.endswith("= 56")  # 27 vs 14: 13 DoS - 2 - 3 = 8 Units x 7
