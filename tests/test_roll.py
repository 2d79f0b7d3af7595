"""Rolling at the table (issue #2 §5): traces, shared and per-target roles, forced faces, batches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.cli.demo import scenario_files
from tohit.engine.roll import roll, roll_many
from tohit.engine.scenario import from_dict, load

runner = CliRunner()


@pytest.mark.parametrize("path", scenario_files(EXAMPLES), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_batch_roll_rows_equal_single_rolls_of_the_same_faces(path: Path) -> None:
    """Each row of `roll --times N` is what a single roll with those faces forced gives, trace included."""
    raw = json.loads(json.dumps(load(path).scenario.model_dump(mode="json")))
    free = {**raw, "dice": {}, "targets": [{**t, "dice": {}} for t in raw["targets"]]}  # no forced faces
    batch = roll_many(from_dict(free), 200, seed=11)
    for result in batch:
        for t in result.targets:
            data: dict[str, Any] = dict(raw)
            data["dice"] = {}
            data["targets"] = [{**target, "dice": t.faces} for target in raw["targets"] if target["name"] == t.name]
            if raw["system"] == "rtw" and raw["attack"].get("area") and len(raw["targets"]) > 1:
                # The one target of an area that still catches the others (rtw: Falling in Battle, decisions 9).
                data["attack"] = {**raw["attack"], "catches_others": True}
            single = roll(from_dict(data)).targets[0]
            assert single.row == t.row
            assert [s.text for s in single.steps] == [s.text for s in t.steps]


def test_roll_is_repeatable_from_its_seed() -> None:
    loaded = load(EXAMPLES / "kaiser" / "open-roll-and-fumble.yaml")
    a, b = roll(loaded, seed=3).to_json(), roll(loaded, seed=3).to_json()
    assert a == b and a["seed"] == 3


def test_roll_json_shape() -> None:
    code = runner.invoke(app, ["roll", str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"), "--json"])
    data = json.loads(code.output)
    assert set(data) >= {"system", "targets", "dice", "trace", "seed"}
    target = data["targets"][0]
    assert set(target) >= {"name", "result", "damage", "critical", "dos", "units", "ap_lost", "counter_bonus"}
    assert data["dice"]["Bandit"]["offense"] == [5, 4]
    assert all({"target", "step", "text", "clause"} <= set(step) for step in data["trace"])


def test_roll_times_gives_one_roll_each() -> None:
    result = runner.invoke(
        app, ["roll", str(EXAMPLES / "kaiser" / "counter-defender-5-dos.yaml"), "--times", "3", "--seed", "1", "--json"]
    )
    data = json.loads(result.output)
    assert data["times"] == 3 and len(data["rolls"]) == 3


def test_roll_human_output_shows_trace_and_result() -> None:
    result = runner.invoke(app, ["roll", str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"), "--seed", "1"])
    assert result.exit_code == 0
    assert "Offensive Roll: 2d6 (5, 4) + Offensive Skill 12" in result.output
    assert "Bandit: hit" in result.output
