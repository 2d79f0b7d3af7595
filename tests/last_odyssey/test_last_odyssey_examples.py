"""Last Odyssey: the worked examples of the page, issue 6 and the game's other pages, numbers in, numbers out."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.last_odyssey.helpers import rolled, row, scenario
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import load
from tohit.engine.simulate import simulate

FOLDER = EXAMPLES / "last-odyssey"
COP = {
    "name": "Cop",
    "hp": 10,
    "shell": 5,
    "element": "colorless",
    "physical_defense": 2,
    "magical_defense": 1,
    "evasion": 1,
    "resistance": 2,
}


def test_last_odyssey_page_example_two_enemies_one_roll() -> None:
    """General Notes: Physical Accuracy 3, Physical Attack 2, the d10 shows 5: accuracy result 2, damage
    result 7. Evasion 6: 8, a miss. Evasion 2 / Physical Defense 3: a hit, base damage 4; x2 with no Shell: 8."""
    data = scenario(
        {"name": "A", "evasion": 6, "physical_defense": 1, "shell": False},
        {"name": "B", "evasion": 2, "physical_defense": 3, "shell": False},
        attacker={"physical_accuracy": 3, "physical_attack": 2},
        attack={"kind": "physical", "type": "multi"},
        die=5,
    )
    a, b = row(data, "A"), row(data, "B")
    assert (a["accuracy_value"], a["hit_value"], a["result"], a["damage"]) == (2, 8, "miss", 0)
    assert (b["accuracy_value"], b["hit_value"], b["result"]) == (2, 4, "hit")
    assert (b["base_damage"], b["damage"]) == (4, 8)
    # The "damage result" 7 is Physical Attack + the die, before the target's Defense.
    assert 2 + 5 == 7 == b["base_damage"] + 3


def test_last_odyssey_bundled_page_example_file() -> None:
    """examples/last-odyssey/cleave-two-enemies.yaml holds the same page example."""
    result = roll(load(FOLDER / "cleave-two-enemies.yaml"), 1)
    first, second = result.target("First enemy").row, result.target("Second enemy").row
    assert (first["result"], first["hit_value"]) == ("miss", 8)
    assert (second["result"], second["base_damage"], second["damage"]) == ("hit", 4, 8)


def test_last_odyssey_base_damage_floor_example() -> None:
    """Issue 6: Attack 1 against Defense 9 with a d10 of 2 is base damage 1, not -6; with x0.25 the final is 0."""
    target = {"physical_defense": 9, "shell": True, "evasion": 0}
    plain = row(scenario(target, attacker={"physical_attack": 1}, die=2))
    assert (plain["result"], plain["base_damage"], plain["damage"]) == ("hit", 1, 1)
    quarter = row(scenario({**target, "element_multiplier": 0.25}, attacker={"physical_attack": 1}, die=2))
    assert (quarter["base_damage"], quarter["damage"]) == (1, 0)


def test_last_odyssey_elemental_types_example_rounds_down_as_an_option() -> None:
    """Elemental Types: 2.5 damage counts as 2 (option rounding: down); the page's nearest gives 3."""
    data = scenario({"shell": True, "evasion": 0, "element_multiplier": 0.5}, attacker={"physical_attack": 2}, die=3)
    assert row(data)["damage"] == 3
    assert row({**data, "options": {"rounding": "down"}})["damage"] == 2


def test_last_odyssey_cop_example_body_armor_and_full_shell() -> None:
    """examples/last-odyssey/cop.yaml: the Cop (HP 10, Shell 5, PDef 2, Evasion 1) starts with its full
    Shell, so a physical hit is not doubled; its Body Armor makes the first physical hit deal no damage."""
    r = roll(load(FOLDER / "cop.yaml"), 1).target("Cop").row
    assert (r["result"], r["hit_value"], r["base_damage"], r["damage"]) == ("hit", 3, 9, 0)
    assert (r["shell_absorbed"], r["overflow"], r["hp_lost"], r["downed"]) == (0, None, 0, False)
    again = row(
        scenario({**COP, "body_armor": False}, attacker={"physical_accuracy": 4, "physical_attack": 5}, die=6), "Cop"
    )
    assert (again["damage"], again["shell_absorbed"], again["overflow"]) == (9, 5, 4)  # the Shell breaks
    assert again["hp_lost"] == 0  # overflow 4 < 10 HP


