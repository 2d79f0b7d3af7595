"""FullPlate, Attacking: Firing Into Melee (issue 15, item 3; docs/fullplate.md#silent-firing-into-melee): the
creature a stray shot strikes is picked first, then the roll is judged against its own AC, and its own Special
Defence, Resistance and Vulnerability adjust the damage; an entry without its own stats is judged as the intended
target; the pick die is the page's (d3 for three Medium creatures, d10 for two Large ogres and a Medium knight)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.fullplate.helpers import exact, load, make, p, row, trace
from tohit.core.errors import FacesError, InputError

BOW = {"damage": "1d6", "kind": "bow_like"}


def _shot(*engaged: dict[str, Any], **target: Any) -> dict[str, Any]:
    """THAC0 10, a 1d6 bow, at a Medium knight of AC 2 with `engaged` beside him."""
    return make(
        attacker={"thac0": 10},
        weapon=BOW,
        target={"name": "knight", "ac": 2, "engaged_with": list(engaged), **target},
    )


def _forced(data: dict[str, Any], to_hit: int, pick: int, damage: int = 4) -> dict[str, Any]:
    return {**data, "dice": {"to_hit": [to_hit], "damage": [damage], "pick": [pick]}}


def test_fullplate_stray_shot_is_judged_against_the_ac_of_the_creature_picked() -> None:
    """Decisions 7: "the creature struck is picked first, then the roll is judged against *its* AC": a To-Hit
    Roll of 5 misses the knight (AC 2) but hits the orc beside him (AC 6)."""
    data = _shot({"name": "orc", "ac": 6})
    on_orc = row(_forced(data, to_hit=5, pick=1))
    on_knight = row(_forced(data, to_hit=5, pick=2))
    assert (on_orc["to_hit_roll"], on_orc["target_ac"], on_orc["result"], on_orc["creature_hit"]) == (
        5,
        6,
        "hit",
        "orc",
    )
    assert (on_knight["target_ac"], on_knight["result"], on_knight["creature_hit"]) == (2, "miss", None)
    # The natural needed is against the AC the roll is judged with: 4+ for the orc, 8+ for the knight.
    assert (on_orc["natural_needed"], on_knight["natural_needed"]) == (4, 8)
    text = trace(_forced(data, to_hit=5, pick=1))
    assert "the shot goes to orc, judged against its own AC 6" in text
    assert "5 vs AC 6: a hit" in text
    # The pick comes before the roll is judged.
    assert text.index("firing into melee") < text.index("5 vs AC 6")


def test_fullplate_stray_shot_misses_a_better_armoured_creature() -> None:
    """The other way round: a roll that hits the knight (AC 6) misses the plate-clad orc beside him (AC 0)."""
    data = _shot({"name": "orc", "ac": 0}, ac=6)
    assert row(_forced(data, to_hit=5, pick=1))["result"] == "miss"
    assert row(_forced(data, to_hit=5, pick=2))["result"] == "hit"


def test_fullplate_stray_shot_damage_uses_the_creature_struck_resistance_and_vulnerability() -> None:
    """ "its own Special Defence, Resistance and Vulnerability adjust the damage": 1d6 (4) on an orc with
    Vulnerability 50% is 6; on the knight, who resists 50%, 2."""
    data = _shot({"name": "orc", "ac": 10, "vulnerability_pct": 50}, ac=10, resistance_pct=50)
    assert row(_forced(data, to_hit=10, pick=1))["damage"] == 6
    assert row(_forced(data, to_hit=10, pick=2))["damage"] == 2
    assert "Resistance 0% / Vulnerability 50% (orc): 4 x 150% = 6" in trace(_forced(data, to_hit=10, pick=1))


def test_fullplate_stray_shot_meets_the_creature_struck_special_defence() -> None:
    """A +0 arrow against a wight's Special Defence +3 does nothing (heroic: 3 lower); the knight beside it has
    none and takes full damage."""
    data = _shot({"name": "wight", "ac": 10, "special_defence": 3}, ac=10)
    on_wight = row(_forced(data, to_hit=10, pick=1))
    assert (on_wight["result"], on_wight["damage"], on_wight["creature_hit"]) == ("hit", 0, "wight")
    assert row(_forced(data, to_hit=10, pick=2))["damage"] == 4
    assert "Special Defence +3 (wight)" in trace(_forced(data, to_hit=10, pick=1))


def test_fullplate_stray_shot_uses_the_creature_struck_defence_type_and_flatfooted() -> None:
    """Its own Defence[Type] and Flatfooted: a goblin of AC 4 with Defence[Piercing] 2 is AC 2 against an arrow;
    Flatfooted by its own entry, it loses its Dodge 1: AC 3. The attack's back attack makes the knight
    Flatfooted, not the goblin."""
    arrow = {**BOW, "types": ["piercing"]}
    goblin = {"name": "goblin", "ac": 4, "dodge": 1, "defence": {"piercing": 2}}
    data = make(
        attacker={"thac0": 10},
        weapon=arrow,
        attack={"circumstances": ["back_attack"]},
        target={"name": "knight", "ac": 2, "dodge": 3, "engaged_with": [goblin]},
    )
    assert row(_forced(data, to_hit=10, pick=1))["target_ac"] == 4 - 2 - 0
    assert row(_forced(data, to_hit=10, pick=2))["target_ac"] == 5
    goblin["flatfooted"] = True
    assert row(_forced(data, to_hit=10, pick=1))["target_ac"] == 5 - 2


def test_fullplate_stray_shot_severity_uses_the_creature_struck_armour() -> None:
    """Severity's armour points are the creature struck's: an unarmoured orc gives +2 on a Critical Hit."""
    data = _shot({"name": "orc", "ac": 8, "armour": "none"}, ac=8)
    crit = {**data, "dice": {"to_hit": [20], "damage": [4], "pick": [1], "severity": [3]}}
    assert row(crit)["severity"] == 3 + 2
    crit["dice"]["pick"] = [2]
    assert row(crit)["severity"] == 3


def test_fullplate_entry_without_stats_is_judged_as_the_intended_target() -> None:
    """ "an engaged creature given without stats is judged as the intended target, said in the trace": the orc
    with a name only takes the knight's AC, Resistance and armour."""
    data = _shot({"name": "orc"}, resistance_pct=50)
    out = row(_forced(data, to_hit=5, pick=1, damage=6))
    assert (out["target_ac"], out["result"]) == (2, "miss")
    out = row(_forced(data, to_hit=8, pick=1, damage=6))
    assert (out["target_ac"], out["result"], out["creature_hit"], out["damage"]) == (2, "hit", "orc", 3)
    text = trace(_forced(data, to_hit=8, pick=1))
    assert "the shot goes to orc, who has no stats of its own: judged as the intended target (AC 2)" in text
    assert "also orc: no stats of their own, judged as the intended target" in text


