"""The page's worked examples (Attacking; the FullPlate wiki "Worked examples"), numbers in,
numbers out."""

from __future__ import annotations

from fractions import Fraction

from tests.fullplate.helpers import exact, make, p, row, trace

LONGBOW = {"name": "longbow", "damage": "1d6", "enhancement": 1, "kind": "bow_like"}


def test_fullplate_page_example_effective_thac0_17_behind_cover() -> None:
    """Effective thac0: THAC0 14, +1 Longbow, 50% cover (-4 to hit): 14 - 1d20 - 1 + 4 = 17 - 1d20."""
    data = make(weapon=LONGBOW, attack={"circumstances": ["target_cover_50"]}, dice={"to_hit": [11], "damage": [3]})
    assert row(data)["effective_thac0"] == 17
    assert "Effective THAC0 = THAC0 14 - 1 (Enhancement) + 4 (target_cover_50) = 17" in trace(data)


def test_fullplate_page_example_roll_of_11_hits_ac_6_or_worse() -> None:
    """Making The Roll: effective THAC0 17 rolls 11: a To-Hit Roll of 6: AC 6 or worse is hit, AC 5 missed."""
    base = make(weapon=LONGBOW, attack={"circumstances": ["target_cover_50"]}, dice={"to_hit": [11], "damage": [3]})
    ac6 = row({**base, "targets": [{"name": "T", "ac": 6}]})
    ac5 = row({**base, "targets": [{"name": "T", "ac": 5}]})
    assert (ac6["to_hit_roll"], ac6["result"], ac5["result"]) == (6, "hit", "miss")
    assert "To-Hit Roll = 17 - d20 (11) = 6: hits AC 6 or worse" in trace(base)


def test_fullplate_page_example_needs_12_for_45_percent() -> None:
    """Making The Roll: "Say the target has AC 5 ... they'd need to roll 12 or better ... only a 45% chance"."""
    data = make(weapon=LONGBOW, attack={"circumstances": ["target_cover_50"]}, target={"ac": 5})
    odds = exact(data)
    assert p(odds, "result", "hit") == Fraction(45, 100)
    out = row({**data, "dice": {"to_hit": [12], "damage": [1]}})
    assert (out["natural_needed"], out["natural_chance_pct"], out["result"]) == (12, 45, "hit")
    assert row({**data, "dice": {"to_hit": [11], "damage": [1]}})["result"] == "miss"


def test_fullplate_page_example_back_attack_effective_11_needs_6_for_75_percent() -> None:
    """Making The Roll: behind the target "they lose the -4 penalty and gain a +2 for a back attack. Their
    effective THAC0 of 17 becomes 11! ... all they need is 6 or more! ... from 45% to 75%": 14 - 1 - 2 = 11."""
    data = make(weapon=LONGBOW, attack={"circumstances": ["back_attack"]}, target={"ac": 5})
    out = row({**data, "dice": {"to_hit": [6], "damage": [1]}})
    assert (out["effective_thac0"], out["natural_needed"], out["natural_chance_pct"]) == (11, 6, 75)
    assert p(exact(data), "result", "hit") == Fraction(3, 4)


def test_fullplate_page_example_shadow_dragon_short_by_10_hits_normally() -> None:
    """Fumbles and Criticals: effective THAC0 18 rolls 20: To-Hit Roll -2; the shadow dragon's AC -12 is exactly
    10 lower: "it hits normally"."""
    data = make(
        attacker={"thac0": 18}, target={"name": "shadow dragon", "ac": -12}, dice={"to_hit": [20], "damage": [6]}
    )
    out = row(data)
    assert (out["to_hit_roll"], out["result"], out["halvings"], out["damage"]) == (-2, "hit", 0, 6)
    assert "within 10: the attack hits" in trace(data)


def test_fullplate_page_example_darker_short_by_12_does_half_damage() -> None:
    """ "If ... it was darker and the effective THAC0 were 20 ... the target's AC being 12 points below this, the
    attack will only do half damage"."""
    data = make(attacker={"thac0": 20}, target={"ac": -12}, dice={"to_hit": [20], "damage": [6]})
    out = row(data)
    assert (out["to_hit_roll"], out["result"], out["halvings"], out["damage"]) == (0, "hit", 1, 3)


