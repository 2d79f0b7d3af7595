"""The commands of issue #2 §5 and their JSON shapes."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.cli.demo import fight_files, scenario_files

runner = CliRunner()
CEIL = str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml")


def invoke(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_systems_lists_each_system_with_a_one_line_description() -> None:
    data = json.loads(invoke("systems", "--json"))
    kaiser = next(s for s in data if s["id"] == "kaiser")
    assert kaiser["title"] == "Kaiser RPG" and "\n" not in kaiser["summary"]
    assert "kaiser" in invoke("systems")


def test_odds_json_gives_exact_fraction_strings_with_floats() -> None:
    data = json.loads(invoke("odds", CEIL, "--json"))
    target = data["targets"][0]
    assert set(target) >= {"name", "result", "damage", "mean_damage", "beyond_depth"}
    hit = target["result"]["hit"]
    p = Fraction(hit["fraction"])
    assert abs(float(p) - hit["float"]) < 1e-12
    total = sum(Fraction(v["fraction"]) for v in target["result"].values()) + Fraction(
        target["beyond_depth"]["fraction"]
    )
    assert total == 1
    assert sum(Fraction(v["fraction"]) for v in target["damage"].values()) == 1 - Fraction(
        target["beyond_depth"]["fraction"]
    )


def test_odds_terminal_shows_table_and_bar_chart() -> None:
    out = invoke("odds", CEIL)
    assert "hit" in out and "damage distribution" in out and "█" in out


def test_odds_plot_writes_a_png(tmp_path: Path) -> None:
    png = tmp_path / "damage.png"
    invoke("odds", CEIL, "--plot", str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_json_has_confidence_intervals_and_damage_summary() -> None:
    data = json.loads(invoke("simulate", CEIL, "-n", "20000", "--seed", "3", "--json"))
    target = data["targets"][0]
    assert target["n"] == 20000 and data["seed"] == 3
    hit = target["result"]["hit"]
    assert hit["ci95"][0] < hit["p"] < hit["ci95"][1]
    assert set(target["damage"]) >= {"mean", "sd", "percentiles"}
    assert set(target["damage"]["percentiles"]) == {"5", "25", "50", "75", "95"}


def test_simulate_is_repeatable_from_its_seed() -> None:
    a = invoke("simulate", CEIL, "-n", "5000", "--seed", "9", "--json")
    assert a == invoke("simulate", CEIL, "-n", "5000", "--seed", "9", "--json")


def test_simulate_refuses_an_unknown_method() -> None:
    result = runner.invoke(app, ["simulate", CEIL, "--method", "magic"])
    assert result.exit_code == 2


def test_schema_is_the_json_schema_of_the_scenario_file() -> None:
    schema = json.loads(invoke("schema", "kaiser"))
    assert {"system", "attacker", "attack", "targets"} <= set(schema["properties"])


@pytest.mark.usefixtures("exact_uncapped")  # the demo's exact duel: a loaded machine would refuse it
def test_demo_runs_the_bundled_examples() -> None:
    out = invoke("demo", "-n", "2000")
    assert "ceil-vs-bandit.yaml" in out and "roll" in out and "odds" in out and "simulate" in out
    # issue 40, item 5: it ends with a one-line summary, counting what it ran
    examples, fights = scenario_files(EXAMPLES), fight_files(EXAMPLES)
    assert len(examples) > 10 and len(fights) > 10
    assert out.splitlines()[-1] == f"demo: {len(examples)} examples and {len(fights)} fights ran, all passed"


def test_simulate_with_workers_is_repeatable_and_agrees() -> None:
    """--workers N: processes with streams spawned from the seed; the same seed and worker count, the same result."""
    args = ("simulate", CEIL, "-n", "40000", "--seed", "4", "--json", "--workers", "2")
    a, b = json.loads(invoke(*args)), json.loads(invoke(*args))
    assert a == b
    hit = a["targets"][0]["result"]["hit"]
    assert a["targets"][0]["n"] == 40000 and 0.87 < hit["p"] < 0.90
    assert sum(r["count"] for r in a["targets"][0]["result"].values()) == 40000


def test_modifiers_read_whole_at_80_columns() -> None:
    """Issue 20, item 8: at 80 columns the table is listed group by group, each description under its id:
    no line past 80 characters, no id or description cut."""
    result = CliRunner(env={"COLUMNS": "80"}).invoke(app, ["modifiers", "fullplate"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in result.output
    assert "attacker_climbing_same_level" in result.output
    assert "Attacker is Climbing and is At Same Level as Target" in result.output