def test_last_odyssey_cop_example_fire_spell_breaks_the_shell() -> None:
    """examples/last-odyssey/fire-spell-on-cop.yaml: magical 7 x2 on the Shell = 14; Shell 5 absorbs 5,
    overflow 9 < 10 HP: no HP lost."""
    r = roll(load(FOLDER / "fire-spell-on-cop.yaml"), 1).target("Cop").row
    assert (r["base_damage"], r["damage"], r["shell_absorbed"], r["overflow"], r["hp_lost"]) == (7, 14, 5, 9, 0)


def test_last_odyssey_cop_example_overflow_downs() -> None:
    """The Cop (HP 10 / Shell 5): magical base 5 - 1 + 4 = 8, x2 on the Shell = 16; Shell 5 absorbs 5,
    overflow 11 >= 10 HP: downed (Shells)."""
    data = scenario(
        COP, attacker={"magical_accuracy": 3, "magical_attack": 5}, attack={"kind": "magical", "type": "ranged"}, die=4
    )
    r = row(data, "Cop")
    assert (r["base_damage"], r["damage"], r["overflow"], r["hp_lost"], r["downed"]) == (8, 16, 11, 10, True)


def test_last_odyssey_knock_out_example() -> None:
    """examples/last-odyssey/knock-out.yaml: die 9 hits (6 <= 7); damage as if 1: (5 - 2 + 1) x2 = 8 >= 3 HP:
    downed and incapacitated."""
    r = roll(load(FOLDER / "knock-out.yaml"), 1).target("Cop").row
    assert (r["result"], r["base_damage"], r["damage"], r["downed"], r["incapacitated"]) == ("hit", 4, 8, True, True)


def test_last_odyssey_crowd_control_example() -> None:
    """examples/last-odyssey/crowd-control.yaml: the Cop's debuff moves Physical Attack +1 -> 0, no roll."""
    result = roll(load(FOLDER / "crowd-control.yaml"), 1).target("Mariana")
    assert result.faces == {"hit": []}
    assert (result.row["result"], result.row["tracker"]) == ("hit", 0)


def test_last_odyssey_poison_example_thresholds() -> None:
    """examples/last-odyssey/poison-arrow.yaml: one die; x1 5 or below, x2 (wood vs a light Shell) 7 or
    below, x0.5 (wood vs a fire Shell) 3 or below."""
    loaded = load(FOLDER / "poison-arrow.yaml")
    exact = odds(loaded)

    # Status Accuracy 4: Mariana (Res 3) d - 1 <= 5; Azkhan (Res 1) d - 3 <= 7; Jianna (Res 0) d - 4 <= 3.
    assert exact.target("Mariana").probability("status_applied", True) == Fraction(6, 10)
    assert exact.target("Azkhan").probability("status_applied", True) == 1
    assert exact.target("Jianna").probability("status_applied", True) == Fraction(7, 10)


@pytest.mark.parametrize("path", sorted(FOLDER.glob("*.yaml")), ids=lambda p: p.name)
def test_last_odyssey_bundled_examples_roll_odds_and_simulate(path: Path) -> None:
    """Every bundled example goes through the three feeds without error (tohit demo runs them all)."""
    loaded = load(path)
    assert roll(loaded, 1).targets
    assert all(t.total > 0 for t in odds(loaded).targets)
    for method in ("table", "direct"):
        sampled = simulate(loaded, 1000, seed=1, method=method)  # type: ignore[arg-type]
        assert [t.n for t in sampled.targets] == [1000] * len(loaded.scenario.targets)


def test_last_odyssey_rolled_examples_keep_their_forced_dice() -> None:
    """Forced dice in the examples: every target reads the same hit die."""
    result = rolled(scenario({}, {}, attack={"kind": "physical", "type": "multi"}, die=7))
    assert {tuple(t.faces["hit"]) for t in result.targets} == {(7,)}
