"""Reclaim the Wild, "Landing the Blow": one test per clause (Attacking 101, docs/rtw.md#where-the-page-is-silent)."""

from __future__ import annotations

from fractions import Fraction

from tests.conftest import scenario
from tests.rtw.helpers import exact, roll_row, roll_text, rtw
from tohit.engine.roll import roll
from tohit.systems.rtw import SYSTEM


def test_rtw_to_hit_is_2d6_plus_accuracy_plus_weapon_acc() -> None:
    """Landing the Blow: "A roll To-Hit is 2d6 + Accuracy + Weapon Bonus." (3 + 4) + 2 + 3 = 12."""
    row = roll_row(rtw(to_hit=[3, 4]))
    assert row["to_hit"] == 12
    assert "To-Hit 2d6 (3, 4) + Accuracy 2 + weapon ACC 3 = 12" in roll_text(rtw(to_hit=[3, 4]))


def test_rtw_hit_when_to_hit_equals_or_exceeds_the_stat() -> None:
    """Landing the Blow: "If your To-Hit roll equals or exceeds the opponent's score, then the attack hits"."""
    assert roll_row(rtw(to_hit=[3, 4]))["result"] == "hit"  # 12 vs 12
    assert roll_row(rtw(to_hit=[4, 4]))["result"] == "hit"  # 13 vs 12
    assert roll_row(rtw(to_hit=[3, 3]))["result"] == "miss"  # 11 vs 12


def test_rtw_attack_compares_with_the_stat_it_names() -> None:
    """Landing the Blow: compared with "the target's Concentration, Evasion, or Vitality, as specified"."""
    target = {"evasion": 8, "concentration": 15, "vitality": 13}
    assert roll_row(rtw(target=target, to_hit=[3, 4]))["defence_stat"] == 8
    assert roll_row(rtw(attack={"against": "concentration"}, target=target, to_hit=[3, 4]))["defence_stat"] == 15
    assert roll_row(rtw(attack={"against": "vitality"}, target=target, to_hit=[3, 4]))["defence_stat"] == 13


def test_rtw_evasion_may_stand_in_for_concentration_or_vitality() -> None:
    """Landing the Blow + docs/rtw.md#silent-defence-stat: against Concentration or Vitality the defender uses the
    higher of that stat and Evasion."""
    target = {"evasion": 14, "concentration": 9, "vitality": 11}
    row = roll_row(rtw(attack={"against": "concentration"}, target=target, to_hit=[3, 4]))
    assert (row["defence_stat"], row["result"]) == (14, "miss")
    assert "Evasion 14 (in place of Concentration 9)" in roll_text(
        rtw(attack={"against": "concentration"}, target=target, to_hit=[3, 4])
    )


def test_rtw_off_balance_defender_cannot_use_evasion_in_place() -> None:
    """Landing the Blow: "(Evasion may be used in place of Concentration or Vitality, unless the defender is
    Off-Balance.)" """
    target = {"evasion": 14, "vitality": 11, "off_balance": True}
    row = roll_row(rtw(attack={"against": "vitality"}, target=target, to_hit=[3, 3]))
    assert (row["defence_stat"], row["result"]) == (11, "hit")


def test_rtw_worked_example_off_balance_needs_11_otherwise_14() -> None:
    """the game's other pages test idea: Evasion 14, Vitality 11, attack vs Vitality: Off-Balance needs 11, else 14."""
    for off_balance, needed in ((True, 11), (False, 14)):
        target = {"evasion": 14, "vitality": 11, "off_balance": off_balance}
        for first in range(1, 7):
            for second in range(1, 7):
                total = first + second + 5
                row = roll_row(rtw(attack={"against": "vitality"}, target=target, to_hit=[first, second]))
                assert row["defence_stat"] == needed
                assert row["result"] == ("hit" if total >= needed else "miss")


def test_rtw_miss_does_nothing_no_damage_no_durability_no_effect() -> None:
    """Landing the Blow: "A missed attack acts essentially as if it never happened – no damage is dealt, no
    durability is lost, no effects are enacted"."""
    data = rtw(
        attack={"effect": {"name": "Off-Balance", "against": "vitality"}},
        target={"health": 20, "hearts": 5},
        to_hit=[1, 1],
        effect=[6, 6],
    )
    row = roll_row(data)
    assert row["result"] == "miss"
    assert (row["damage"], row["durability_used"], row["effect_landed"], row["critical"]) == (0, False, False, False)
    assert (row["health_after"], row["falls"]) == (20, None)
    assert "a missed attack acts as if it never happened" in roll_text(data)


def test_rtw_miss_still_spends_magic_or_stamina_cost() -> None:
    """Landing the Blow: "(If the attack cost Magic or Stamina, however, then that cost is still spent.)" """
    data = rtw(attack={"cost": {"magic": 4, "stamina": 2}}, to_hit=[1, 1])
    row = roll_row(data)
    assert row["result"] == "miss"
    assert row["cost_spent"] == 6
    assert "cost spent: 4 Magic and 2 Stamina, hit or miss" in roll_text(data)
    hit = roll_row(rtw(attack={"cost": {"stamina": 3}}, to_hit=[6, 6]))
    assert hit["cost_spent"] == 3


