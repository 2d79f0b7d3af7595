"""Reclaim the Wild, Critical Hits: the natural 12, the range, its sources, eligibility
(docs/rtw.md#silent-natural-crit)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.rtw.helpers import exact, roll_row, roll_text, rtw
from tohit.systems.rtw.models import Attack, Weapon
from tohit.systems.rtw.plan import weapon_stats
from tohit.systems.rtw.tables import critical_hit_enchantment_range

SNEAK = {"damage": {"trait": "combat", "multiplier": 2}}  # Weapon + 2 x Combat: 5 + 6 = 11


def test_rtw_natural_12_on_a_basic_attack_is_a_critical_hit() -> None:
    """Landing the Blow: "If you roll a 12 on your 2d6 when rolling To-Hit with a Basic Attack, it is a Critical
    Hit." 11 is not (no range)."""
    crit = roll_row(rtw(to_hit=[6, 6]))
    plain = roll_row(rtw(to_hit=[5, 6]))
    assert (crit["critical"], plain["critical"]) == (True, False)
    assert "Critical Hit: a natural 12 on a Basic Attack" in roll_text(rtw(to_hit=[6, 6]))


def test_rtw_worked_example_critical_range_plus_1_makes_11_and_12_critical() -> None:
    """Landing the Blow: "if you have a +1 to your Critical Hit range, then a roll of 11 or 12 on your 2d6 would be
    a Critical Hit." """
    weapon = {"name": "sword", "attack_power": 5, "acc": 3, "damage_type": "sharp", "crit_range": 1}
    by_natural = {}
    for a in range(1, 7):
        for b in range(1, 7):
            row = roll_row(rtw(attacker={"weapon": weapon}, target={"evasion": 2}, to_hit=[a, b]))
            by_natural.setdefault(a + b, set()).add(row["critical"])
    assert {n for n, crits in by_natural.items() if True in crits} == {11, 12}
    assert all(crits == {n >= 11} for n, crits in by_natural.items())
    assert exact(rtw(attacker={"weapon": weapon}, target={"evasion": 2})).probability("critical", True) == Fraction(
        3, 36
    )


def test_rtw_worked_example_sneak_attack_as_a_critical_deals_16() -> None:
    """Critical Hits: "add the Weapon's Attack Power again": the page's Weapon + 2 x Combat = 11 becomes 16."""
    assert roll_row(rtw(attack=SNEAK, to_hit=[5, 5]))["damage"] == 11
    row = roll_row(rtw(attack=SNEAK, to_hit=[6, 6]))
    assert (row["critical"], row["damage"]) == (True, 16)
    assert "Critical Hit: + Attack Power 5 again = 16" in roll_text(rtw(attack=SNEAK, to_hit=[6, 6]))


@pytest.mark.parametrize(("rank", "widening"), [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3)])
def test_rtw_critical_hit_enchantment_widens_the_range_by_1_plus_half_rank(rank: int, widening: int) -> None:
    """Enchantments Critical Hit: "(1 + (Rank / 2))", rounded down (docs/rtw.md#silent-rounding)."""
    assert critical_hit_enchantment_range(rank) == widening
    weapon = Weapon.model_validate({**_SWORD, "enchantments": {"critical_hit": rank}})
    assert weapon_stats(weapon, Attack()).crit_range == widening
    odds = exact(rtw(attacker={"weapon": {**_SWORD, "enchantments": {"critical_hit": rank}}}, target={"evasion": 2}))
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= 12 - widening)
    assert odds.probability("critical", True) == Fraction(ways, 36)


_SWORD = {"name": "sword", "attack_power": 5, "acc": 3, "damage_type": "sharp"}


@pytest.mark.parametrize(("rank", "acc", "atk", "crit"), [(0, 0, 1, 0), (1, 0, 2, 0), (2, 1, 2, 1), (5, 2, 4, 2)])
def test_rtw_perfectly_balanced_adds_acc_attack_power_and_critical_range(
    rank: int, acc: int, atk: int, crit: int
) -> None:
    """Enchantments Perfectly Balanced: ACC 0,0,1,1,2,2; ATK 1,2,2,3,3,4; CRIT 0,0,1,1,2,2 by rank."""
    weapon = Weapon.model_validate({**_SWORD, "enchantments": {"perfectly_balanced": rank}})
    stats = weapon_stats(weapon, Attack())
    assert (stats.acc, stats.attack_power, stats.crit_range) == (3 + acc, 5 + atk, crit)
    row = roll_row(rtw(attacker={"weapon": {**_SWORD, "enchantments": {"perfectly_balanced": rank}}}, to_hit=[3, 4]))
    assert (row["to_hit"], row["damage"]) == (7 + 2 + 3 + acc, 5 + atk + 3)


