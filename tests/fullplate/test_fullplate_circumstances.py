"""FullPlate, Attacking: Circumstantial Modifiers, every row with the page's sign (issue #5;
docs/fullplate.md#silent-modifier-scales, docs/fullplate.md#silent-range-bands), and Flatfooted (the FullPlate wiki
"AC and Flatfooted")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.fullplate.helpers import load, make, row, trace
from tohit.cli.app import app
from tohit.core.errors import InputError

# The page's table, copied row by row: (id, modifier, weapon kind it fits, distance it fits).
PAGE_TABLE: list[tuple[str, int, str, int | None]] = [
    # Relative Position
    ("attacker_above", +1, "melee", None),
    ("attacker_climbing_above", 0, "melee", None),
    ("attacker_same_level", 0, "melee", None),
    ("attacker_climbing_same_level", -2, "melee", None),
    ("attacker_below", -1, "melee", None),
    ("attacker_climbing_below", -4, "melee", None),
    # Prone Stance
    ("attacker_prone_melee_weapon_smaller", 0, "melee", None),
    ("attacker_prone_melee_weapon_same_size", -2, "thrown", None),
    ("attacker_prone_melee_weapon_larger", -4, "melee", None),
    ("attacker_prone_gun_like", +4, "gun_like", None),
    ("attacker_prone_bow_like", -4, "bow_like", None),
    ("target_prone_melee", +4, "melee", None),
    ("target_prone_ranged_near", 0, "bow_like", 10),
    ("target_prone_ranged_far", -2, "thrown", 11),
    # Kneeling Stance
    ("attacker_kneeling_melee", 0, "melee", None),
    ("attacker_kneeling_gun_like", +2, "gun_like", None),
    ("attacker_kneeling_bow_like", 0, "bow_like", None),
    ("target_kneeling_melee", +2, "melee", None),
    ("target_kneeling_ranged_near", 0, "gun_like", 5),
    ("target_kneeling_ranged_far", -1, "bow_like", 30),
    # Balance
    ("attacker_off_balance", -2, "melee", None),
    ("target_off_balance", +2, "melee", None),
    ("attacker_off_balance_narrow", -5, "melee", None),
    ("target_off_balance_narrow", +5, "melee", None),
    # Underwater
    ("attacker_underwater_no_swim", -2, "melee", None),
    ("target_underwater_no_swim", +2, "melee", None),
    ("attacker_underwater_piercing", 0, "melee", None),
    ("attacker_underwater_other_weapon", -4, "melee", None),
    ("attacker_wading_piercing", -2, "melee", None),
    ("attacker_wading_other_weapon", -6, "melee", None),
    # Visibility
    ("target_concealment_25", -1, "melee", None),
    ("target_concealment_50", -2, "melee", None),
    ("target_concealment_75", -3, "melee", None),
    ("target_concealment_90", -4, "melee", None),
    ("target_cover_25", -2, "bow_like", None),
    ("target_cover_50", -4, "bow_like", None),
    ("target_cover_75", -7, "bow_like", None),
    ("target_cover_90", -10, "bow_like", None),
    ("visibility_100", 0, "melee", None),
    ("visibility_75", -1, "melee", None),
    ("visibility_50", -2, "melee", None),
    ("visibility_25", -3, "melee", None),
    ("visibility_0", -4, "melee", None),
    # Range
    ("range_short", 0, "bow_like", None),
    ("range_medium", -2, "bow_like", None),
    ("range_long", -5, "thrown", None),
    ("range_extreme", -10, "gun_like", None),
    # Condition
    ("attacker_off_hand", -2, "melee", None),
    ("target_invisible", -4, "melee", None),
    ("target_stunned", +4, "melee", None),
    ("back_attack", +2, "melee", None),
    ("sneak_attack", +2, "melee", None),
    ("target_unaware", +1, "melee", None),
    ("target_helpless_melee", +10, "melee", None),
    ("target_helpless_ranged", +5, "bow_like", None),
]
#: Rows tested on their own below (they scale with a level or a distance).
SCALED = {"flanking", "darkness_per_10_feet"}
FLATFOOTED_ROWS = {"back_attack", "sneak_attack", "target_unaware", "target_helpless_melee", "target_helpless_ranged"}


def _with(rows: list[str], kind: str = "melee", distance: int | None = None, **extra: Any) -> dict[str, Any]:
    attack: dict[str, Any] = {"circumstances": rows}
    if distance is not None:
        attack["distance"] = distance
    return make(weapon={"kind": kind}, attack=attack, dice={"to_hit": [10], "damage": [1]}, **extra)


@pytest.mark.parametrize(("rid", "modifier", "kind", "distance"), PAGE_TABLE, ids=[r[0] for r in PAGE_TABLE])
def test_fullplate_circumstance_row_has_the_page_modifier(
    rid: str, modifier: int, kind: str, distance: int | None
) -> None:
    """Circumstantial Modifiers: each row's To-Hit modifier, + a bonus (lowers effective THAC0), - a penalty."""
    out = row(_with([rid], kind, distance))
    assert out["effective_thac0"] == 14 - modifier


