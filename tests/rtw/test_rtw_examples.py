"""The bundled Reclaim the Wild examples (examples/rtw/): the numbers their comments state, through the CLI feeds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import load
from tohit.engine.simulate import simulate

FOLDER = EXAMPLES / "rtw"


def rows(name: str) -> dict[str, dict[str, Any]]:
    result = roll(load(FOLDER / name), seed=1)
    return {t.name: t.row for t in result.targets}


def test_rtw_example_sneak_attack_deals_11() -> None:
    """Damage worked example: Weapon 5 + 2 x Combat 3 = 11; a Technique vs a Hard-to-Hit foe rolls (12 vs 12)."""
    row = rows("sneak-attack.yaml")["Bokoblin"]
    assert (row["result"], row["to_hit"], row["damage"], row["health_after"], row["peril"]) == ("hit", 12, 11, 9, False)


def test_rtw_example_critical_range_11_and_12() -> None:
    """Critical range +1: a natural 11 is a Critical Hit (16), a natural 10 is not (11)."""
    found = rows("critical-range.yaml")
    assert (found["Lizalfos A"]["critical"], found["Lizalfos A"]["damage"]) == (True, 16)
    assert (found["Lizalfos B"]["critical"], found["Lizalfos B"]["damage"]) == (False, 11)


def test_rtw_example_vulnerable_resistance_10_and_floor_4() -> None:
    """Vulnerable with 2 ranks of Resistance: 11 + 4 - 3 - 2 = 10; Vulnerable behind Defense 12: never below 4."""
    found = rows("vulnerable-resistance.yaml")
    assert found["Fire-warded Keese"]["damage"] == 10
    assert found["Ice Chuchu"]["damage"] == 4


def test_rtw_example_off_balance_needs_11_steady_needs_14() -> None:
    """Off-Balance: needs Vitality 11; steady: the higher Evasion 14. Both roll 11."""
    found = rows("off-balance.yaml")
    off, steady = found["Off-Balance Moblin"], found["Steady Moblin"]
    assert (off["defence_stat"], off["result"], off["damage"]) == (11, "hit", 10)
    assert (steady["defence_stat"], steady["result"], steady["damage"]) == (14, "miss", 0)


def test_rtw_example_fireball_over_an_area() -> None:
    """A Spell: automatic hit plus effect; a Hard-to-Hit miss with no effect roll; a Helpless Hero unharmed; the
    Magic cost spent against every target."""
    found = rows("fireball-area.yaml")
    bokoblin, keese, hero = found["Bokoblin"], found["Keese"], found["Fallen Hero"]
    assert (bokoblin["result"], bokoblin["to_hit"], bokoblin["damage"], bokoblin["effect_landed"]) == (
        "hit",
        None,
        6,
        True,
    )
    assert (keese["result"], keese["to_hit"], keese["effect_landed"], keese["effect_to_hit"]) == (
        "miss",
        7,
        False,
        None,
    )
    assert (hero["unharmed"], hero["damage"], hero["falls"], hero["effect_landed"]) == (True, 0, None, False)
    assert {r["cost_spent"] for r in found.values()} == {6}


def test_rtw_example_intercept_with_a_burning_club() -> None:
    """Intercept: automatic hit; Burning: a Critical Hit in Fire: (6 + 3 + 6) - 4 - 6 = 5."""
    row = rows("intercept-burning.yaml")["Goron"]
    assert (row["to_hit"], row["critical"], row["damage"], row["burning_wear"], row["health_after"]) == (
        None,
        True,
        5,
        True,
        9,
    )


def test_rtw_example_blinded_finisher_hero_falls_helpless() -> None:
    """Blinded: -5; 12 vs 12 hits for 6; the Hero at 0 Health falls Helpless."""
    row = rows("blinded-finisher.yaml")["Hero"]
    assert (row["hard_to_hit"], row["to_hit"], row["damage"], row["falls"], row["peril"]) == (
        "extreme",
        12,
        6,
        "helpless",
        True,
    )


EXAMPLE_FILES = sorted(FOLDER.glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.name for p in EXAMPLE_FILES])
def test_rtw_example_runs_through_roll_odds_and_simulate(path: Path) -> None:
    """Every bundled example loads and runs through the three feeds; exact odds sum to 1; the CLI prints JSON."""
    loaded = load(path)
    assert loaded.system.id == "rtw"
    for target in odds(loaded).targets:
        assert sum(p for _, p in target.distribution("result")) == 1
        assert sum(p for _, p in target.distribution("damage")) == 1
    sim = simulate(loaded, 2000, seed=5)
    assert all(t.n == 2000 for t in sim.targets)
    for command in ("roll", "odds"):
        result = CliRunner().invoke(app, [command, str(path), "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["system"] == "rtw"


def test_rtw_examples_cover_every_worked_example() -> None:
    """Issue #3: at least one bundled example per worked example."""
    names = {p.name for p in EXAMPLE_FILES}
    assert {"sneak-attack.yaml", "critical-range.yaml", "vulnerable-resistance.yaml", "off-balance.yaml"} <= names


def test_rtw_modifiers_and_schema_commands() -> None:
    """`tohit modifiers rtw` lists the conditions; `tohit schema rtw` gives the scenario's JSON Schema."""
    mods = CliRunner().invoke(app, ["modifiers", "rtw", "--json"])
    assert mods.exit_code == 0
    ids = {row["id"] for row in json.loads(mods.stdout)}
    assert {"hard_to_hit: hard", "blinded", "prone", "reaction: parry", "vulnerable"} <= ids
    schema = CliRunner().invoke(app, ["schema", "rtw"])
    assert schema.exit_code == 0
    assert "Hard to Hit" in schema.stdout and "crit_range" in schema.stdout