def test_rtw_effect_that_misses_still_deals_damage() -> None:
    """Landing the Blow: "If an attack's Effect misses, then the attack still deals damage, but does not inflict
    that additional effect." """
    data = rtw(attack={"effect": {"name": "Off-Balance", "against": "vitality"}}, to_hit=[4, 4], effect=[1, 1])
    row = roll_row(data)
    assert (row["result"], row["damage"], row["effect_landed"], row["effect_to_hit"]) == ("hit", 8, False, 7)
    landed = roll_row(rtw(attack={"effect": {"name": "X", "against": "vitality"}}, to_hit=[4, 4], effect=[4, 4]))
    assert (landed["damage"], landed["effect_landed"]) == (8, True)  # 8 + 5 = 13 vs max(Vitality 11, Evasion 12)


def test_rtw_effect_roll_uses_evasion_in_place_unless_off_balance() -> None:
    """docs/rtw.md#silent-defence-stat applies to an effect's To-Hit too: vs max(Vitality, Evasion), unless
    Off-Balance."""
    effect = {"name": "Sick", "against": "vitality"}
    steady = roll_row(rtw(attack={"effect": effect}, to_hit=[6, 6], effect=[3, 3]))  # 11 vs max(11, 12)
    assert steady["effect_landed"] is False
    shaky = roll_row(rtw(attack={"effect": effect}, target={"off_balance": True}, to_hit=[6, 6], effect=[3, 3]))
    assert shaky["effect_landed"] is True  # 11 vs Vitality 11


def test_rtw_no_effect_field_when_the_attack_has_no_effect() -> None:
    """Outcome: `effect_landed` is null when the attack has no additional effect."""
    assert roll_row(rtw(to_hit=[6, 6]))["effect_landed"] is None
    assert "effect" not in SYSTEM.roles(scenario(rtw()).scenario, scenario(rtw()).scenario.targets[0])


def test_rtw_spells_and_techniques_hit_automatically() -> None:
    """Landing the Blow: "Spells and Techniques automatically hit, except when other circumstances say otherwise"."""
    for kind in ("spell", "technique"):
        data = rtw(attack={"kind": kind}, target={"evasion": 30}, to_hit=[1, 1])
        row = roll_row(data)
        assert (row["result"], row["to_hit"], row["damage"]) == ("hit", None, 8)
        assert f"A {kind.capitalize()} hits automatically" in roll_text(data)
        assert exact(data).probability("result", "hit") == 1


def test_rtw_spell_rolls_vs_evasion_with_the_penalty_when_target_hard_to_hit() -> None:
    """Hard to Hit (Status Effects; docs/rtw.md#silent-hard-to-hit): Spells and Techniques no longer hit
    automatically: they roll To-Hit vs Evasion, including the penalty."""
    data = rtw(attack={"kind": "spell"}, target={"hard_to_hit": "hard"}, to_hit=[4, 4])
    row = roll_row(data)
    assert (row["to_hit"], row["defence_stat"], row["result"]) == (11, 12, "miss")  # 8 + 5 - 2
    assert roll_row(rtw(attack={"kind": "spell"}, target={"hard_to_hit": "hard"}, to_hit=[4, 5]))["result"] == "hit"
    extreme = roll_row(rtw(attack={"kind": "technique"}, target={"hard_to_hit": "extreme"}, to_hit=[6, 6]))
    assert (extreme["to_hit"], extreme["result"]) == (12, "hit")


def test_rtw_spell_rolls_when_the_caster_is_distracted_or_blinded() -> None:
    """Landing the Blow: "(such as being Distracted or Blinded)": the foes become Hard to Hit, so the Spell rolls."""
    distracted = roll_row(rtw(attack={"kind": "spell"}, attacker={"distracted": True}, to_hit=[4, 4]))
    assert (distracted["hard_to_hit"], distracted["to_hit"], distracted["result"]) == ("hard", 11, "miss")
    blinded = roll_row(rtw(attack={"kind": "spell"}, attacker={"blinded": True}, to_hit=[6, 6]))
    assert (blinded["hard_to_hit"], blinded["to_hit"], blinded["result"]) == ("extreme", 12, "hit")


def test_rtw_blinded_attacker_takes_minus_5_and_spells_must_roll() -> None:
    """the game's other pages test idea: a Blinded attacker: -5 To-Hit, and Spells now have to roll."""
    basic = roll_row(rtw(attacker={"blinded": True}, to_hit=[3, 4]))
    assert basic["to_hit"] == 7
    spell = roll_row(rtw(attack={"kind": "spell"}, attacker={"blinded": True}, to_hit=[3, 4]))
    assert (spell["to_hit"], spell["result"]) == (7, "miss")


