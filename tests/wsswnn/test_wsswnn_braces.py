"""WSSWNN clauses: Take Hold and braces (Grapple, Shove, Stand Fast, disarm, break) as opposed rolls.

Sources: Taking Actions [Take Hold], [Breaking and Disarming Arms]; the game's other pages "Braces"
(and its defaults for Shove and Stand Fast).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.wsswnn.helpers import dist, make, row, trace

WRESTLER = {"attack_die": "d8", "brace_die": "d10", "weapon": None}
RAIDER = {"guard": 4, "agility": 1, "stamina": 3, "strength": 1}


def take_hold(attack_face: int, brace_face: int, **attack: Any) -> dict[str, Any]:
    return make(
        attacker=WRESTLER,
        attack={"kind": "take_hold", **attack},
        target=RAIDER,
        dice={"attack": [attack_face], "brace": [brace_face]},
    )


def brace_action(brace: str, face: int, target: dict[str, Any] | None = None, **attacker: Any) -> dict[str, Any]:
    return make(
        attacker={**WRESTLER, **attacker},
        attack={"kind": "brace", "brace": brace},
        target={**RAIDER, **(target or {})},
        dice={"brace": [face]},
    )


# -- Take Hold ------------------------------------------------------------------------------------------


def test_wsswnn_take_hold_success_makes_a_free_grapple_brace() -> None:
    """Take Hold: "Success: Make a free Grapple or Shove brace" (the Grapple by default)."""
    r = row(take_hold(6, 4))
    assert (r["result"], r["brace_roll"], r["brace_result"], r["brace_effect"]) == ("hit", 4, "success", "grappled")
    assert (r["lethal"], r["guard_damage"], r["guard_after"]) == (0, 1, 3)  # the Grapple's -1 guard


def test_wsswnn_take_hold_struggle_makes_the_brace_at_minus_2() -> None:
    """Take Hold: "Struggle: Make a free Grapple or Shove brace with a -2 penalty"."""
    data = take_hold(3, 5)
    r = row(data)
    assert (r["result"], r["brace_roll"], r["brace_result"]) == ("block", 3, "struggle")
    assert "- 2 (struggle) = 3" in trace(data)


def test_wsswnn_take_hold_miss_makes_no_brace() -> None:
    """Take Hold: "Fail: Miss! The foe dodges" (no brace)."""
    r = row(take_hold(1, 10))
    assert (r["result"], r["brace_result"], r["brace_effect"], r["brace_roll"], r["guard_damage"]) == (
        "miss",
        None,
        None,
        None,
        0,
    )


def test_wsswnn_take_hold_can_shove_instead() -> None:
    """Take Hold: a free Grapple *or Shove* brace: a Shove success pushes the foe and costs it 1 guard."""
    r = row(take_hold(6, 4, brace="shove"))
    assert (r["brace_result"], r["brace_effect"], r["guard_damage"]) == ("success", "shoved", 1)


def test_wsswnn_take_hold_is_temporary_contact_unless_the_grapple_succeeds() -> None:
    """Take Hold: "if you don't successfully Grapple the character afterward, you no longer hold them"."""
    assert "the foe stays held" in trace(take_hold(6, 4))
    assert "no longer held" in trace(take_hold(6, 2))  # brace 2: struggle


def test_wsswnn_take_hold_inflicts_no_damage_of_its_own() -> None:
    """Take Hold: the attack only closes distance and grabs; damage comes from the brace alone."""
    r = row(take_hold(8, 1))  # a hit, brace 1: failure
    assert (r["result"], r["damage"], r["lethal"], r["guard_damage"]) == ("hit", 0, 0, 0)


def test_wsswnn_take_hold_exact_odds_of_grappling() -> None:
    """Take Hold + Grapple: P(grappled on a success) = P(hit) P(d10 > 3) + P(block) P(d10 - 2 > 3)."""
    data = make(attacker=WRESTLER, attack={"kind": "take_hold"}, target=RAIDER)
    p_hit, p_block = Fraction(4, 8), Fraction(3, 8)
    success = p_hit * Fraction(7, 10) + p_block * Fraction(5, 10)
    struggle = p_hit * Fraction(2, 10) + p_block * Fraction(2, 10)  # d10 in 2..3 / 4..5
    odds = dist(data, "brace_result")
    assert odds["success"] == success
    assert odds["struggle"] == struggle


# -- Braces as opposed rolls ----------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "label"), [(4, "success"), (3, "struggle"), (2, "struggle"), (1, "failure")])
def test_wsswnn_brace_beats_stamina_success_strength_struggle(face: int, label: str) -> None:
    """Braces: a Brace roll is a Success if it beats Stamina, a Struggle if it beats only Strength."""
    r = row(brace_action("shove", face))
    assert (r["result"], r["brace_result"]) == (label, label)


def test_wsswnn_brace_action_result_is_not_hit_block_miss() -> None:
    """Attack Actions: hit / block / miss "are only used for attack actions": a brace is success / struggle."""
    odds = dist(brace_action("shove", 1) | {"dice": {}}, "result")
    assert set(odds) <= {"success", "struggle", "failure"}
    assert sum(odds.values()) == 1


def test_wsswnn_grapple_success_minus_1_guard_and_grappled() -> None:
    """Grapple [braces]: "Success = -1 guard to the foe and grappled"."""
    r = row(brace_action("grapple", 6, {"held": True}))
    assert (r["brace_effect"], r["guard_damage"], r["guard_after"], r["resist_stamina"]) == ("grappled", 1, 3, None)


def test_wsswnn_grapple_struggle_foe_may_pay_1_stamina_to_resist() -> None:
    """Grapple [braces]: "Struggle = the foe may pay -1 stamina to resist"; no guard damage."""
    r = row(brace_action("grapple", 2, {"held": True}))
    assert (r["brace_result"], r["brace_effect"], r["resist_stamina"], r["guard_damage"]) == (
        "struggle",
        "grappled",
        1,
        0,
    )
    assert "unless it pays 1 stamina to resist" in trace(brace_action("grapple", 2, {"held": True}))


def test_wsswnn_brace_struggle_foe_without_stamina_cannot_resist() -> None:
    """Grapple [braces]: a foe with no stamina left has none to pay: the struggle's effect stands."""
    r = row(brace_action("grapple", 2, {"held": True, "stamina": 0, "strength": 1}))
    assert (r["brace_result"], r["resist_stamina"]) == ("success", None)  # 2 beats Stamina 0: a success
    r = row(brace_action("grapple", 2, {"held": True, "stamina": 0, "strength": 0}))
    assert r["resist_stamina"] is None