def test_fullplate_modifiers_command_lists_every_row_of_the_table() -> None:
    """`tohit modifiers fullplate` lists every row id with its group and the page's modifier."""
    result = CliRunner().invoke(app, ["modifiers", "fullplate", "--json"])
    assert result.exit_code == 0
    listed = {r["id"]: r for r in json.loads(result.stdout)}
    assert set(listed) == {r[0] for r in PAGE_TABLE} | SCALED
    assert listed["back_attack"]["modifier"] == "+2, Flatfooted"
    assert listed["flanking"]["modifier"] == "+1 per Outnumbered level"
    assert listed["target_cover_50"]["group"] == "Visibility"
    assert listed["range_extreme"]["modifier"] == "-10"
    table = CliRunner().invoke(app, ["modifiers", "fullplate"], env={"COLUMNS": "250"})
    assert table.exit_code == 0 and "attacker_prone_gun_like" in table.stdout


def test_fullplate_rows_of_different_groups_add() -> None:
    """Groups add (docs/fullplate.md#silent-modifier-scales): the page's prone crossbow shooting downward, +4 and +1,
    and cover -4."""
    out = row(_with(["attacker_prone_gun_like", "attacker_above", "target_cover_50"], "gun_like"))
    assert out["effective_thac0"] == 14 - 4 - 1 + 4


@pytest.mark.parametrize(
    ("pair", "modifier"),
    [
        (("attacker_above", "attacker_climbing_above"), 0),  # one scale: the climbing row replaces Above
        (("visibility_75", "visibility_50"), -2),  # one scale (light): 50% replaces 75%
        (("target_cover_25", "target_concealment_50"), -2 - 2),  # cover and concealment: two scales, they add
        (("target_invisible", "target_stunned"), -4 + 4),  # two Condition rows: two scales, they add
        (("range_short", "range_long"), -5),  # one scale (range band): the worse, Long, is used
    ],
)
def test_fullplate_rows_of_one_scale_replace_each_other(pair: tuple[str, str], modifier: int) -> None:
    """Issue 15 (docs/fullplate.md#silent-modifier-scales): rows on one scale replace each other, the row worse for
    the attacker used; rows on different scales add. (Naming two rows of one table group was refused before.)"""
    out = row(_with(list(pair), "bow_like"))
    assert out["effective_thac0"] == 14 - modifier


def test_fullplate_modifier_stacking_all_adds_every_row() -> None:
    """options.modifier_stacking: all ("A DM decides if multiple modifiers stack or not"): every row adds, two
    cover rows included; the default, page, uses the worse of the two."""
    data = _with(["target_cover_25", "target_cover_50", "visibility_75"], "bow_like")
    assert row(data)["effective_thac0"] == 14 + 4 + 1
    data = _with(
        ["target_cover_25", "target_cover_50", "visibility_75"], "bow_like", options={"modifier_stacking": "all"}
    )
    assert row(data)["effective_thac0"] == 14 + 2 + 4 + 1
    assert "replaced" not in trace(data)


def test_fullplate_target_circumstances_add_to_the_attacks() -> None:
    """A target's own rows (targets[i].circumstances) add to the attack's, under the same group rule."""
    data = make(
        attack={"circumstances": ["attacker_above"]},
        targets=[
            {"name": "behind cover", "ac": 5, "circumstances": ["target_cover_50"]},
            {"name": "in the open", "ac": 5},
        ],
        dice={"to_hit": [10], "damage": [1]},
    )
    from tests.fullplate.helpers import rolled

    result = rolled(data)
    assert result.target("behind cover").row["effective_thac0"] == 14 - 1 + 4
    assert result.target("in the open").row["effective_thac0"] == 14 - 1
    # One scale across the two lists: the target's 50% cover replaces the attack's 25% (issue 15; refused before).
    both = make(
        attack={"circumstances": ["target_cover_25"]},
        target={"circumstances": ["target_cover_50"]},
        dice={"to_hit": [10], "damage": [1]},
    )
    assert row(both)["effective_thac0"] == 14 + 4
    assert "target_cover_25 (-2, attack.circumstances[0]) is replaced by target_cover_50 (-4)" in trace(both)


