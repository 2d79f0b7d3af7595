"""Reclaim the Wild state the attack reports: Weapon Durability, Peril, Falling in Battle (a fight applies it)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.rtw.helpers import exact, roll_row, roll_text, rtw
from tohit.systems.rtw.consequences import (
    durability_after_encounter,
    durability_after_stress,
    in_peril,
    max_health,
)

BURNING = {"name": "branch", "attack_power": 4, "acc": 4, "damage_type": "blunt", "burning": True, "durability": 3}


def test_rtw_weapon_used_successfully_reports_durability_used() -> None:
    """Weapon Durability: "Whenever a weapon is successfully used in any encounter, at the end of that encounter,
    the weapon takes 1 Durability damage": reported on a hit, not on a miss, never unarmed."""
    hit = rtw(to_hit=[4, 4])
    assert roll_row(hit)["durability_used"] is True
    assert "1 Durability damage at the end of the encounter" in roll_text(hit)
    assert roll_row(rtw(to_hit=[1, 1]))["durability_used"] is False
    assert roll_row(rtw(attacker={"weapon": None}, to_hit=[4, 4]))["durability_used"] is False
    assert exact(rtw()).probability("durability_used", True) == exact(rtw()).probability("result", "hit")


def test_rtw_weapon_takes_1_durability_at_the_end_of_an_encounter_it_was_used_in() -> None:
    """Weapon Durability: 1 Durability damage at the end of the encounter, whatever the number of hits."""
    assert durability_after_encounter(9, True) == (8, False)
    assert durability_after_encounter(9, False) == (9, False)


def test_rtw_weapon_stress_out_of_combat_costs_1_durability() -> None:
    """Weapon Durability: "If the weapon is struck against anything out of combat, or otherwise put under stress,
    that use also incurs 1 Durability damage." """
    assert durability_after_stress(4) == (3, False)
    assert durability_after_stress(4, 2) == (2, False)


def test_rtw_weapon_at_0_durability_shatters_and_cannot_be_used() -> None:
    """Weapon Durability: "When a weapon's Durability reaches 0, it shatters ... it can no longer be used": the
    helpers report the shattering, and a weapon of Durability 0 is refused in a scenario."""
    assert durability_after_encounter(1, True) == (0, True)
    assert durability_after_stress(1) == (0, True)
    from tests.conftest import scenario
    from tohit.core.errors import InputError

    with pytest.raises(InputError, match=r"attacker\.weapon\.durability"):
        scenario(rtw(attacker={"weapon": {"attack_power": 5, "acc": 3, "damage_type": "sharp", "durability": 0}}))


def test_rtw_weapons_cannot_be_repaired() -> None:
    """Weapon Durability: "In general, weapons cannot be repaired": nothing raises Durability."""
    for durability in range(1, 6):
        for used in (True, False):
            assert durability_after_encounter(durability, used)[0] <= durability
        for uses in range(3):
            assert durability_after_stress(durability, uses)[0] <= durability
    with pytest.raises(ValueError):
        durability_after_stress(3, -1)


def test_rtw_burning_weapon_loses_1_durability_for_every_foe_it_hits() -> None:
    """Status Effects Burning: "1 Durability from every foe it hits" (reported as `burning_wear`)."""
    assert roll_row(rtw(attacker={"weapon": BURNING}, to_hit=[4, 4]))["burning_wear"] is True
    assert roll_row(rtw(attacker={"weapon": BURNING}, to_hit=[1, 1]))["burning_wear"] is False
    assert roll_row(rtw(to_hit=[4, 4]))["burning_wear"] is False


@pytest.mark.parametrize(("health", "peril"), [(21, False), (20, False), (6, False), (5, True), (0, True)])
def test_rtw_peril_when_health_at_most_hearts(health: int, peril: bool) -> None:
    """Peril: "when your Health is equal to or less than your Hearts score – you are in Peril"
    (docs/rtw.md#silent-peril)."""
    assert bool(in_peril(health, 5)) is peril


def test_rtw_attack_reports_peril_after_its_damage() -> None:
    """Peril after the hit: Health 13 - 8 = 5 <= Hearts 5; a miss leaves 13: not in Peril."""
    target = {"health": 13, "hearts": 5}
    hit = roll_row(rtw(target=target, to_hit=[4, 4]))
    assert (hit["health_after"], hit["peril"]) == (5, True)
    assert "Health 13 - 8 = 5 vs Hearts 5: in Peril" in roll_text(rtw(target=target, to_hit=[4, 4]))
    assert roll_row(rtw(target=target, to_hit=[1, 1]))["peril"] is False
    assert roll_row(rtw(to_hit=[4, 4]))["peril"] is None  # Health and Hearts not given


def test_rtw_max_health_is_4_times_hearts_unless_given() -> None:
    """docs/rtw.md#silent-peril: Max Health = 4 x Hearts unless given; a Health above it is refused."""
    assert max_health(5) == 20
    assert max_health(5, 26) == 26
    from tests.conftest import scenario
    from tohit.core.errors import InputError

    with pytest.raises(InputError, match=r"targets\[0\]\.health: 21 is above Max Health 20"):
        scenario(rtw(target={"health": 21, "hearts": 5}))
    assert roll_row(rtw(target={"health": 21, "hearts": 5, "max_health": 26}, to_hit=[4, 4]))["health_after"] == 13


