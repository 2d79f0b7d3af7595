"""FullPlate, Attacking: Special Circumstances: Main-Hand vs Off-Hand, Automatic Hits, Firing Into Melee
(issue #5; docs/fullplate.md#silent-firing-into-melee, docs/fullplate.md#silent-automatic-hit)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.fullplate.helpers import exact, load, make, p, row, trace
from tohit.core.errors import InputError
from tohit.systems.fullplate.situation import main_hands

# -- Main-Hand vs Off-Hand -----------------------------------------------------------------------------


def test_fullplate_off_hand_is_minus_2() -> None:
    """ "An Off-Hand suffers a -2 penalty on To-Hit rolls"."""
    data = make(attack={"off_hand": True}, dice={"to_hit": [10]})
    assert row(data)["effective_thac0"] == 16
    assert "attacker_off_hand (attacking with the Off-Hand)" in trace(data)


def test_fullplate_ambidextrous_has_no_off_hand_penalty() -> None:
    """ "Unless a character is Ambidextrous, they possess a Main Hand and an Off-Hand"."""
    assert row(make(attacker={"ambidextrous": True}, attack={"off_hand": True}))["effective_thac0"] == 14
    assert row(make(attacker={"ambidextrous": True}, attack={"forced_off_hand": True}))["effective_thac0"] == 14


def test_fullplate_forced_onto_the_off_hand_is_minus_2_on_to_hit() -> None:
    """ "An Off-Hand suffers a -2 penalty on To-Hit rolls." The -4 is for "Any Skill Check where the character is
    forced to use solely their Off-Hand when they would normally use on their Main-Hand": a To-Hit roll with the
    Off-Hand is -2, forced or not (issue 15); an Ambidextrous attacker takes 0."""
    forced = make(attack={"forced_off_hand": True}, dice={"to_hit": [10]})
    assert row(forced)["effective_thac0"] == 16 == row(make(attack={"off_hand": True}))["effective_thac0"]
    both = make(attack={"off_hand": True, "forced_off_hand": True})
    assert row(both)["effective_thac0"] == 16
    text = trace(forced)
    assert "-2 to hit" in text and "-4 to hit" not in text
    assert "its -4 is for Skill Checks, a To-Hit roll takes -2" in text
    assert exact(forced).probability("result", "hit") == exact(make(attack={"off_hand": True})).probability(
        "result", "hit"
    )
    ambidextrous = make(attacker={"ambidextrous": True}, attack={"forced_off_hand": True})
    assert row(ambidextrous)["effective_thac0"] == 14


@pytest.mark.parametrize(("hands", "main"), [(0, 0), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_fullplate_more_than_two_hands_half_are_main_hands(hands: int, main: int) -> None:
    """ "If a character possesses more than two hands, assume half of them are Main-Hands, rounding down"; one
    hand is a Main-Hand; a creature with only a grip has an off-hand for weapons."""
    assert main_hands(hands) == main


def test_fullplate_hand_number_decides_main_or_off_hand() -> None:
    """A four-armed attacker: hands 1-2 are Main Hands, 3-4 Off-Hands; a prehensile tail is an Off-Hand."""
    four = {"hands": 4, "appendages": 1}
    assert row(make(attacker=four, attack={"hand": 2}))["effective_thac0"] == 14
    assert row(make(attacker=four, attack={"hand": 3}))["effective_thac0"] == 16
    assert row(make(attacker=four, attack={"hand": 5}))["effective_thac0"] == 16
    with pytest.raises(InputError, match="4 hands and 1 appendages") as err:
        load(make(attacker=four, attack={"hand": 6}))
    assert err.value.field == "attack.hand"
    with pytest.raises(InputError, match="is a Main Hand") as err:
        load(make(attacker=four, attack={"hand": 1, "off_hand": True}))
    assert err.value.field == "attack.off_hand"


def test_fullplate_a_grip_without_hands_is_an_off_hand() -> None:
    """ "If a species has nothing that constitutes a hand but may still have some form of a grip ... this is
    considered an off-hand for purposes of using weapons"."""
    assert row(make(attacker={"hands": 0}))["effective_thac0"] == 16


def test_fullplate_off_hand_row_and_key_count_once() -> None:
    """Naming attacker_off_hand and setting attack.off_hand is one Off-Hand, -2."""
    data = make(attack={"off_hand": True, "circumstances": ["attacker_off_hand"]})
    assert row(data)["effective_thac0"] == 16


# -- Automatic Hits ------------------------------------------------------------------------------------


@pytest.mark.parametrize("natural", [2, 5, 11, 19])
def test_fullplate_automatic_hit_hits_whatever_the_ac(natural: int) -> None:
    """Automatic Hits: "no matter what AC they would hit, they hit their target"."""
    data = make(attacker={"thac0": 20}, target={"ac": -10}, attack={"automatic_hit": True})
    out = row({**data, "dice": {"to_hit": [natural], "damage": [5], "reroll": [10]}})
    assert (out["result"], out["damage"], out["critical"]) == ("hit", 5, False)


