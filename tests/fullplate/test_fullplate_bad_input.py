"""FullPlate bad input (issue #5): one clear line naming the file and the field, exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.fullplate.helpers import make
from tohit.cli.app import app

BOW = {"damage": "1d8", "kind": "bow_like", "ranges": {"short": 70, "medium": 140, "long": 210}}

CASES: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "unknown_circumstance",
        make(attack={"circumstances": ["target_cover_45"]}),
        "attack.circumstances[0]",
        "unknown circumstance 'target_cover_45'",
    ),
    (
        # Issue 15: cover and light are separate scales and add; an engaged creature's stats start at its AC.
        "engaged_stats_without_ac",
        make(weapon=BOW, target={"engaged_with": [{"name": "orc", "resistance_pct": 50}]}),
        "targets[0].engaged_with[0].resistance_pct",
        "give its ac too",
    ),
    (
        "old_stacking_option",
        make(options={"stacking": "one_per_group"}),
        "options.stacking",
        "unknown field",
    ),
    (
        "unknown_modifier_stacking",
        make(options={"modifier_stacking": "one_per_group"}),
        "options.modifier_stacking",
        "'page' or 'all'",
    ),
    (
        "distance_beyond_extreme_range",
        make(weapon=BOW, attack={"distance": 421}),
        "attack.distance",
        "beyond extreme range",
    ),
    (
        "critical_range_below_2",
        make(weapon={"critical_range": 1}),
        "attacker.weapon.critical_range",
        "greater than or equal to 2",
    ),
    (
        "critical_range_above_20",
        make(weapon={"critical_range": 21}),
        "attacker.weapon.critical_range",
        "less than or equal to 20",
    ),
    ("bad_weapon_dice", make(weapon={"damage": "1d"}), "attacker.weapon.damage", "is not weapon damage dice"),
    ("unknown_game", make(options={"game": "gritty"}), "options.game", "heroic"),
    ("ammunition_for_a_sword", make(attacker={"ammunition": {"enhancement": 1}}), "attacker.ammunition", "bow_like"),
    (
        "ranges_out_of_order",
        make(weapon={**BOW, "ranges": {"short": 70, "medium": 60, "long": 210}}),
        "attacker.weapon.ranges.medium",
        "shorter than short range",
    ),
    (
        "engaged_name_twice",
        make(weapon=BOW, target={"engaged_with": [{"name": "orc"}, {"name": "orc"}]}),
        "targets[0].engaged_with[1].name",
        "used twice",
    ),
    ("unknown_size", make(target={"size": "colossal"}), "targets[0].size", "gargantuan"),
    ("forced_face_off_the_die", make(dice={"to_hit": [21]}), "dice.to_hit", "not on a d20"),
    ("unknown_role", make(dice={"damage_again": [3]}), "dice.damage_again", "unknown dice role"),
]


@pytest.mark.parametrize(("name", "data", "field", "words"), CASES, ids=[c[0] for c in CASES])
def test_fullplate_bad_input_is_one_line_naming_file_and_field(
    name: str, data: dict[str, Any], field: str, words: str, tmp_path: Path
) -> None:
    """The CLI refuses the file with exit code 2 and one line "error: FILE: FIELD: message", no traceback."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    for command in ("roll", "odds", "simulate"):
        result = CliRunner().invoke(app, [command, str(path)], env={"COLUMNS": "400"})
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1, result.output
        assert f"{path}: {field}: " in lines[0]
        assert words in lines[0]