def test_fullplate_page_example_hit_by_6_is_a_critical_hit() -> None:
    """Critical Hits: "effective THAC0 of 16 and rolls 20 ... To-Hit Roll of -4 ... AC of 2, they successfully hit
    by 6. This constitutes a Critical Hit"."""
    data = make(attacker={"thac0": 16}, target={"ac": 2}, dice={"to_hit": [20], "damage": [4], "severity": [3]})
    out = row(data)
    assert (out["to_hit_roll"], out["result"], out["critical"]) == (-4, "hit", True)
    assert "a natural 20, hit by 6: a Critical Hit" in trace(data)


def test_fullplate_page_example_plus_1_bow_with_plus_2_arrows_is_plus_3() -> None:
    """Enhancement: "a +1 Longbow firing +2 Arrows has a +3 To-Hit bonus"."""
    data = make(
        attacker={"thac0": 14, "ammunition": {"name": "+2 arrows", "enhancement": 2}},
        weapon=LONGBOW,
        dice={"to_hit": [10], "damage": [4]},
    )
    out = row(data)
    assert out["effective_thac0"] == 11
    assert out["damage"] == 4 + 3
    assert "Enhancement +3 to hit, +3 to damage" in trace(data)


def test_fullplate_page_example_prone_crossbow_shooting_down_is_plus_5() -> None:
    """Circumstantial Modifiers: "a prone [attacker] attacking with a crossbow who is able to fire at a target
    below them has a +5 To-Hit bonus" (prone gun-like +4, above +1)."""
    data = make(
        weapon={"name": "crossbow", "damage": "1d4", "kind": "gun_like"},
        attack={"circumstances": ["attacker_prone_gun_like", "attacker_above"]},
        dice={"to_hit": [10], "damage": [2]},
    )
    assert row(data)["effective_thac0"] == 14 - 5


def test_fullplate_page_example_knight_between_two_orcs_is_1_in_3() -> None:
    """Firing Into Melee: "a goblin archer fires at a knight and there are two orc bandits attacking him, the
    goblin rolls 1d3 - on a 3, he hits the intended target but on a 1 or a 2 he hits one of the orcs"."""
    data = make(
        attacker={"thac0": 19},
        weapon={"damage": "1d6", "kind": "bow_like"},
        target={"name": "knight", "ac": 10, "engaged_with": [{"name": "orc 1"}, {"name": "orc 2"}]},
    )
    odds = exact(data)
    hit = p(odds, "result", "hit")
    for who in ("orc 1", "orc 2", "knight"):
        assert p(odds, "creature_hit", who) == hit / 3
    for face, who in ((1, "orc 1"), (2, "orc 2"), (3, "knight")):
        assert row({**data, "dice": {"to_hit": [15], "damage": [2], "pick": [face]}})["creature_hit"] == who


def test_fullplate_page_example_knight_between_two_ogres_is_4_4_2_in_10() -> None:
    """Firing Into Melee: two ogres one size larger than the knight: 1-4 one ogre, 5-8 the other, the rest the
    knight: shares 4, 4 and 2 in 10 (docs/fullplate.md#silent-firing-into-melee; the page's d10, 1-4 / 5-8 / 9-10,
    since issue 15)."""
    data = make(
        attacker={"thac0": 19},
        weapon={"damage": "1d6", "kind": "bow_like"},
        target={
            "name": "knight",
            "ac": 10,
            "engaged_with": [{"name": "ogre 1", "size": "large"}, {"name": "ogre 2", "size": "large"}],
        },
    )
    odds = exact(data)
    hit = p(odds, "result", "hit")
    shares = {who: p(odds, "creature_hit", who) / hit for who in ("ogre 1", "ogre 2", "knight")}
    assert shares == {"ogre 1": Fraction(4, 10), "ogre 2": Fraction(4, 10), "knight": Fraction(2, 10)}