@pytest.mark.parametrize(("enemies", "bonus"), [(2, 1), (3, 2), (5, 4)])
def test_fullplate_flanking_is_plus_1_per_outnumbered_level(enemies: int, bonus: int) -> None:
    """Flanking (per Outnumbered) +1; Outnumbered level = enemies engaged with the target minus 1
    (docs/fullplate.md#silent-modifier-scales)."""
    data = _with(["flanking"], target={"enemies_engaged": enemies})
    assert row(data)["effective_thac0"] == 14 - bonus
    assert f"flanking (Outnumbered level {bonus})" in trace(data)


def test_fullplate_flanking_needs_an_outnumbered_target() -> None:
    """Flanking a target that is not outnumbered is refused, naming the row and the missing count."""
    with pytest.raises(InputError, match="enemies_engaged"):
        load(_with(["flanking"], target={"enemies_engaged": 1}))


@pytest.mark.parametrize(("distance", "penalty"), [(0, 4), (9, 4), (10, 5), (35, 7), (60, 10)])
def test_fullplate_darkness_costs_1_per_10_feet_at_0_percent_visibility(distance: int, penalty: int) -> None:
    """Visibility: 0% (Total Darkness) -4, and -1 per (full) 10 feet between attacker and target."""
    out = row(_with(["visibility_0"], distance=distance))
    assert out["effective_thac0"] == 14 + penalty
    named = row(_with(["visibility_0", "darkness_per_10_feet"], distance=distance))
    assert named["effective_thac0"] == 14 + penalty


def test_fullplate_darkness_per_10_feet_needs_total_darkness_and_a_distance() -> None:
    with pytest.raises(InputError, match="add visibility_0"):
        load(_with(["darkness_per_10_feet"], distance=30))
    with pytest.raises(InputError, match=r"needs attack\.distance"):
        load(_with(["visibility_0", "darkness_per_10_feet"]))


@pytest.mark.parametrize(
    ("distance", "band", "modifier"),
    [
        (0, "short", 0),
        (70, "short", 0),
        (71, "medium", -2),
        (140, "medium", -2),
        (141, "long", -5),
        (210, "long", -5),
        (211, "extreme", -10),
        (420, "extreme", -10),
    ],
)
def test_fullplate_range_band_comes_from_the_distance(distance: int, band: str, modifier: int) -> None:
    """Range: short +0, medium -2, long -5, extreme (up to 2 x long) -10 (docs/fullplate.md#silent-range-bands)."""
    data = make(
        weapon={"kind": "bow_like", "ranges": {"short": 70, "medium": 140, "long": 210}},
        attack={"distance": distance},
        dice={"to_hit": [10], "damage": [1]},
    )
    assert row(data)["effective_thac0"] == 14 - modifier
    assert f"range_{band} ({distance} feet)" in trace(data)


def test_fullplate_named_range_row_must_fit_the_distance() -> None:
    """A range row naming another band than the distance gives is refused; the matching one is accepted."""
    weapon = {"kind": "bow_like", "ranges": {"short": 70, "medium": 140, "long": 210}}
    ok = make(weapon=weapon, attack={"distance": 100, "circumstances": ["range_medium"]}, dice={"to_hit": [10]})
    assert row(ok)["effective_thac0"] == 16
    with pytest.raises(InputError, match="which is range_medium") as err:
        load(make(weapon=weapon, attack={"distance": 100, "circumstances": ["range_long"]}))
    assert err.value.field == "attack.circumstances[0]"


@pytest.mark.parametrize(
    ("rid", "kind"),
    [
        ("attacker_prone_gun_like", "bow_like"),
        ("attacker_prone_bow_like", "melee"),
        ("target_prone_melee", "thrown"),
        ("target_helpless_ranged", "melee"),
        ("range_short", "melee"),
        ("attacker_kneeling_melee", "gun_like"),
    ],
)
def test_fullplate_row_must_fit_the_weapon(rid: str, kind: str) -> None:
    """A row about a kind of weapon or attack (Gun-like, Melee Attack, Ranged Attack) is refused for another."""
    with pytest.raises(InputError, match=f"attacker.weapon.kind is {kind}") as err:
        load(_with([rid], kind))
    assert err.value.field == "attack.circumstances[0]"


