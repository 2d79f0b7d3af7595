"""Disadvantage, the mirror of advantage (the game's other pages, Braces: "While grappling you have brace
advantage on attacks against the foe, and the foe has brace disadvantage"; Advantage: "roll a second die ...
and keep the higher ... Penalties apply to that die too"). tohit's readings: disadvantage rolls the named
second die too and keeps the lower; any advantage and any disadvantage cancel (the acting die alone)."""

from __future__ import annotations

from fractions import Fraction

from tests.conftest import EXAMPLES, scenario
from tests.wsswnn.helpers import clauses, dist, make, row, trace
from tests.wsswnn.test_wsswnn_oracle import brute, outcome
from tohit.engine.roll import roll
from tohit.engine.scenario import load
from tohit.systems.wsswnn.dice import ActionDie, advantage_role, disadvantage_role
from tohit.systems.wsswnn.rules import Wsswnn

GRAPPLED = {"attack_die": "d8", "brace_die": "d6", "grappled": True}


def test_wsswnn_grappled_attacker_has_brace_disadvantage_keep_the_lower() -> None:
    """braces: Grapple: the grappled foe has brace disadvantage: Attack 7, Brace 2: keep 2 (a block)."""
    r = row(make(attacker=GRAPPLED, dice={"attack": [7], "disadvantage": [2]}))
    assert (r["result"], r["attack_roll"]) == ("block", 2)
    text = trace(make(attacker=GRAPPLED, dice={"attack": [7], "disadvantage": [2]}))
    assert "brace disadvantage d6 (2) (grappled by a foe) = 2: keep the lower, 2" in text
    assert any("the foe has brace disadvantage" in c for c in clauses(make(attacker=GRAPPLED, dice={"attack": [7]})))


def test_wsswnn_disadvantage_keeps_the_acting_die_when_it_is_lower() -> None:
    r = row(make(attacker=GRAPPLED, dice={"attack": [3], "disadvantage": [6]}))
    assert r["attack_roll"] == 3 and r["result"] == "block"


def test_wsswnn_named_disadvantage_die_takes_its_own_penalty() -> None:
    """Advantage's "Penalties apply to that die too", mirrored: Maneuver d4 at -2 showing 3 is 1, kept."""
    data = make(
        attacker={"maneuver_die": "d4", "penalty": 2},
        attack={"disadvantage": "maneuver"},
        dice={"attack": [8], "disadvantage": [3]},
    )
    assert row(data)["attack_roll"] == 1 and row(data)["result"] == "miss"


def test_wsswnn_several_disadvantage_dice_keep_the_lowest() -> None:
    data = make(
        attacker={"brace_die": "d6", "compel_die": "d6", "grappled": True},
        attack={"disadvantage": "compel"},
        dice={"attack": [8], "disadvantage": [5, 2]},  # the named Compel first, then Brace (grappled)
    )
    assert row(data)["attack_roll"] == 2


def test_wsswnn_advantage_and_disadvantage_cancel() -> None:
    """tohit's reading: any advantage and any disadvantage cancel; only the Attack die is rolled."""
    data = make(
        attacker={**GRAPPLED, "maneuver_die": "d8"},
        attack={"advantage": "maneuver"},
        dice={"attack": [2]},
    )
    result = roll(scenario(data), seed=1).targets[0]
    assert set(result.faces) == {"attack"}
    assert result.row["attack_roll"] == 2
    assert "advantage (named) and disadvantage (grappled) cancel: Attack d8 (2) alone = 2" in trace(data)
    # Exactly the bare d8's odds.
    assert dist(data, "result") == dist(make(), "result")


def test_wsswnn_a_grappled_attacker_against_a_foe_it_grapples_rolls_the_attack_die_alone() -> None:
    """Brace advantage (it grapples the foe) and brace disadvantage (it is grappled) cancel."""
    data = make(attacker=GRAPPLED, target={"grappled": True}, dice={"attack": [5]})
    assert row(data)["attack_roll"] == 5 and "cancel" in trace(data)


def test_wsswnn_a_grappled_combatants_brace_action_has_no_brace_disadvantage() -> None:
    """Never the acting die twice: a brace action (here a Shove) of a grappled combatant rolls Brace alone."""
    data = make(
        attacker=GRAPPLED,
        attack={"kind": "brace", "brace": "shove"},
        target={"stamina": 2, "strength": 1},
        dice={"brace": [3]},
    )
    assert row(data)["brace_result"] == "success"
    assert "disadvantage" not in trace(data)


def test_wsswnn_disadvantage_exact_odds_match_brute_force() -> None:
    """Exact odds of a grappled d10 spear with a named Compel d6-1 disadvantage as well, against brute force
    over itertools.product of the three dice (kept = the lowest)."""
    data = make(
        attacker={
            "attack_die": "d10",
            "brace_die": "d6",
            "compel_die": "d6",
            "penalty": {"compel": 1},
            "grappled": True,
        },
        attack={"disadvantage": "compel"},
        target={"guard": 4, "agility": 1, "armor": 1},
    )

    def rule(a: int, c: int, b: int) -> dict[str, object]:
        kept = min(a, c - 1, b)
        res = outcome(kept, 4, 1)
        return {"result": res, "lethal": max(0, kept - 5) if res == "hit" else 0, "attack_roll": kept}

    for field, want in brute([10, 6, 6], rule).items():
        assert dist(data, field) == {v: p for v, p in want.items() if p}, field
    # A hit needs all three above Guard 4: d10 > 4 (6/10), d6 > 4 (2/6), d6 - 1 > 4 (1/6).
    assert dist(data, "result")["hit"] == Fraction(6, 10) * Fraction(2, 6) * Fraction(1, 6)


def test_wsswnn_disadvantage_example_file() -> None:
    """examples/wsswnn/grappled-brace-disadvantage.yaml: the forced roll keeps the lower die, a block."""
    result = roll(load(EXAMPLES / "wsswnn" / "grappled-brace-disadvantage.yaml"))
    r = result.targets[0].row
    assert (r["result"], r["attack_roll"], r["guard_damage"]) == ("block", 3, 1)


def test_wsswnn_a_roll_already_made_reads_no_die_and_takes_its_modifiers() -> None:
    """attack.rolled (a missile into a grapple keeps its roll): 5, ranged at 2 spans: 5 - 2 = 3, a block with a
    shield; advantage and disadvantage dice are not rolled again."""
    data = make(
        attacker={"brace_die": "d6", "grappled": True, "maneuver_die": "d6"},
        attack={"kind": "ranged", "rolled": 5, "advantage": "maneuver"},
        target={"shield": True},
        dice={"attack": [1]},
    )
    r = rolled_row = row(data)
    assert (r["attack_roll"], r["result"]) == (3, "block")
    assert "the roll already made, 5: no die is rolled again" in trace(data)
    assert set(roll(scenario(data), seed=1).targets[0].faces) == {"attack"}
    assert dist(data, "attack_roll") == {3: 1}
    assert rolled_row["guard_damage"] == 1


def test_wsswnn_the_dice_of_a_disadvantage_are_named_as_the_pages_name_them() -> None:
    """Advantage: "roll a second die (the advantage die)"; the pages name the mirror only as a disadvantage ("the foe
    has brace disadvantage"), never a "disadvantage die": the dice form says the second die, of the disadvantage."""
    brace = ActionDie("brace", "d6", 0)
    assert disadvantage_role((brace,)).label == "second die (disadvantage)"
    assert advantage_role((brace,)).label == "advantage die"
    assert Wsswnn.role_labels["disadvantage"] == "second die (disadvantage)"
    assert "disadvantage die" not in Wsswnn.role_labels.values()
