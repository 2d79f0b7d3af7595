"""Last Odyssey bad input (issue 6): one clear line naming the file and the field, exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.last_odyssey.helpers import physical, scenario
from tohit.cli.app import app


def _without(data: dict[str, Any], *path: str) -> dict[str, Any]:
    node: Any = data
    for key in path[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    del node[path[-1]]
    return data


CASES: dict[str, tuple[dict[str, Any], str, str]] = {
    "missing physical accuracy": (
        _without(scenario({}), "attacker", "physical_accuracy"),
        "attacker.physical_accuracy",
        "needs the user's Physical Accuracy",
    ),
    "missing target evasion": (
        _without(scenario({}), "targets", "0", "evasion"),
        "targets[0].evasion",
        "needs the target's Evasion",
    ),
    "missing magical defense": (
        _without(scenario({}, attack={"kind": "magical", "type": "ranged"}), "targets", "0", "magical_defense"),
        "targets[0].magical_defense",
        "Magical Defense",
    ),
    "missing status accuracy": (
        _without(
            scenario({}, attack={"kind": "status", "type": "ranged", "status": "x"}), "attacker", "status_accuracy"
        ),
        "attacker.status_accuracy",
        "Status Accuracy",
    ),
    "missing shell": (
        _without(scenario({}), "targets", "0", "shell"),
        "targets[0].shell",
        "Shell",
    ),
    "melee from the back row": (
        scenario({}, attacker={"row": "back"}, attack=physical(type="melee")),
        "attacker.row",
        "front row",
    ),
    "status attack with damage multipliers": (
        scenario({}, attack={"kind": "status", "type": "ranged", "status": "x", "multipliers": [2]}),
        "attack.multipliers",
        "deals no damage",
    ),
    "unknown ability type": (
        scenario({}, attack=physical(type="aura")),
        "attack.type[0]",
        "'self', 'melee'",
    ),
    "element multiplier 3": (
        scenario({"element_multiplier": 3}),
        "targets[0].element_multiplier",
        "0.25, 0.5, 1, 2 or 4",
    ),
    "element multiplier 1.5": (
        scenario({"element_multiplier": 1.5}),
        "targets[0].element_multiplier",
        "0.25, 0.5, 1, 2 or 4",
    ),
    "passive used as an action": (
        scenario({}, attack=physical(type="passive")),
        "attack.type",
        "cannot be used as an action",
    ),
    "hit die forced differently per target": (
        {
            **scenario({}, {}, attack={"kind": "physical", "type": "multi"}),
            "targets": [
                {**scenario({})["targets"][0], "name": "A", "dice": {"hit": [3]}},
                {**scenario({})["targets"][0], "name": "B", "dice": {"hit": [4]}},
            ],
        },
        "targets[1].dice.hit",
        "once for every target",
    ),
    "hit die face 11": (
        scenario({}, die=11),
        "dice.hit",
        "not on a d10",
    ),
    "unknown kind": (
        scenario({}, attack={"kind": "healing", "type": "ally"}),
        "attack.kind",
        "'physical'",
    ),
    "bad bonus tracker step": (
        scenario({"buffs": {"evasion": 2}}),
        "targets[0].buffs.evasion",
        "-7",
    ),
    "non-player knock-out": (
        scenario({}, attacker={"player_character": False}, attack=physical(knock_out=True)),
        "attack.knock_out",
        "player character",
    ),
    "several targets without multi": (
        {**scenario({}, {}), "attack": physical(type="ranged")},
        "targets",
        "Multi",
    ),
    "unknown status": (
        scenario({"statuses": ["stoned"]}),
        "targets[0].statuses[0]",
        "'petrified'",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_last_odyssey_bad_input_is_one_line_naming_file_and_field(case: str, tmp_path: Path) -> None:
    """Issue 6, Bad input: exit code 2, one line on stderr naming the file and the field, no traceback."""
    data, field, words = CASES[case]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    for command in ("roll", "odds", "simulate"):
        result = CliRunner().invoke(app, [command, str(path)])
        assert result.exit_code == 2, (command, result.output)
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1, lines
        assert f"{path}: {field}: " in lines[0], lines[0]
        assert words in lines[0], lines[0]
        assert "Traceback" not in result.output


def test_last_odyssey_error_line_is_not_wrapped_nor_read_as_markup(tmp_path: Path) -> None:
    """Issue 6, Bad input: the one line survives a long file name and brackets in it (CLI `fail`)."""
    folder = tmp_path / ("a folder with a long name, [bold] brackets and more words to pass eighty columns" * 2)
    folder.mkdir()
    path = folder / "bad.yaml"
    path.write_text(yaml.safe_dump(scenario({"element_multiplier": 3})), encoding="utf-8")
    result = CliRunner().invoke(app, ["roll", str(path)])
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == [f"error: {path}: targets[0].element_multiplier: {lines[0].split('element_multiplier: ')[1]}"]
    assert "[bold]" in lines[0]