def test_fullplate_near_and_far_rows_must_fit_the_distance() -> None:
    """ "Ranged Attack within 10 or less feet" and "> 10 feet away" are checked against attack.distance."""
    with pytest.raises(InputError, match="within 10 feet"):
        load(_with(["target_prone_ranged_near"], "bow_like", distance=11))
    with pytest.raises(InputError, match="beyond 10 feet"):
        load(_with(["target_kneeling_ranged_far"], "bow_like", distance=10))


@pytest.mark.parametrize("rid", sorted(FLATFOOTED_ROWS))
def test_fullplate_flatfooted_rows_strip_dodge_and_shield(rid: str) -> None:
    """ "+2, Flatfooted": the target loses Dodge and Deflection (shield) AC (the FullPlate wiki)."""
    kind = "bow_like" if rid == "target_helpless_ranged" else "melee"
    data = _with([rid], kind, target={"ac": 2, "dodge": 1, "deflection": 2})
    out = row(data)
    assert out["target_ac"] == 5
    assert "Flatfooted" in trace(data)


def test_fullplate_flatfooted_target_loses_dodge_and_shield_ac() -> None:
    """A Flatfooted target: AC 2 with Dodge 1 and a shield (Deflection 2) is AC 5."""
    out = row(make(target={"ac": 2, "dodge": 1, "deflection": 2, "flatfooted": True}, dice={"to_hit": [10]}))
    assert out["target_ac"] == 5
    assert row(make(target={"ac": 2, "dodge": 1, "deflection": 2}, dice={"to_hit": [10]}))["target_ac"] == 2


def test_fullplate_flatfooted_keeps_a_shield_covering_the_part_targeted() -> None:
    """Deflection is lost while Flatfooted "unless the shield covers the body part targeted"."""
    target = {"ac": 2, "dodge": 1, "deflection": 2, "flatfooted": True, "shield_covers_part": True}
    assert row(make(target=target, dice={"to_hit": [10]}))["target_ac"] == 3


def test_fullplate_flatfooted_never_takes_ac_above_base_10() -> None:
    """Base AC 10 is the AC of someone Flatfooted: losing Dodge and Deflection stops at 10."""
    assert row(make(target={"ac": 8, "dodge": 2, "deflection": 3, "flatfooted": True}))["target_ac"] == 10
    assert row(make(target={"ac": 12, "dodge": 1, "flatfooted": True}))["target_ac"] == 12


def test_fullplate_defence_type_is_1_ac_per_level_against_that_type() -> None:
    """Defence[Type] (wiki Defence, via the FullPlate wiki): +1 AC per level against that type (AC counts down:
    AC 5 with Defence[Piercing] 2 is AC 3 against a piercing arrow); other types are unaffected."""
    target = {"ac": 5, "defence": {"piercing": 2, "fire": 4}}
    arrow = row(make(weapon={"kind": "bow_like", "types": ["piercing"]}, target=target, dice={"to_hit": [10]}))
    club = row(make(weapon={"types": ["bludgeoning"]}, target=target, dice={"to_hit": [10]}))
    assert (arrow["target_ac"], club["target_ac"]) == (3, 5)
    assert "Defence[Piercing] 2: +2 AC against this attack: AC 5 -> 3" in trace(
        make(weapon={"types": ["piercing"]}, target=target, dice={"to_hit": [10]})
    )


def test_fullplate_defence_type_only_the_best_matching_type_applies() -> None:
    """ "only the best matching type applies": a flaming arrow (piercing, fire) against Piercing 2 and Fire 4: +4."""
    target = {"ac": 5, "defence": {"piercing": 2, "fire": 4}}
    out = row(make(weapon={"types": ["piercing", "fire"]}, target=target, dice={"to_hit": [10]}))
    assert out["target_ac"] == 1


def test_fullplate_defence_type_is_circumstantial_and_kept_while_flatfooted() -> None:
    """Defence[Type] counts as Circumstantial AC: a Flatfooted target loses Dodge and shield, not Defence[Type]."""
    target = {"ac": 2, "dodge": 1, "deflection": 2, "flatfooted": True, "defence": {"slashing": 1}}
    assert row(make(weapon={"types": ["slashing"]}, target=target, dice={"to_hit": [10]}))["target_ac"] == 4
