"""Reclaim the Wild, Damage, Vulnerability and Reactions (docs/rtw.md#silent-damage-pipeline,
docs/rtw.md#silent-rounding): numbers in, numbers out."""

from __future__ import annotations

import pytest

from tests.rtw.helpers import roll_row, roll_text, rtw
from tohit.systems.rtw.damage import mitigate, raw_damage
from tohit.systems.rtw.models import DamageFormula


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ({"trait": "combat", "multiplier": 1}, 5 + 3),
        ({"trait": "combat", "multiplier": 2}, 5 + 6),
        ({"trait": "combat", "multiplier": 3}, 5 + 9),
        ({"trait": "willpower", "multiplier": 2}, 5 + 4),
        ({"trait": "combat", "weapon": False}, 3),
        ({"trait": "none", "weapon": True}, 5),
    ],
)
def test_rtw_damage_is_weapon_plus_k_times_trait(formula: dict[str, object], expected: int) -> None:
    """Damage: "Weapon + Trait": the weapon's Attack Power plus Combat or Willpower, "multiplied by 2, or even 3"
    (k = 1, 2, 3), or the Trait only (Combat 3, Willpower 2, Attack Power 5)."""
    assert raw_damage(DamageFormula.model_validate(formula), 5, 3, 2).total == expected
    assert roll_row(rtw(attack={"damage": formula}, to_hit=[4, 4]))["damage"] == expected


def test_rtw_worked_example_sneak_attack_deals_11() -> None:
    """Damage: "a sword with an Attack Power of 5, your Combat Trait is 3, ... a Sneak Attack, for (Weapon + (2 x
    Combat)) damage ... a total of 11 damage." """
    item = raw_damage(DamageFormula(trait="combat", multiplier=2), 5, 3, 0)
    assert (item.total, item.text) == (11, "Damage: Weapon 5 + 2 x Combat 3 = 11")


def test_rtw_damage_subtracts_defense_then_resistance() -> None:
    """Damage: "subtract the target's Defense. Then, apply the target's Resistance": 2 per rank
    (docs/rtw.md#silent-damage-pipeline)."""
    row = roll_row(rtw(attack={"damage_type": "fire"}, target={"defense": 2, "resistance": {"fire": 1}}, to_hit=[4, 4]))
    assert row["damage"] == 8 - 2 - 2
    text = roll_text(rtw(target={"defense": 2, "resistance": {"sharp": 1}}, to_hit=[4, 4]))
    assert text.index("- Defense 2") < text.index("- Resistance to sharp")


def test_rtw_resistance_of_another_type_does_not_apply() -> None:
    """Status Effects Resistant: "Resistance always specifies the type of damage"."""
    assert roll_row(rtw(target={"resistance": {"fire": 3}}, to_hit=[4, 4]))["damage"] == 8


def test_rtw_only_the_highest_resistance_applies() -> None:
    """Status Effects Resistant: "If an attack triggers multiple Resistances, apply only the highest"."""
    target = {"resistance": {"sharp": 1, "ice": 2}}
    assert roll_row(rtw(attack={"damage_type": ["sharp", "ice"]}, target=target, to_hit=[4, 4]))["damage"] == 8 - 4


def test_rtw_landed_attack_deals_at_least_1() -> None:
    """Damage: "All attacks, if they land and their target is not immune to them, will do at least 1 damage." """
    data = rtw(target={"defense": 20}, to_hit=[6, 5])
    assert roll_row(data)["damage"] == 1
    assert "a landed attack deals at least 1: 1" in roll_text(data)
    assert roll_row(rtw(target={"defense": 6, "resistance": {"sharp": 5}}, to_hit=[6, 5]))["damage"] == 1


def test_rtw_immune_target_takes_0() -> None:
    """Damage + Elements and Monsters: immunity means 0 damage, "regardless of other damage types,
    Vulnerabilities, or other effects"."""
    target = {"immune": ["ice"], "vulnerable": ["sharp"]}
    row = roll_row(rtw(attack={"damage_type": ["sharp", "ice"]}, target=target, to_hit=[6, 6]))
    assert (row["result"], row["critical"], row["damage"]) == ("hit", True, 0)


def test_rtw_worked_example_vulnerable_with_2_ranks_of_resistance() -> None:
    """Vulnerability (the game's other pages example): raw 11, Defense 3, Vulnerable, 2 ranks: 11 + 4 - 3 - 2 x 1 =
    10."""
    damage = mitigate(11, ("fire",), defense=3, resistance={"fire": 2}, vulnerable=("fire",), immune=())
    assert damage.final == 10
    assert [i.total for i in damage.items] == [15, 12, 10]
    row = roll_row(
        rtw(
            attack={"damage": {"trait": "combat", "multiplier": 2}, "damage_type": "fire"},
            target={"defense": 3, "resistance": {"fire": 2}, "vulnerable": ["fire"]},
            to_hit=[4, 4],
        )
    )
    assert row["damage"] == 10