def test_rtw_range_sources_add_up() -> None:
    """Range sources add: weapon +1, Critical Hit rank 2 (+2), Perfectly Balanced rank 4 (+2), attack +1: 6."""
    weapon = Weapon.model_validate(
        {**_SWORD, "crit_range": 1, "enchantments": {"critical_hit": 2, "perfectly_balanced": 4}}
    )
    assert weapon_stats(weapon, Attack(crit_range=1)).crit_range == 6
    text = roll_text(rtw(attacker={"weapon": weapon.model_dump()}, attack={"crit_range": 1}, to_hit=[3, 3]))
    assert "a natural 6-12 (range +6" in text


def test_rtw_natural_critical_only_if_the_attack_also_hits() -> None:
    """docs/rtw.md#silent-natural-crit: a natural 12 is a Critical Hit only if the attack also hits (option
    natural_crit_always_hits, default false)."""
    row = roll_row(rtw(target={"evasion": 25}, to_hit=[6, 6]))  # 12 + 5 = 17 vs 25
    assert (row["result"], row["critical"], row["damage"]) == ("miss", False, 0)


def test_rtw_option_natural_crit_always_hits() -> None:
    """docs/rtw.md#silent-natural-crit, option `natural_crit_always_hits: true`: a natural roll in the range hits and
    is critical."""
    data = rtw(target={"evasion": 25}, to_hit=[6, 6], options={"natural_crit_always_hits": True})
    row = roll_row(data)
    assert (row["result"], row["critical"], row["damage"]) == ("hit", True, 13)
    assert "always hits: option" in roll_text(data)
    assert roll_row(rtw(target={"evasion": 25}, to_hit=[6, 5], options={"natural_crit_always_hits": True}))[
        "result"
    ] == ("miss")


def test_rtw_burning_weapon_makes_every_attack_critical_even_automatic_hits() -> None:
    """Status Effects Burning: "all attacks made with it are Critical Hits, even if they automatically hit"."""
    weapon = {"name": "branch", "attack_power": 4, "acc": 4, "damage_type": "blunt", "burning": True}
    rolled = roll_row(rtw(attacker={"weapon": weapon}, to_hit=[3, 4]))
    assert (rolled["critical"], rolled["damage"]) == (True, 4 + 3 + 4)
    automatic = roll_row(rtw(attacker={"weapon": weapon}, target={"intercepting": True}))
    assert (automatic["to_hit"], automatic["critical"], automatic["damage"]) == (None, True, 11)
    missed = roll_row(rtw(attacker={"weapon": weapon}, to_hit=[1, 1]))
    assert (missed["critical"], missed["damage"]) == (False, 0)


def test_rtw_burning_weapon_deals_fire_damage() -> None:
    """Status Effects Burning: "all attacks do Fire-type damage, regardless of their usual damage type"."""
    weapon = {"name": "branch", "attack_power": 4, "acc": 4, "damage_type": "blunt", "burning": True}
    row = roll_row(rtw(attacker={"weapon": weapon}, attack={"damage_type": "blunt"}, target={"immune": ["fire"]}))
    assert (row["result"], row["damage"]) == ("hit", 0)


def test_rtw_frozen_target_next_non_fire_hit_is_critical() -> None:
    """Status Effects Frozen: "The next (non-Fire) attack to connect with you is automatically a Critical Hit";
    Frozen Halts (Evasion 0), and the hit releases it."""
    row = roll_row(rtw(target={"frozen": True}, to_hit=[1, 2]))
    assert (row["defence_stat"], row["result"], row["critical"], row["damage"], row["frozen_ends"]) == (
        0,
        "hit",
        True,
        13,
        True,
    )
    fire = roll_row(rtw(attack={"damage_type": "fire"}, target={"frozen": True}, to_hit=[1, 2]))
    assert (fire["critical"], fire["damage"], fire["frozen_ends"]) == (False, 8, True)


def test_rtw_several_critical_sources_still_one_critical() -> None:
    """Critical Hits: "If multiple circumstances cause an attack to be a Critical Hit, then it's still 'just' a
    Critical Hit": natural 12 + Burning + Frozen add the Attack Power once."""
    weapon = {"name": "branch", "attack_power": 4, "acc": 4, "damage_type": "blunt", "burning": True}
    data = rtw(attacker={"weapon": weapon}, target={"frozen": True}, to_hit=[6, 6])
    row = roll_row(data)
    assert (row["critical"], row["damage"]) == (True, 4 + 3 + 4)
    assert "still one Critical Hit" in roll_text(data)


def test_rtw_only_an_attack_that_can_normally_miss_can_be_critical() -> None:
    """Critical Hits: "An attack must normally be able to miss, to be eligible to be a Critical Hit. This excludes
    most Spells and Techniques": a Spell with a Burning weapon on a Frozen target is not critical."""
    weapon = {"name": "branch", "attack_power": 4, "acc": 4, "damage_type": "blunt", "burning": True}
    data = rtw(attacker={"weapon": weapon}, attack={"kind": "spell"}, target={"frozen": True})
    row = roll_row(data)
    assert (row["critical"], row["damage"]) == (False, 7)
    assert "not eligible" in roll_text(data)
    # A Basic Attack that hits automatically (Intercepted) can still be critical: it could normally miss.
    assert roll_row(rtw(target={"frozen": True, "intercepting": True}))["critical"] is True
