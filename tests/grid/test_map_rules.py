"""A game's map rules (`System.map_rules()`, `tohit.core.grid.rules.MapRules`): what `tohit map` and
`tohit aim` ask the game for, through the registry (issue 14, "Nothing outside `systems/` names a game")."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.core.grid.rules import MapRules
from tohit.engine import registry
from tohit.engine.aim import map_rules
from tohit.systems.rtw.ranges import MAP_RULES, hard_to_hit_reasons

PILLAR = EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml"


def pillar() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(PILLAR.read_text())
    return data


def test_map_rules_only_a_game_with_a_map_has_them() -> None:
    """Default None ("this game has no map"); Reclaim the Wild's tactical grid gives its map rules."""
    with_maps = {s.id for s in registry.systems().values() if s.map_rules() is not None}
    assert with_maps == {"rtw"}
    assert isinstance(registry.get("rtw").map_rules(), MapRules)
    assert map_rules(pillar()) is MAP_RULES


def test_map_rules_a_game_with_no_map_is_refused_on_system() -> None:
    data = yaml.safe_load((EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text())
    with pytest.raises(InputError, match="system 'kaiser' has no map") as info:
        map_rules(data)
    assert info.value.field == "system"
    with pytest.raises(InputError, match="unknown system 'nope'"):
        map_rules({**data, "system": "nope"})


def test_map_rules_view_places_the_attack_as_the_file_says() -> None:
    placed = MAP_RULES.view(pillar(), place=True)
    assert placed.reach is not None and placed.reach.distinct == ["Bokoblin", "Moblin"]
    data = pillar()
    del data["attack"]["range"]["direction"]
    assert MAP_RULES.view(data, place=True).reach is None  # no placement given: the map alone
    data["attack"]["range"] = {"type": "melee", "target": "Moblin"}  # not adjacent: illegal
    with pytest.raises(InputError) as info:
        MAP_RULES.view(data, place=True)
    assert info.value.field is not None and info.value.field.startswith("attack.range")
    assert MAP_RULES.view(data, place=False).reach is None  # aim places it itself


def test_map_rules_view_without_a_map_or_a_range_mapping_names_the_field() -> None:
    data = pillar()
    with pytest.raises(InputError, match="this scenario has no map") as info:
        MAP_RULES.view({k: v for k, v in data.items() if k != "map"}, place=True)
    assert info.value.field == "map"
    data["attack"]["range"] = "cone"
    with pytest.raises(InputError, match="give the range as a mapping") as info:
        MAP_RULES.view(data, place=True)
    assert info.value.field == "attack.range"


def test_map_rules_aim_condition_cover_makes_hard_to_hit() -> None:
    """Attacking Foes behind Cover (decisions 7): the Moblin behind the pillar is Hard to Hit; the
    Bokoblin in the open keeps its own level. The condition carries the rules' range name and whether the
    attack is aimed at the creature alone."""
    data = pillar()
    view = MAP_RULES.view(data, place=True)
    assert view.reach is not None
    entries = {t["name"]: t for t in data["targets"]}
    placed = view.reach.range
    assert MAP_RULES.aim_condition(data, view, entries["Moblin"], placed, False) == ("hard", False, "cone")
    assert MAP_RULES.aim_condition(data, view, entries["Bokoblin"], placed, True) == ("none", True, "cone")
    plain = MAP_RULES.aim_scenario(data, entries["Moblin"], ("hard", False, "cone"))
    assert plain["attack"]["range"] == "cone" and plain["attack"]["area"] is True
    assert [t["name"] for t in plain["targets"]] == ["Moblin"]
    assert plain["targets"][0]["hard_to_hit"] == "hard" and "dice" not in plain["targets"][0]
    assert "dice" in entries["Moblin"]  # the file's entry is left as it was


def test_map_rules_projectile_with_a_foe_adjacent_makes_every_foe_hard_to_hit() -> None:
    """Attack Ranges, Projectile X: with a foe adjacent to the attacker, every foe is Hard to Hit."""
    data = copy.deepcopy(pillar())
    data["attack"]["range"] = {"type": "projectile", "size": 8, "target": "Bokoblin"}
    assert hard_to_hit_reasons(MAP_RULES.view(data, place=True), "Bokoblin") == []
    data["combatants"][3]["position"] = [0, 2]  # the Moblin steps next to the Lizalfos
    view = MAP_RULES.view(data, place=True)
    assert hard_to_hit_reasons(view, "Bokoblin") == [
        "a foe is adjacent to the attacker: every foe is Hard to Hit for Projectile attacks"
    ]
    assert hard_to_hit_reasons(view, "Keese") == []  # an ally


def test_map_rules_cli_refuses_a_game_with_no_map(tmp_path: Path) -> None:
    for command in ("map", "aim"):
        result = CliRunner().invoke(app, [command, str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml")])
        assert result.exit_code == 2
        assert result.output.strip().splitlines() == [
            f"error: {EXAMPLES / 'kaiser' / 'ceil-vs-bandit.yaml'}: system: system 'kaiser' has no map: map and aim"
            " need a game with a map (rtw)"
        ]