def test_rtw_vulnerability_floor_is_4() -> None:
    """Vulnerability: "the total damage can't be reduced below 4"."""
    assert mitigate(11, ("fire",), defense=20, resistance={}, vulnerable=("fire",), immune=()).final == 4
    assert mitigate(11, ("fire",), defense=20, resistance={}, vulnerable=(), immune=()).final == 1
    row = roll_row(rtw(target={"defense": 30, "vulnerable": ["sharp"], "reaction": "deflect"}, to_hit=[4, 4]))
    assert row["damage"] == 4


def test_rtw_vulnerability_applies_once_per_hit() -> None:
    """Vulnerability: "hitting multiple Vulnerabilities in one attack still only deals 4 additional damage"."""
    target = {"vulnerable": ["sharp", "ice"]}
    assert roll_row(rtw(attack={"damage_type": ["sharp", "ice"]}, target=target, to_hit=[4, 4]))["damage"] == 8 + 4


def test_rtw_vulnerability_halves_resistance() -> None:
    """Vulnerability: "apply only half Resistance" (1 per rank instead of 2, Status Effects)."""
    resisted = roll_row(rtw(target={"resistance": {"sharp": 3}}, to_hit=[4, 4]))["damage"]
    both = roll_row(rtw(target={"resistance": {"sharp": 3}, "vulnerable": ["sharp"]}, to_hit=[4, 4]))["damage"]
    assert (resisted, both) == (8 - 6, 8 + 4 - 3)


@pytest.mark.parametrize("reaction", ["deflect", "parry"])
def test_rtw_deflect_and_parry_halve_after_defense_rounding_down(reaction: str) -> None:
    """Basic Reactions: Deflect and Parry halve the damage after Defense; halving rounds down
    (docs/rtw.md#silent-rounding)."""
    data = rtw(target={"defense": 1, "reaction": reaction}, to_hit=[4, 4])
    assert roll_row(data)["damage"] == (8 - 1) // 2
    assert f"{reaction.capitalize()} halves: 7 / 2 = 3 (rounded down)" in roll_text(data)


def test_rtw_halving_comes_before_the_floor() -> None:
    """docs/rtw.md#silent-damage-pipeline: Reactions halve, then the floor (1, or 4 if Vulnerable) applies: 1 // 2 = 0
    -> 1."""
    assert roll_row(rtw(target={"defense": 7, "reaction": "parry"}, to_hit=[4, 4]))["damage"] == 1


def test_rtw_worked_example_vulnerable_with_a_reaction() -> None:
    """docs/rtw.md#silent-damage-pipeline order: (11 + 4 - 3 - 2) = 10, Deflect: 5; the floor of 4 does not lift it."""
    damage = mitigate(
        11, ("fire",), defense=3, resistance={"fire": 2}, vulnerable=("fire",), immune=(), halving="Deflect"
    )
    assert damage.final == 5


def test_rtw_parry_only_against_line_melee_or_sweep() -> None:
    """Basic Reactions: Parry works against Line, Melee or Sweep attacks (others are refused as bad input)."""
    for rng in ("line", "melee", "sweep"):
        assert roll_row(rtw(attack={"range": rng}, target={"reaction": "parry"}, to_hit=[4, 4]))["damage"] == 4


def test_rtw_intercept_hits_the_interceptor_automatically() -> None:
    """maneuvers.md Intercept: "The attack then automatically hits the interceptor; no Reactions are allowed, and any
    follow-up To-Hit effects also auto-hit." """
    attack = {"effect": {"name": "Off-Balance", "against": "vitality"}}
    data = rtw(
        attack=attack, target={"evasion": 40, "vitality": 40, "intercepting": True}, to_hit=[1, 1], effect=[1, 1]
    )
    row = roll_row(data)
    assert (row["result"], row["to_hit"], row["damage"], row["effect_landed"]) == ("hit", None, 8, True)
    assert "Intercepted the attack: it hits automatically" in roll_text(data)


def test_rtw_interceptor_feat_halves_after_defense_and_effects_roll_normally() -> None:
    """Feats Interceptor: halve that damage after Defense; follow-up effects roll normally."""
    attack = {"effect": {"name": "Off-Balance", "against": "vitality"}}
    target = {"defense": 1, "intercepting": True, "interceptor_feat": True}
    missed = roll_row(rtw(attack=attack, target=target, effect=[1, 1]))
    landed = roll_row(rtw(attack=attack, target=target, effect=[6, 6]))
    assert (missed["damage"], missed["effect_landed"]) == (3, False)
    assert (landed["damage"], landed["effect_landed"]) == (3, True)


def test_rtw_attack_without_damage_deals_none() -> None:
    """An attack that names no damage (`damage: null`, e.g. a pure status Spell) deals 0 when it lands."""
    row = roll_row(
        rtw(
            attack={"kind": "spell", "damage": None, "effect": {"name": "Distracted", "against": "concentration"}},
            effect=[6, 6],
        )
    )
    assert (row["result"], row["damage"], row["effect_landed"]) == ("hit", 0, True)