def test_fullplate_automatic_hit_roll_still_decides_a_critical_hit() -> None:
    """ "an Attack Roll is only made to determine if it is a Critical Hit or a Fumble": a natural 20 hitting by 5."""
    data = make(attacker={"thac0": 10}, target={"ac": 5}, attack={"automatic_hit": True})
    out = row({**data, "dice": {"to_hit": [20], "damage": [5], "reroll": [10], "severity": [2]}})
    assert (out["result"], out["critical"], out["severity"]) == ("hit", True, 2)


def test_fullplate_automatic_hit_natural_1_rolled_again_hitting_ac_0_is_no_fumble() -> None:
    """ "If an Automatic Hit would be a Fumble, make a new attack roll. If this would hit AC 0, it is not a
    Fumble": effective THAC0 14 needs 14+ on the new roll."""
    data = make(attacker={"thac0": 14}, target={"ac": -5}, attack={"automatic_hit": True})
    saved = row({**data, "dice": {"to_hit": [1], "damage": [5], "reroll": [14]}})
    fumbled = row({**data, "dice": {"to_hit": [1], "damage": [5], "reroll": [13]}})
    assert (saved["result"], saved["damage"]) == ("hit", 5)
    assert (fumbled["result"], fumbled["damage"]) == ("fumble", 0)
    assert "rolled again: 14 - d20 (14) = 0: hits AC 0: no Fumble" in trace(
        {**data, "dice": {"to_hit": [1], "reroll": [14]}}
    )


def test_fullplate_automatic_hit_odds_are_exact() -> None:
    """Exact: only a natural 1 followed by a new roll that misses AC 0 fails: 1/20 x 13/20 with THAC0 14."""
    odds = exact(make(attacker={"thac0": 14}, target={"ac": -5}, attack={"automatic_hit": True}))
    assert p(odds, "result", "fumble") == Fraction(13, 400)
    assert p(odds, "result", "hit") == 1 - Fraction(13, 400)
    assert p(odds, "result", "miss") == 0


# -- Firing Into Melee ---------------------------------------------------------------------------------


def _melee(**target: object) -> dict[str, object]:
    return make(
        attacker={"thac0": 10},
        weapon={"damage": "1d6", "kind": "bow_like"},
        target={"name": "knight", "ac": 10, **target},
    )


def test_fullplate_firing_into_melee_draws_the_creature_hit_by_size() -> None:
    """Firing Into Melee: shares 2^(size step from Medium) (docs/fullplate.md#silent-firing-into-melee): a small
    goblin beside a medium knight and a huge giant: 1 : 8 : 2."""
    data = _melee(engaged_with=[{"name": "goblin", "size": "small"}, {"name": "giant", "size": "huge"}])
    odds = exact(data)
    hit = p(odds, "result", "hit")
    assert [p(odds, "creature_hit", who) / hit for who in ("goblin", "giant", "knight")] == [
        Fraction(1, 11),
        Fraction(8, 11),
        Fraction(2, 11),
    ]
    assert p(odds, "creature_hit", None) == 1 - hit


def test_fullplate_precision_always_hits_the_intended_target() -> None:
    """ "If a character has the Precision proficiency, they always know who they are aiming at"."""
    data = _melee(engaged_with=[{"name": "orc 1"}, {"name": "orc 2"}])
    data["attacker"]["precision"] = True  # type: ignore[index]
    odds = exact(data)
    assert p(odds, "creature_hit", "knight") == p(odds, "result", "hit")
    assert p(odds, "creature_hit", "orc 1") == 0
    assert "Precision proficiency" in trace({**data, "dice": {"to_hit": [15]}})


def test_fullplate_melee_attacks_strike_the_intended_target() -> None:
    """Firing into melee is about shots: a sword swung at the knight hits the knight."""
    data = _melee(engaged_with=[{"name": "orc 1"}])
    data["attacker"]["weapon"] = {"damage": "1d8"}  # type: ignore[index]
    assert row({**data, "dice": {"to_hit": [15]}})["creature_hit"] == "knight"


def test_fullplate_hp_left_only_when_the_intended_target_is_hit() -> None:
    """hp_left is the intended target's: a shot that strikes an orc leaves the knight's HP whole."""
    data = _melee(hp=20, engaged_with=[{"name": "orc"}])
    on_knight = row({**data, "dice": {"to_hit": [15], "damage": [4], "pick": [2]}})
    on_orc = row({**data, "dice": {"to_hit": [15], "damage": [4], "pick": [1]}})
    assert (on_knight["creature_hit"], on_knight["hp_left"]) == ("knight", 16)
    assert (on_orc["creature_hit"], on_orc["hp_left"]) == ("orc", 20)


def test_fullplate_ambidextrous_off_hand_takes_no_condition_row() -> None:
    """An Ambidextrous attacker has no Off-Hand: the Off-Hand row does not apply, so a back attack (also a
    Condition row) is not a second row of the group."""
    data = make(
        attacker={"ambidextrous": True},
        attack={"off_hand": True, "circumstances": ["back_attack"]},
        dice={"to_hit": [10]},
    )
    assert row(data)["effective_thac0"] == 12
    assert "Ambidextrous (no Off-Hand): no Off-Hand penalty" in trace(data)
    # Issue 15: the Off-Hand and a back attack are separate scales and add (refused before).
    assert row(make(attack={"off_hand": True, "circumstances": ["back_attack"]}))["effective_thac0"] == 14