def test_rtw_creature_at_0_health_perishes_at_the_attackers_choice() -> None:
    """Falling in Battle: "When a creature reaches 0 Health, they either perish, or simply fall Helpless – depending
    on the attacker's whims." Default whim: perish; `at_zero_health: helpless` spares."""
    target = {"health": 8, "hearts": 2}
    assert roll_row(rtw(target=target, to_hit=[4, 4]))["falls"] == "perishes"
    spared = roll_row(rtw(attack={"at_zero_health": "helpless"}, target=target, to_hit=[4, 4]))
    assert spared["falls"] == "helpless"
    assert roll_row(rtw(target={"health": 9, "hearts": 3}, to_hit=[4, 4]))["falls"] is None


def test_rtw_mindless_source_leaves_the_creature_helpless() -> None:
    """Falling in Battle: "(If the attack cannot have whims, such as ... a mindless trap, then you fall Helpless.)" """
    row = roll_row(rtw(attack={"mindless": True}, target={"health": 3, "hearts": 2}, to_hit=[4, 4]))
    assert row["falls"] == "helpless"


def test_rtw_heroes_always_fall_helpless() -> None:
    """Falling in Battle: "When reduced to 0 Health, they always merely fall Helpless, rather than dying"."""
    data = rtw(attack={"at_zero_health": "perish"}, target={"health": 3, "hearts": 2, "hero": True}, to_hit=[4, 4])
    assert roll_row(data)["falls"] == "helpless"
    assert "a Hero always falls Helpless" in roll_text(data)


def test_rtw_helpless_creature_is_killed_only_by_an_attack_aimed_at_it_alone() -> None:
    """Falling in Battle: a Helpless creature "can be killed, but it must be done with an attack specifically
    directed at them, and only them" — even a Hero."""
    target = {"health": 0, "hearts": 3, "helpless": True, "hero": True}
    row = roll_row(rtw(target=target, to_hit=[1, 1]))
    assert (row["result"], row["falls"], row["unharmed"]) == ("hit", "perishes", False)
    assert exact(rtw(target=target)).probability("falls", "perishes") == 1


def test_rtw_finishing_a_helpless_creature_is_the_attackers_choice() -> None:
    """Falling in Battle: a Helpless creature "can be killed" by an attack at it alone — a choice: an attacker who
    spares it (`at_zero_health: helpless`), or a source with no whims, leaves it Helpless."""
    target = {"health": 0, "hearts": 3, "helpless": True}
    spared = rtw(attack={"at_zero_health": "helpless"}, target=target, to_hit=[4, 4])
    assert (roll_row(spared)["result"], roll_row(spared)["falls"]) == ("hit", None)
    assert "the attacker chooses to spare it: it stays Helpless" in roll_text(spared)
    trap = rtw(attack={"mindless": True}, target=target, to_hit=[4, 4])
    assert roll_row(trap)["falls"] is None
    assert "the source has no whims" in roll_text(trap)


def test_rtw_area_attack_whose_only_target_is_the_helpless_creature_harms_it() -> None:
    """Falling in Battle: "The attack can be of any suitable type or range, but it must target that Helpless
    creature, and **only** that Helpless creature" (docs/rtw.md#silent-helpless-areas): an area attack (`area: true`)
    whose only target is the Helpless creature harms it, and may finish it."""
    target = {"health": 0, "hearts": 3, "helpless": True}
    area = rtw(attack={"area": True, "effect": {"name": "Burn", "against": "vitality"}}, target=target, effect=[6, 6])
    row = roll_row(area)
    # Guard Stats 0, so it hits: sword 5 + Combat 3 = 8; the effect lands; the attacker's whim: it perishes.
    assert (row["result"], row["damage"], row["effect_landed"], row["falls"], row["unharmed"]) == (
        "hit",
        8,
        True,
        "perishes",
        False,
    )
    text = roll_text(area)
    assert "the area's only target (it catches nobody else): aimed at it alone" in text
    assert "not harmed" not in text
    assert exact(area).probability("damage", 8) + exact(area).probability("damage", 13) == 1
    assert exact(area).probability("falls", "perishes") == 1


def test_rtw_area_attack_does_not_harm_a_helpless_creature() -> None:
    """Falling in Battle: "A Helpless foe will not be further harmed by an AoE that merely happens to catch them in
    the blast while hitting other targets." An attack at several targets, or an area that also catches creatures
    not given as targets (`catches_others: true`)."""
    target = {"health": 0, "hearts": 3, "helpless": True}
    effect = {"name": "Burn", "against": "vitality"}
    area = rtw(attack={"area": True, "catches_others": True, "effect": effect}, target=target, effect=[6, 6])
    row = roll_row(area)
    assert (row["damage"], row["effect_landed"], row["falls"], row["unharmed"], row["critical"]) == (
        0,
        False,
        None,
        True,
        False,
    )
    assert "not aimed at it alone: not harmed" in roll_text(area)
    assert exact(area).probability("damage", 0) == 1
    several = rtw(targets=[{"name": "Fallen", "evasion": 10, "helpless": True}, {"name": "Other", "evasion": 10}])
    fallen = roll_row(several, "Fallen")
    assert (fallen["damage"], fallen["unharmed"], fallen["durability_used"]) == (0, True, False)
    assert exact(several, "Fallen").probability("damage", 0) == 1
    assert exact(several, "Other").probability("damage", 0) == Fraction(6, 36)  # 2d6 of 2 to 4 misses 10


def test_rtw_restoring_health_ends_helpless_so_a_living_creature_at_0_is_helpless() -> None:
    """Falling in Battle: at 0 Health a creature is Helpless; "Restoring any Health ... ends their Helpless state".
    A target at 0 Health that is not Helpless is refused."""
    from tests.conftest import scenario
    from tohit.core.errors import InputError

    with pytest.raises(InputError, match=r"targets\[0\]\.health: a creature at 0 Health has fallen Helpless"):
        scenario(rtw(target={"health": 0, "hearts": 2}))
