"""FullPlate, Attacking: Enhancement, Special Defence (wiki), magical ammunition (issue #5;
docs/fullplate.md#silent-enhancement)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fullplate.helpers import make, row, trace

BOW = {"damage": "1d6", "kind": "bow_like"}


def _bow(bow: int, arrows: int | None, **extra: Any) -> dict[str, Any]:
    attacker: dict[str, Any] = {"thac0": 14}
    if arrows is not None:
        attacker["ammunition"] = {"enhancement": arrows}
    return make(attacker=attacker, weapon={**BOW, "enhancement": bow}, dice={"to_hit": [15], "damage": [4]}, **extra)


def test_fullplate_enhancement_adds_to_to_hit_and_damage() -> None:
    """Enhancement: "An Enhancement modifier applies to both To-Hit and Damage"."""
    out = row(make(weapon={"enhancement": 2}, dice={"to_hit": [15], "damage": [4]}))
    assert (out["effective_thac0"], out["damage"]) == (12, 6)


def test_fullplate_enhancement_penalty_subtracts_from_to_hit_and_damage() -> None:
    """A cursed -1 weapon: -1 to hit and damage."""
    out = row(make(weapon={"enhancement": -1}, dice={"to_hit": [15], "damage": [4]}))
    assert (out["effective_thac0"], out["damage"]) == (15, 3)


def test_fullplate_launcher_and_ammunition_enhancements_add() -> None:
    """ "The Enhancement modifier of ammunition and ranged weapons stack"."""
    out = row(_bow(1, 2))
    assert (out["effective_thac0"], out["damage"]) == (11, 7)


def test_fullplate_only_the_highest_other_enhancement_counts() -> None:
    """Damage (wiki): Enhancement from several sources does not stack, only the highest counts (launcher and
    ammunition excepted): a +1 sword under a +3 spell is +3, a +2 sword under a +1 spell +2."""
    spell3 = row(make(weapon={"enhancement": 1}, attack={"enhancement": 3}, dice={"to_hit": [15], "damage": [4]}))
    spell1 = row(make(weapon={"enhancement": 2}, attack={"enhancement": 1}, dice={"to_hit": [15], "damage": [4]}))
    assert (spell3["effective_thac0"], spell3["damage"]) == (11, 7)
    assert (spell1["effective_thac0"], spell1["damage"]) == (12, 6)


def test_fullplate_separate_damage_enhancement() -> None:
    """A +1/+3 weapon: +1 to hit, +3 to damage."""
    out = row(make(weapon={"enhancement": 1, "damage_enhancement": 3}, dice={"to_hit": [15], "damage": [4]}))
    assert (out["effective_thac0"], out["damage"]) == (13, 7)


@pytest.mark.parametrize(
    ("enhancement", "sd", "damage"),
    [
        (1, 1, 5),  # equal or higher: full
        (2, 1, 6),
        (0, 1, 2),  # 1 lower: half (4 // 2)
        (1, 2, 2),  # 1 lower: half (5 // 2)
        (0, 2, 1),  # 2 lower: minimum damage (1d8 rolls 1 at least)
        (1, 3, 2),  # 2 lower: minimum (1 + 1)
        (0, 3, 0),  # 3 or more lower: none
        (1, 4, 0),
    ],
)
def test_fullplate_special_defence_in_heroic_games(enhancement: int, sd: int, damage: int) -> None:
    """Special Defence (wiki), Heroic/Epic: at the SD level or higher full damage, 1 lower half, 2 lower minimum,
    3 or more lower none (the wiki's table: Normal vs +1/+2/+3: 1/2, minimum, none)."""
    data = make(
        weapon={"enhancement": enhancement}, target={"special_defence": sd}, dice={"to_hit": [15], "damage": [4]}
    )
    out = row(data)
    assert (out["result"], out["damage"]) == ("hit", damage)
    epic = row({**data, "options": {"game": "epic"}})
    assert epic["damage"] == damage


@pytest.mark.parametrize(("enhancement", "sd", "damage"), [(1, 1, 5), (2, 1, 6), (0, 1, 0), (1, 2, 0), (2, 3, 0)])
def test_fullplate_special_defence_in_traditional_games(enhancement: int, sd: int, damage: int) -> None:
    """Special Defence (wiki), Traditional: anything below the SD level does no damage."""
    data = make(
        weapon={"enhancement": enhancement},
        target={"special_defence": sd},
        options={"game": "traditional"},
        dice={"to_hit": [15], "damage": [4]},
    )
    assert row(data)["damage"] == damage


def test_fullplate_special_defence_uses_the_lower_of_to_hit_and_damage_enhancement() -> None:
    """Special Defence (wiki): "The weapon's effective enhancement is the lower of its to-hit and damage
    enhancements": a +1/+3 weapon meets SD +2 as +1 (half damage)."""
    data = make(
        weapon={"enhancement": 1, "damage_enhancement": 3},
        target={"special_defence": 2},
        dice={"to_hit": [15], "damage": [4]},
    )
    assert row(data)["damage"] == (4 + 3) // 2


def test_fullplate_special_defence_highest_of_launcher_and_ammunition_in_heroic_games() -> None:
    """ "the highest Enhancement Modifier across ranged weapon and ammunition is used in Heroic and Epic games":
    a +1 bow with +2 arrows meets SD +2 as +2 (full damage: 4 + 3)."""
    data = _bow(1, 2, target={"special_defence": 2})
    assert row(data)["damage"] == 7
    assert "highest of launcher +1 and ammunition +2 (heroic game)" in trace(data)
    # SD +3: +2 is one lower: half of 7.
    assert row(_bow(1, 2, target={"special_defence": 3}))["damage"] == 3


def test_fullplate_special_defence_counts_ammunition_alone_in_traditional_games() -> None:
    """ "In Traditional Games, only the Enhancement modifier of the ammunition is considered": a +3 bow with
    normal arrows does nothing to SD +1; +1 arrows from a plain bow do."""
    options = {"game": "traditional"}
    assert row(_bow(3, 0, target={"special_defence": 1}, options=options))["damage"] == 0
    assert row(_bow(3, None, target={"special_defence": 1}, options=options))["damage"] == 0
    assert row(_bow(0, 1, target={"special_defence": 1}, options=options))["damage"] == 5


def test_fullplate_breech_immunity_counts_against_special_defence_only() -> None:
    """Breech Immunity +N (wiki): counts as +N for Special Defence, with no to-hit or damage bonus."""
    data = make(attacker={"breech_immunity": 2}, target={"special_defence": 2}, dice={"to_hit": [15], "damage": [4]})
    out = row(data)
    assert (out["effective_thac0"], out["damage"]) == (14, 4)


@pytest.mark.parametrize(
    ("before", "loses_all", "natural", "after"),
    [(2, False, 15, 1), (1, False, 15, 0), (3, True, 15, 0), (2, False, 2, 2), (-1, False, 15, -1), (0, False, 15, 0)],
)
def test_fullplate_magical_ammunition_loses_1_enhancement_after_a_hit(
    before: int, loses_all: bool, natural: int, after: int
) -> None:
    """ "If Magical Ammunition is retrieved after successfully hitting a target, its Enhancement bonus decreases by
    1, until it becomes 0. Some Ammunition lose all ... Enhancement penalties are not lost or gained"."""
    data = make(
        attacker={"ammunition": {"enhancement": before, "loses_all_on_hit": loses_all}},
        weapon=BOW,
        dice={"to_hit": [natural], "damage": [4]},
    )
    assert row(data)["ammunition_enhancement"] == after


def test_fullplate_no_ammunition_reports_null() -> None:
    assert row(make(dice={"to_hit": [15]}))["ammunition_enhancement"] is None


@pytest.mark.parametrize("crit_damage", ["severity", "double_dice", "max_damage"])
def test_fullplate_special_defence_minimum_is_the_weapons_least_normal_damage(crit_damage: str) -> None:
    """ "2 lower does minimum damage": the weapon's least normal damage (every die a 1, plus modifiers), even on a
    Critical Hit that doubles or maximises the dice: 2d4 + 1 -> 3."""
    data = make(
        attacker={"thac0": 10, "damage_bonus": 1},
        weapon={"damage": "2d4"},
        target={"special_defence": 2},
        options={"crit_damage": crit_damage},
        dice={"to_hit": [20], "damage": [4, 4], "damage_again": [4, 4], "severity": [1]},
    )
    if crit_damage != "double_dice":
        del data["dice"]["damage_again"]
    if crit_damage != "severity":
        del data["dice"]["severity"]
    out = row(data)
    assert (out["critical"], out["damage"]) == (True, 3)
