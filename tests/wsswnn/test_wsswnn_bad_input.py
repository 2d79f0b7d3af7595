"""Bad input (issue 7): one clear line naming the file and the field, exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.wsswnn.helpers import make
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.scenario import load

OBJECT = {"name": "Balloon", "materials": ["cloth", "wicker"], "structure": 16}


def _with(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    for path, value in changes.items():
        node = data
        *parents, last = path.split("__")
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[last] = value  # type: ignore[index]
    return data


CASES: dict[str, tuple[dict[str, Any], str, str]] = {
    # issue 7's four
    "die_not_d4_to_d12": (_with(make(), attacker__attack_die="d20"), "attacker.attack_die", "'d4'"),
    "ranged_negative_spans": (
        make(attack={"kind": "ranged", "spans": -1}),
        "attack.spans",
        "greater than or equal to 0",
    ),
    "jump_without_heights": (
        make(attacker={"maneuver_die": "d6"}, attack={"kind": "jump"}),
        "attack.heights",
        "at least 1",
    ),
    "object_given_guard": (
        _with(make(), targets=[{**OBJECT, "guard": 3}]),
        "targets[0].guard",
        "an object has no Guard",
    ),
    # more of the same kind
    "die_d3": (_with(make(), attacker__maneuver_die="d3"), "attacker.maneuver_die", "'d12'"),
    "jump_zero_heights": (
        make(attacker={"maneuver_die": "d6"}, attack={"kind": "jump", "heights": 0}),
        "attack.heights",
        "at least 1",
    ),
    "jump_without_maneuver_die": (make(attack={"kind": "jump", "heights": 1}), "attacker.maneuver_die", "Maneuver"),
    "heights_without_jump": (make(attack={"heights": 2}), "attack.heights", "only a jump-attack"),
    "melee_at_range": (make(attack={"spans": 2}), "attack.spans", "in your span"),
    "object_given_armor": (_with(make(), targets=[{**OBJECT, "armor": 1}]), "targets[0].armor", "an object has no"),
    "object_without_structure": (
        _with(make(), targets=[{"name": "Door", "toughness": 2}]),
        "targets[0].structure",
        "Structure",
    ),
    "object_toughness_and_materials": (
        _with(make(), targets=[{**OBJECT, "toughness": 1}]),
        "targets[0].toughness",
        "not both",
    ),
    "object_without_toughness": (
        _with(make(), targets=[{"name": "Door", "structure": 9}]),
        "targets[0].toughness",
        "needs its Toughness",
    ),
    "unknown_material": (
        _with(make(), targets=[{**OBJECT, "materials": ["glass"]}]),
        "targets[0].materials[0]",
        "cloth",
    ),
    "foe_without_guard": (_with(make(), targets=[{"name": "Foe", "agility": 1}]), "targets[0].guard", "required"),
    "advantage_on_the_acting_die": (make(attack={"advantage": "attack"}), "attack.advantage", "never the acting"),
    "advantage_die_not_given": (make(attack={"advantage": "compel"}), "attacker.compel_die", "give it"),
    "disadvantage_on_the_acting_die": (
        make(attack={"disadvantage": "attack"}),
        "attack.disadvantage",
        "never the acting",
    ),
    "disadvantage_twice": (
        make(attacker={"brace_die": "d6"}, attack={"disadvantage": ["brace", "brace"]}),
        "attack.disadvantage",
        "same die twice",
    ),
    "disadvantage_die_not_given": (make(attack={"disadvantage": "compel"}), "attacker.compel_die", "give it"),
    "grappled_without_a_brace_die": (make(attacker={"grappled": True}), "attacker.brace_die", "grappled by a foe"),
    "rolled_on_a_brace_action": (
        make(
            attacker={"brace_die": "d6", "guard": 2, "max_guard": 4},
            attack={"kind": "brace", "brace": "stand_fast", "rolled": 3},
        ),
        "attack.rolled",
        "an attack's",
    ),
    "disadvantage_not_a_die": (make(attack={"disadvantage": "luck"}), "attack.disadvantage", "'attack'"),
    "take_hold_without_free_hand": (
        make(attacker={"brace_die": "d6", "free_hand": False}, attack={"kind": "take_hold"}),
        "attacker.free_hand",
        "free hand",
    ),
    "take_hold_foe_without_stamina": (
        make(attacker={"brace_die": "d6"}, attack={"kind": "take_hold"}),
        "targets[0].stamina",
        "required for the grapple brace",
    ),
    "grapple_without_hold": (
        make(
            attacker={"brace_die": "d6"},
            attack={"kind": "brace", "brace": "grapple"},
            target={"stamina": 2, "strength": 1},
        ),
        "targets[0].held",
        "needs a hold",
    ),
    "brace_without_name": (make(attacker={"brace_die": "d6"}, attack={"kind": "brace"}), "attack.brace", "names"),
    "stand_fast_without_guard": (
        make(attacker={"brace_die": "d6"}, attack={"kind": "brace", "brace": "stand_fast"}),
        "attacker.guard",
        "Stand Fast",
    ),
    "take_hold_on_an_object": (
        _with(make(attacker={"brace_die": "d6"}, attack={"kind": "take_hold"}), targets=[OBJECT]),
        "targets[0].structure",
        "an object",
    ),
    "target_arms_ranged": (make(attack={"kind": "ranged", "target_arms": True}), "attack.target_arms", "melee"),
    "throw_in_melee": (make(attack={"throw": True}), "attack.throw", "ranged"),
    "penalty_negative": (make(attacker={"penalty": -1}), "attacker.penalty", "0 to 20"),
    "forced_face_off_the_die": (make(dice={"attack": [9]}), "dice.attack", "not on a d8"),
    "mighty_blow_on_an_object_without_a_brace_die": (
        _with(make(attack={"mighty_blow": True}), targets=[OBJECT]),
        "attacker.brace_die",
        "Mighty Blow: brace advantage rolls the Brace die",
    ),
}


def _file(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_wsswnn_bad_input_names_the_file_and_field(case: str, tmp_path: Path) -> None:
    """Bad input: one clear InputError naming the file and the field."""
    data, field, words = CASES[case]
    path = _file(tmp_path, data)
    with pytest.raises(InputError) as info:
        load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: {field}: "), message
    assert words in message
    assert "\n" not in message


@pytest.mark.parametrize(
    "case",
    [
        "die_not_d4_to_d12",
        "ranged_negative_spans",
        "jump_without_heights",
        "object_given_guard",
        "mighty_blow_on_an_object_without_a_brace_die",
    ],
)
@pytest.mark.parametrize("command", ["roll", "odds", "simulate"])
def test_wsswnn_bad_input_cli_exits_2_without_traceback(case: str, command: str, tmp_path: Path) -> None:
    """Bad input through the CLI: exit code 2, one line on stderr naming the file and field, no traceback."""
    data, field, _ = CASES[case]
    path = _file(tmp_path, data)
    # A wide terminal, so that rich does not wrap the long temporary path over several lines.
    result = CliRunner().invoke(app, [command, str(path)], env={"COLUMNS": "1000"})
    assert result.exit_code == 2
    err = result.stderr if hasattr(result, "stderr") else result.output
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert f"{path}: {field}: " in lines[0].replace("\n", "")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_wsswnn_mighty_blow_against_an_object_without_a_brace_die_is_one_error_line_naming_the_field() -> None:
    """A Mighty Blow rolls with brace advantage, against an object too: without a Brace die the Python API refuses
    it with one InputError naming `attacker.brace_die` (never `ValueError: no brace die`); with one it rolls."""
    import tohit

    data = _with(make(attack={"mighty_blow": True}), targets=[OBJECT])
    with pytest.raises(InputError) as info:
        tohit.roll(tohit.from_dict(data), seed=1)
    assert info.value.field == "attacker.brace_die" and "\n" not in str(info.value)
    data["attacker"]["brace_die"] = "d6"
    assert tohit.roll(tohit.from_dict(data), seed=1).targets
