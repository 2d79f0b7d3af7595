"""The page's worked examples, numbers in and numbers out (Taking Actions; the game's other pages
"Worked examples"), both as scenario dicts with forced dice and as the bundled files in examples/wsswnn/."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.wsswnn.helpers import dist, make, row, trace
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import load
from tohit.engine.simulate import simulate

FILES = sorted((EXAMPLES / "wsswnn").glob("*.yaml"))
KULU = {"name": "Kulu brute", "guard": 6, "agility": 0}


def test_wsswnn_page_example_attack_7_vs_guard_4() -> None:
    """Guard Damage: "if you roll 7 to attack an unarmored foe with 4 guard, your attack inflicts -3 life
    (7 - 4), then inflicts -1 guard, reducing it to 3"."""
    r = row(make(target={"guard": 4, "agility": 1, "life": 10}, dice={"attack": [7]}))
    assert (r["result"], r["lethal"], r["guard_damage"], r["guard_after"], r["life_after"]) == ("hit", 3, 1, 3, 7)


def test_wsswnn_page_example_strength_2_staff_or_bare_hands_never_more_than_3() -> None:
    """Lethal Damage: "if your Strength is 2, you can never inflict more than 3 lethal damage with a staff or
    your bare hands": over every face of a d12 against no Guard, the most is 3."""
    for weapon in ({"name": "staff", "blunted": True}, None):
        data = make(attacker={"attack_die": "d12", "strength": 2, "weapon": weapon}, target={"guard": 0, "agility": 0})
        lethal = dist(data, "lethal")
        assert max(lethal) == 3
        assert lethal[3] == Fraction(10, 12)  # faces 3 to 12 all inflict 3


def test_wsswnn_page_example_wandu_jump_attack() -> None:
    """A Tale of Two Jump Attacks: Wandu rolls Attack 2, Maneuver (advantage) 7, -2 for two heights: 5, a block
    against Agility 0 / Guard 6; the jump-attack does not miss: +6 (+3 per height): 11; -5 life and -3 guard."""
    data = make(
        attacker={"attack_die": "d6", "maneuver_die": "d8", "strength": 0, "weapon": {"name": "dagger"}},
        attack={"kind": "jump", "heights": 2},
        target=KULU,
        dice={"attack": [2], "advantage": [7], "landing": [1]},
    )
    r = row(data)
    assert (r["result"], r["attack_roll"], r["lethal"], r["guard_damage"], r["guard_after"]) == ("hit", 11, 5, 3, 3)
    assert (r["falling_lethal"], r["falling_guard"]) == (None, None)
    text = trace(data)
    assert "keep the higher, 7" in text
    assert "7 - 2 = 5" in text
    assert "= +6: 11" in text
    assert "5 beats Agility 0: the jump-attack does not miss" in text


def test_wsswnn_page_example_chom_jump_attack_misses_and_falls() -> None:
    """A Tale of Two Jump Attacks: Chom rolls Attack 2; his d4 Maneuver at -2 shows -1; he keeps 2, -2 for the
    heights: 0, which fails to beat Agility 0: a miss. Landing Maneuver 4 - 2 = 2 off the fall's lethal damage:
    -2 life and -2 guard."""
    data = make(
        attacker={"attack_die": "d8", "maneuver_die": "d4", "penalty": 2, "weapon": {"name": "spear"}},
        attack={"kind": "jump", "heights": 2},
        target=KULU,
        dice={"attack": [2], "advantage": [1], "landing": [4]},
    )
    r = row(data)
    assert (r["result"], r["attack_roll"], r["damage"], r["guard_damage"]) == ("miss", 0, 0, 0)
    assert (r["falling_lethal"], r["falling_guard"]) == (2, 2)
    text = trace(data)
    assert "Maneuver d4-2 (1) (jump-attack) = -1: keep the higher, 2" in text.replace("maneuver advantage", "Maneuver")
    assert "landing Maneuver d4-2 (4) = 2" in text


def test_wsswnn_page_example_balloon_axe() -> None:
    """Attacking Objects: the balloon (cloth and wicker) has Toughness 1 and Structure 16; a -2-guard weapon
    doubles the attack result before Toughness: 7 x 2 - 1 = 13, Structure 3."""
    data = make(attacker={"attack_die": "d10", "weapon": {"name": "axe", "guard_damage": 2}}, dice={"attack": [7]})
    data["targets"] = [{"name": "Balloon", "materials": ["cloth", "wicker"], "structure": 16}]
    r = row(data)
    assert (r["result"], r["damage"], r["structure_after"], r["destroyed"]) == ("hit", 13, 3, False)
    assert "cloth 0 + wicker 2: average, rounded down" in trace(data)


# -- the bundled example files --------------------------------------------------------------------------

PAGE_FILES = {
    "attack-7-vs-guard-4.yaml": {"Unarmored foe": {"result": "hit", "lethal": 3, "guard_after": 3}},
    "staff-strength-2.yaml": {"Bandit": {"result": "hit", "lethal": 3}},
    "wandu-jump-attack.yaml": {"Kulu brute": {"result": "hit", "attack_roll": 11, "lethal": 5, "guard_damage": 3}},
    "chom-jump-attack.yaml": {"Kulu brute": {"result": "miss", "falling_lethal": 2, "falling_guard": 2}},
    "balloon-axe.yaml": {"Balloon": {"damage": 13, "structure_after": 3}},
}


@pytest.mark.parametrize("name", sorted(PAGE_FILES))
def test_wsswnn_bundled_page_examples_give_the_pages_numbers(name: str) -> None:
    """Each worked example of the page is a bundled file whose forced roll gives the page's numbers."""
    result = roll(load(EXAMPLES / "wsswnn" / name))
    for target, expected in PAGE_FILES[name].items():
        got = result.target(target).row
        assert {k: got[k] for k in expected} == expected


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_wsswnn_every_bundled_example_rolls_odds_and_simulates(path: Path) -> None:
    """`tohit demo` runs every file: each must roll, give exact odds summing to 1, and simulate."""
    loaded = load(path)
    roll(loaded, seed=3)
    for t in odds(loaded).targets:
        assert sum(p for _, p in t.distribution("result")) == 1
        assert sum(p for _, p in t.distribution("damage")) == 1
    simulate(loaded, 1000, seed=3)