def test_rtw_reactions_still_mitigate_spells() -> None:
    """Landing the Blow: "Spells and Techniques can still be mitigated by Reactions." Deflect halves 8 to 4."""
    row = roll_row(rtw(attack={"kind": "spell"}, target={"reaction": "deflect"}))
    assert (row["result"], row["damage"]) == ("hit", 4)


def test_rtw_spell_effect_rolls_vs_concentration_or_vitality_and_decides_only_the_effect() -> None:
    """Landing the Blow: a Spell's additional effect rolls To-Hit vs Concentration or Vitality; "failing this check
    does not change whether or not the target suffers damage"."""
    attack = {"kind": "spell", "effect": {"name": "Distracted", "against": "concentration"}}
    target = {"evasion": 9, "concentration": 14}
    fails = roll_row(rtw(attack=attack, target=target, effect=[4, 4]))  # 8 + 5 = 13 vs 14
    lands = roll_row(rtw(attack=attack, target=target, effect=[4, 5]))  # 14 vs 14
    assert (fails["result"], fails["damage"], fails["effect_landed"]) == ("hit", 8, False)
    assert (lands["result"], lands["damage"], lands["effect_landed"]) == ("hit", 8, True)


def test_rtw_no_effect_roll_when_the_spell_missed() -> None:
    """Landing the Blow: "If the Spell or Technique misses for any reason, then you do not even roll to see if any
    additional effects land – they, too, miss." """
    attack = {"kind": "spell", "effect": {"name": "Soaked", "against": "vitality"}}
    data = rtw(attack=attack, target={"hard_to_hit": "extreme"}, to_hit=[1, 1], effect=[6, 6])
    row = roll_row(data)
    assert (row["result"], row["effect_landed"], row["effect_to_hit"]) == ("miss", False, None)
    assert "Soaked: not rolled, the attack missed" in roll_text(data)


def test_rtw_spells_never_critical_from_a_roll() -> None:
    """Landing the Blow: "Spells and Techniques are never made Critical Hits due to rolls To-Hit"."""
    row = roll_row(rtw(attack={"kind": "spell"}, target={"hard_to_hit": "hard"}, to_hit=[6, 6]))
    assert (row["result"], row["critical"], row["damage"]) == ("hit", False, 8)
    technique = exact(rtw(attack={"kind": "technique"}, target={"hard_to_hit": "hard"}))
    assert technique.probability("critical", True) == 0
    assert technique.probability("result", "hit") == Fraction(10, 36)  # 2d6 + 5 - 2 >= 12: 2d6 >= 9


def test_rtw_other_sources_can_make_a_spell_critical() -> None:
    """Landing the Blow: "other circumstances can make a Spell or Technique be a Critical Hit" — for one that can
    normally miss (Critical Hits: "except those that enable additional Basic Attacks"), a Burning weapon does."""
    weapon = {"name": "branch", "attack_power": 4, "acc": 4, "damage_type": "blunt", "burning": True}
    attack = {"kind": "technique", "normally_able_to_miss": True}
    row = roll_row(rtw(attacker={"weapon": weapon}, attack=attack))
    assert (row["critical"], row["damage"]) == (True, 4 + 3 + 4)


def test_rtw_unarmed_has_acc_5_and_no_weapon_damage() -> None:
    """Landing the Blow: "for unarmed attacks, you have a Weapon Accuracy bonus of 5 – but no damage bonus from an
    equipped weapon" (a Fist of Attack Power 0, docs/rtw.md#silent-unarmed)."""
    data = rtw(attacker={"weapon": None}, to_hit=[3, 4])
    row = roll_row(data)
    assert (row["to_hit"], row["damage"], row["durability_used"]) == (14, 3, False)
    assert "unarmed ACC 5" in roll_text(data)
    crit = roll_row(rtw(attacker={"weapon": None}, to_hit=[6, 6]))
    assert (crit["critical"], crit["damage"]) == (True, 3)  # Attack Power 0 again


def test_rtw_several_targets_one_to_hit_roll_per_target() -> None:
    """Landing the Blow: "If an Attack targets multiple foes, you must roll all To-Hit checks once for each foe." """
    targets = [
        {"name": "A", "evasion": 12, "dice": {"to_hit": [1, 1]}},
        {"name": "B", "evasion": 12, "dice": {"to_hit": [6, 6]}},
        {"name": "C", "evasion": 12},
    ]
    loaded = scenario(rtw(targets=targets))
    for target in loaded.scenario.targets:
        assert SYSTEM.roles(loaded.scenario, target)["to_hit"].scope == "target"
    result = roll(loaded, seed=3)
    assert result.target("A").row["result"] == "miss"
    assert result.target("B").row["result"] == "hit"
    assert result.target("C").faces["to_hit"] != []
    # Unforced targets draw their own dice: over many seeds two targets do not always share faces.
    two = scenario(rtw(targets=[{"name": "A", "evasion": 12}, {"name": "B", "evasion": 12}]))
    differ = sum(roll(two, seed=s).target("A").faces != roll(two, seed=s).target("B").faces for s in range(20))
    assert differ > 10