def test_wsswnn_grapple_failure_does_nothing() -> None:
    """Braces: a failure (beats neither Stamina nor Strength) does nothing."""
    r = row(brace_action("grapple", 1, {"held": True}))
    assert (r["brace_result"], r["brace_effect"], r["guard_damage"]) == ("failure", None, 0)


def test_wsswnn_grappled_foe_gives_brace_advantage_on_attacks() -> None:
    """Grapple [braces]: "While grappling you have brace advantage on attacks against the foe"."""
    data = make(attacker={"brace_die": "d10"}, target={"grappled": True}, dice={"attack": [2], "advantage": [9]})
    r = row(data)
    assert (r["attack_roll"], r["result"]) == (9, "hit")
    assert "grappled foe" in trace(data)


def test_wsswnn_shove_success_pushes_and_costs_1_guard() -> None:
    """Shove (the game's other pages default): Success = -1 guard and the foe is pushed out of your span or hold."""
    data = brace_action("shove", 7)
    r = row(data)
    assert (r["brace_effect"], r["guard_damage"]) == ("shoved", 1)
    assert "shoved out of your span or hold" in trace(data)


def test_wsswnn_brace_guard_damage_reduced_by_unflinching() -> None:
    """Damage Reduction: Unflinching reduces incoming guard damage, a Grapple's too."""
    r = row(brace_action("grapple", 6, {"held": True, "unflinching": True}))
    assert (r["brace_effect"], r["guard_damage"]) == ("grappled", 0)


def test_wsswnn_stand_fast_regains_guard_up_to_maximum_plus_strength() -> None:
    """Stand Fast: regain Guard equal to the Brace roll, able to exceed the maximum by up to Strength."""
    r = row(brace_action("stand_fast", 3, guard=1, max_guard=5, strength=1))
    assert (r["result"], r["guard_regained"], r["attacker_guard_after"]) == ("success", 3, 4)
    r = row(brace_action("stand_fast", 9, guard=1, max_guard=5, strength=1))
    assert (r["guard_regained"], r["attacker_guard_after"]) == (5, 6)  # 5 + Strength 1


def test_wsswnn_stand_fast_roll_below_zero_regains_nothing() -> None:
    """Stand Fast: a roll pushed to 0 or below by penalties regains nothing (and takes no Guard away)."""
    r = row(brace_action("stand_fast", 1, guard=2, max_guard=5, penalty={"brace": 2}))
    assert (r["result"], r["guard_regained"], r["attacker_guard_after"]) == ("failure", 0, 2)


def test_wsswnn_disarm_on_block_from_weapon_hook() -> None:
    """Breaking and Disarming Arms (Axe "Hook"): when blocked, a free Brace roll to disarm the defender."""
    axe = {"brace_die": "d8", "weapon": {"name": "axe", "guard_damage": 2, "on_block": "disarm"}}
    data = make(attacker=axe, target=RAIDER, dice={"attack": [3], "brace": [5]})
    r = row(data)
    assert (r["result"], r["guard_damage"], r["brace_result"], r["brace_effect"]) == (
        "block",
        2,
        "success",
        "disarmed",
    )
    assert row(make(attacker=axe, target=RAIDER, dice={"attack": [8], "brace": [5]}))["brace_result"] is None  # a hit


def test_wsswnn_break_brace_on_block() -> None:
    """Breaking and Disarming Arms: an attack can trigger a free brace to break the defending armament."""
    data = make(
        attacker={"brace_die": "d8"}, attack={"brace": "break"}, target=RAIDER, dice={"attack": [4], "brace": [2]}
    )
    r = row(data)
    assert (r["brace_result"], r["brace_effect"], r["resist_stamina"]) == ("struggle", "broken", 1)


def test_wsswnn_brace_action_disarm() -> None:
    """Braces: disarm as the action itself, opposed the same way."""
    r = row(brace_action("disarm", 5))
    assert (r["result"], r["brace_effect"], r["guard_damage"]) == ("success", "disarmed", 0)
