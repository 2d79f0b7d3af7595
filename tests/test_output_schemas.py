"""The `--json` outputs are published as JSON Schemas (`tohit schema SYSTEM --output KIND`, issue 20, item 2):
each command's output on the bundled examples is valid under its schema (checked with `jsonschema`)."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app

SCENARIOS = sorted(p for p in EXAMPLES.glob("*/*.yaml") if p.parent.name != "fights")
FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))


def run(*args: str) -> object:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@cache
def schema(system: str, kind: str) -> jsonschema.Draft202012Validator:
    found = run("schema", system, "--output", kind)
    assert isinstance(found, dict)
    jsonschema.Draft202012Validator.check_schema(found)
    return jsonschema.Draft202012Validator(found)


def valid(system: str, kind: str, data: object) -> None:
    errors = list(schema(system, kind).iter_errors(data))
    assert not errors, [f"{e.json_path}: {e.message[:200]}" for e in errors[:3]]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_roll_odds_and_simulate_outputs_match_their_schemas(path: Path) -> None:
    system = yaml.safe_load(path.read_text())["system"]
    valid(system, "roll", run("roll", str(path), "--json", "--seed", "1"))
    valid(system, "roll", run("roll", str(path), "--json", "--seed", "1", "--times", "2"))
    valid(system, "odds", run("odds", str(path), "--json"))
    valid(system, "simulate", run("simulate", str(path), "--json", "-n", "300", "--seed", "1"))


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.name)
def test_fight_outputs_match_their_schemas(path: Path, tmp_path: Path) -> None:
    system = yaml.safe_load(path.read_text())["system"]
    valid(system, "fight", run("fight", str(path), "--json", "--seed", "1"))
    valid(system, "fights", run("fight", str(path), "--json", "-n", "200", "--seed", "1"))
    log = tmp_path / "events.jsonl"
    CliRunner().invoke(app, ["fight", str(path), "--seed", "1", "--log", str(log)])
    valid(system, "replay", run("replay", str(log), "--json"))


def test_exact_output_matches_its_schema(tmp_path: Path) -> None:
    data = yaml.safe_load((EXAMPLES / "fights" / "fullplate-skirmish.yaml").read_text())
    data["sides"] = [copy.deepcopy(s) for s in data["sides"]]
    for side in data["sides"]:
        side["combatants"] = side["combatants"][:1]
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(data))
    valid("fullplate", "exact", run("fight", str(path), "--json", "--exact"))


def test_an_unknown_output_kind_is_one_error_line() -> None:
    result = CliRunner().invoke(app, ["schema", "kaiser", "--output", "nope"])
    assert result.exit_code == 2 and result.output.startswith("error: --output: one of roll, odds")