def test_fullplate_stray_shot_exact_odds_mix_each_creature_chance() -> None:
    """Exact: P(hit) = sum of share x chance against each creature's own AC. THAC0 10 at a knight of AC 2
    (needs 8+: 13/20) beside a Large ogre of AC 6 (needs 4+: 17/20): shares 2 and 4 (d6)."""
    data = _shot({"name": "ogre", "size": "large", "ac": 6})
    odds = exact(data)
    assert p(odds, "creature_hit", "ogre") == Fraction(4, 6) * Fraction(17, 20)
    assert p(odds, "creature_hit", "knight") == Fraction(2, 6) * Fraction(13, 20)
    assert p(odds, "result", "hit") == Fraction(4, 6) * Fraction(17, 20) + Fraction(2, 6) * Fraction(13, 20)


def test_fullplate_stray_shot_hp_shows_in_the_trace_not_in_hp_left() -> None:
    """hp_left stays the intended target's; the creature struck's own HP shows in the trace."""
    data = _shot({"name": "orc", "ac": 6, "hp": 9}, hp=20)
    out = row(_forced(data, to_hit=5, pick=1, damage=4))
    assert (out["creature_hit"], out["hp_left"]) == ("orc", 20)
    assert "orc takes the hit: 4 damage (HP 9 -> 5)" in trace(_forced(data, to_hit=5, pick=1, damage=4))


