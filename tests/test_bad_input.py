"""Bad input is normal input (issue #2 §7): one line naming the file and the field, exit code 2, no traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.scenario import from_dict

runner = CliRunner()
CEIL = yaml.safe_load((EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text())


def run_cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def write(tmp_path: Path, data: Any, name: str = "bad.yaml") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data))
    return path


def changed(path: str, value: Any) -> dict[str, Any]:
    """CEIL with the dotted `path` set to `value` (or removed when value is DELETE)."""
    data = json.loads(json.dumps(CEIL))
    node: Any = data
    keys = path.split(".")
    for key in keys[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is DELETE:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return data


DELETE = object()

CASES = [
    ("missing field", changed("targets.0.defensive_skill", DELETE), "targets[0].defensive_skill", "required"),
    ("unknown field", changed("attacker.charisma", 3), "attacker.charisma", "unknown field"),
    ("wrong type", changed("attacker.offensive_skill", "high"), "attacker.offensive_skill", "integer"),
    ("unknown system", changed("system", "dnd"), "system", "unknown system"),
    ("unknown role", changed("targets.0.dice.luck", [1, 2]), "targets[0].dice.luck", "unknown dice role"),
    ("face out of range", changed("targets.0.dice.offense", [7, 2]), "targets[0].dice.offense", "not on a d6"),
    ("wrong face count", changed("targets.0.dice.defense", [3]), "targets[0].dice.defense", "at least 2 faces"),
    ("open roll without its die", changed("targets.0.dice.offense", [6, 6]), "targets[0].dice.offense", "open roll"),
    ("unknown damage type", changed("attacker.weapon.damage_type", "fire"), "attacker.weapon.damage_type", "cut"),
    ("strength outside the table", changed("attacker.strength", 31), "attacker.strength", "30"),
    ("negative AV", changed("targets.0.armor.cut", -1), "targets[0].armor.cut", "greater than or equal"),
    ("unknown range", changed("attack.range", "far"), "attack.range", "hand_to_hand"),
    ("no targets", changed("targets", []), "targets", "at least 1"),
    (
        "duplicate target names",
        changed("targets", [CEIL["targets"][0], CEIL["targets"][0]]),
        "targets[1].name",
        "twice",
    ),
]


@pytest.mark.parametrize(("why", "data", "field", "words"), CASES, ids=[c[0] for c in CASES])
def test_bad_scenario_is_one_line_naming_file_and_field_exit_2(
    tmp_path: Path, why: str, data: dict[str, Any], field: str, words: str
) -> None:
    path = write(tmp_path, data)
    for command in ("roll", "odds", "simulate"):
        code, output = run_cli(command, str(path))
        assert code == 2, output
        lines = output.strip().splitlines()
        assert len(lines) == 1, output
        assert str(path) in lines[0] and field in lines[0] and words in lines[0], lines[0]
        assert "Traceback" not in output


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("system: kaiser\nattacker: [unclosed\n", "not valid YAML"),
        ("- just\n- a list\n", "must hold a mapping"),
        ("", "must hold a mapping"),
        ("system: kaiser: twice\n", "not valid YAML"),
        ("targets: 3\n  bad: indent\n", "not valid YAML"),
    ],
)
def test_malformed_file_is_one_line_exit_2(tmp_path: Path, content: str, words: str) -> None:
    path = write(tmp_path, content)
    code, output = run_cli("roll", str(path))
    assert code == 2 and words in output and str(path) in output and len(output.strip().splitlines()) == 1


def test_malformed_json_is_one_line_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, '{"system": "kaiser",', name="bad.json")
    code, output = run_cli("odds", str(path))
    assert code == 2 and "not valid JSON" in output and "line 1" in output


def test_unreadable_file_is_one_line_exit_2(tmp_path: Path) -> None:
    for path, words in ((tmp_path / "missing.yaml", "no such file"), (tmp_path, "is a directory")):
        code, output = run_cli("roll", str(path))
        assert code == 2 and words in output and "Traceback" not in output


def test_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"\x80\x81\x82")
    code, output = run_cli("roll", str(path))
    assert code == 2 and "UTF-8" in output


def test_plot_to_a_missing_folder_is_refused_before_writing(tmp_path: Path) -> None:
    code, output = run_cli(
        "odds", str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"), "--plot", str(tmp_path / "no" / "x.png")
    )
    assert code == 2 and "--plot" in output


def test_unknown_system_in_schema_and_modifiers_is_exit_2() -> None:
    for command in ("schema", "modifiers"):
        code, output = run_cli(command, "dnd")
        assert code == 2 and "unknown system" in output


def test_modifiers_of_a_system_without_a_table_is_exit_2() -> None:
    code, output = run_cli("modifiers", "kaiser")
    assert code == 2 and "no table" in output


# -- Any document: accepted or refused cleanly ------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
KEYS = ["system", "attacker", "attack", "targets", "dice", "options", "seed"]


def mutate(base: dict[str, Any], path: list[str], value: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(base))
    node = data
    for key in path[:-1]:
        if not isinstance(node, dict) or key not in node or not isinstance(node[key], dict):
            return data
        node = node[key]
    node[path[-1]] = value
    return data


FIELDS = [
    "system",
    "attacker.offensive_skill",
    "attacker.strength",
    "attacker.weapon",
    "attacker.weapon.damage",
    "attack.range",
    "attack.advantage",
    "targets",
    "dice",
    "options",
    "options.depth",
    "seed",
    "attack",
    "dice.offense",
    "options.open_rolls_and_fumbles",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=7))
def test_any_document_is_accepted_or_refused_cleanly(doc: dict[str, Any]) -> None:
    try:
        from_dict(doc, source="fuzz.yaml")
    except InputError as exc:
        assert str(exc).startswith("fuzz.yaml")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FIELDS), json_values)
def test_any_field_value_in_a_real_scenario_is_accepted_or_refused_cleanly(field: str, value: Any) -> None:
    doc = mutate(CEIL, field.split("."), value)
    try:
        loaded = from_dict(doc, source="fuzz.yaml")
    except InputError as exc:
        assert str(exc).startswith("fuzz.yaml")
        return
    assert loaded.system.id == "kaiser"