@pytest.mark.parametrize(
    ("face", "who"), [(1, "ogre 1"), (4, "ogre 1"), (5, "ogre 2"), (8, "ogre 2"), (9, "knight"), (10, "knight")]
)
def test_fullplate_page_d10_for_two_large_ogres_and_a_medium_knight(face: int, who: str) -> None:
    """ "the archer would roll a d10 - on a 1-4, he hits one ogre, on 5-8 he hits the other and on an 8-9 he
    hits the knight": the GM enters the face of the page's d10 (9-10 the knight; a d5 before issue 15)."""
    data = _shot({"name": "ogre 1", "size": "large"}, {"name": "ogre 2", "size": "large"}, ac=10)
    out = row(_forced(data, to_hit=10, pick=face))
    assert out["creature_hit"] == who
    assert "d10 (" in trace(_forced(data, to_hit=10, pick=face))
    assert "1-4 ogre 1, 5-8 ogre 2, 9-10 knight" in trace(_forced(data, to_hit=10, pick=face))


def test_fullplate_page_d10_refuses_an_eleventh_face() -> None:
    data = _shot({"name": "ogre 1", "size": "large"}, {"name": "ogre 2", "size": "large"})
    with pytest.raises((FacesError, InputError), match="not on a d10"):
        row(_forced(data, to_hit=10, pick=11))


@pytest.mark.parametrize(("face", "who"), [(1, "orc 1"), (2, "orc 2"), (3, "knight")])
def test_fullplate_page_d3_for_three_medium_creatures(face: int, who: str) -> None:
    """ "the goblin rolls 1d3 - on a 3, he hits the intended target but on a 1 or a 2 he hits one of the orcs"."""
    data = _shot({"name": "orc 1"}, {"name": "orc 2"}, ac=10)
    assert row(_forced(data, to_hit=10, pick=face))["creature_hit"] == who
    assert "d3 (" in trace(_forced(data, to_hit=10, pick=face))


@pytest.mark.parametrize(
    ("sizes", "die"),
    [
        (("large", "large", "large"), 3),  # all one size: equal shares reduce, 1 each
        (("large", "large", "medium"), 10),  # the page's ogres: 4, 4, 2
        (("small", "medium", "medium"), 5),  # Small 1, Medium 2
        (("large", "medium", "medium"), 8),  # Large 4, Medium 2: unequal shares do not reduce
        (("tiny", "medium", "medium"), 9),  # Tiny 1/2 and Medium 2, scaled to whole: 1 and 4
    ],
)
def test_fullplate_pick_die_reduces_equal_shares_only(sizes: tuple[str, str, str], die: int) -> None:
    """Decisions 7: "equal shares reduce (three Medium: d3), unequal ones do not (two Large and a Medium: d10)";
    each share is 2^(size step from Medium) (Medium 2, Large 4, Small 1)."""
    data = _shot({"name": "a", "size": sizes[0]}, {"name": "b", "size": sizes[1]}, size=sizes[2])
    assert f"d{die} (" in trace(_forced(data, to_hit=10, pick=1))


def test_fullplate_engaged_stats_start_at_its_ac() -> None:
    """Stats without `ac` are refused, naming the field: without ac the entry is judged as the intended target."""
    with pytest.raises(InputError, match="give its ac too") as err:
        load(_shot({"name": "orc", "special_defence": 1}))
    assert err.value.field == "targets[0].engaged_with[0].special_defence"
