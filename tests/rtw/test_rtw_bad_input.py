"""Reclaim the Wild bad input (issue #3): one clear line naming the file and the field, exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import scenario
from tests.rtw.helpers import SWORD, rtw
from tohit.cli.app import app
from tohit.core.errors import InputError

SPELL_WITH_RANGE = rtw(attack={"kind": "spell", "crit_range": 1})

CASES: list[tuple[str, dict[str, Any], str, str]] = [
    # (case, scenario, field named, words in the message)
    ("unknown target condition", rtw(target={"stunned": True}), "targets[0].stunned", "unknown field"),
    ("unknown attacker condition", rtw(attacker={"poisoned": True}), "attacker.poisoned", "unknown field"),
    ("unknown hard-to-hit level", rtw(target={"hard_to_hit": "very"}), "targets[0].hard_to_hit", "'extreme'"),
    ("unknown attack damage type", rtw(attack={"damage_type": "plasma"}), "attack.damage_type[0]", "'plasma'"),
    ("unknown damage type in a list", rtw(attack={"damage_type": ["fire", "acid"]}), "attack.damage_type[1]", "'acid'"),
    (
        "unknown weapon damage type",
        rtw(attacker={"weapon": {**SWORD, "damage_type": "slashing"}}),
        "attacker.weapon.damage_type",
        "'slashing'",
    ),
    (
        "unknown resistance type",
        rtw(target={"resistance": {"wind": 1}}),
        "targets[0].resistance.wind",
        "'blunt'",
    ),
    ("unknown vulnerability", rtw(target={"vulnerable": ["cold"]}), "targets[0].vulnerable[0]", "'cold'"),
    ("unknown immunity", rtw(target={"immune": ["poison"]}), "targets[0].immune[0]", "'poison'"),
    ("multiplier 4", rtw(attack={"damage": {"multiplier": 4}}), "attack.damage.multiplier", "less than or equal to 3"),
    ("multiplier 0", rtw(attack={"damage": {"multiplier": 0}}), "attack.damage.multiplier", "greater than or equal"),
    (
        "multiplier without a trait",
        rtw(attack={"damage": {"trait": "none", "multiplier": 2}}),
        "attack.damage.multiplier",
        "needs a trait",
    ),
    ("spell with a critical range", SPELL_WITH_RANGE, "attack.crit_range", "never becomes a Critical Hit"),
    (
        "technique with a critical range",
        rtw(attack={"kind": "technique", "crit_range": 2}),
        "attack.crit_range",
        "Technique never becomes a Critical Hit",
    ),
    ("negative Accuracy", rtw(attacker={"accuracy": -1}), "attacker.accuracy", "greater than or equal to 0"),
    ("negative Combat", rtw(attacker={"combat": -2}), "attacker.combat", "greater than or equal to 0"),
    ("negative Evasion", rtw(target={"evasion": -1}), "targets[0].evasion", "greater than or equal to 0"),
    ("negative Defense", rtw(target={"defense": -3}), "targets[0].defense", "greater than or equal to 0"),
    ("negative Resistance", rtw(target={"resistance": {"fire": -1}}), "targets[0].resistance.fire", "greater"),
    ("negative Health", rtw(target={"health": -1}), "targets[0].health", "greater than or equal to 0"),
    ("zero Hearts", rtw(target={"hearts": 0}), "targets[0].hearts", "greater than or equal to 1"),
    ("negative cost", rtw(attack={"cost": {"magic": -4}}), "attack.cost.magic", "greater than or equal to 0"),
    (
        "weapon Attack Power below 1",
        rtw(attacker={"weapon": {**SWORD, "attack_power": 0}}),
        "attacker.weapon.attack_power",
        "greater than or equal to 1",
    ),
    (
        "weapon ACC below 1",
        rtw(attacker={"weapon": {**SWORD, "acc": 0}}),
        "attacker.weapon.acc",
        "greater than or equal to 1",
    ),
    (
        "a shattered weapon",
        rtw(attacker={"weapon": {**SWORD, "durability": 0}}),
        "attacker.weapon.durability",
        "greater than or equal to 1",
    ),
    (
        "enchantment rank above 5",
        rtw(attacker={"weapon": {**SWORD, "enchantments": {"critical_hit": 6}}}),
        "attacker.weapon.enchantments.critical_hit",
        "less than or equal to 5",
    ),
    ("unknown attack kind", rtw(attack={"kind": "cantrip"}), "attack.kind", "'basic'"),
    ("unknown attack range", rtw(attack={"range": "aura"}), "attack.range", "'melee'"),
    ("unknown reaction", rtw(target={"reaction": "dodge"}), "targets[0].reaction", "'deflect'"),
    (
        "effect vs Evasion",
        rtw(attack={"effect": {"name": "x", "against": "evasion"}}),
        "attack.effect.against",
        "'concentration'",
    ),
    (
        "a spell named against Vitality",
        rtw(attack={"kind": "spell", "against": "vitality"}),
        "attack.against",
        "hits automatically",
    ),
    (
        "Parry against a Projectile",
        rtw(attack={"range": "projectile"}, target={"reaction": "parry"}),
        "targets[0].reaction",
        "Parry works only against Line, Melee or Sweep",
    ),
    (
        "Reaction while Off-Balance",
        rtw(target={"off_balance": True, "reaction": "deflect"}),
        "targets[0].reaction",
        "Off-Balance creature cannot use Reactions",
    ),
    (
        "Reaction while Helpless",
        rtw(target={"helpless": True, "reaction": "deflect"}),
        "targets[0].reaction",
        "Helpless creature cannot use Reactions",
    ),
    (
        "Reaction against an Intercepted attack",
        rtw(target={"intercepting": True, "reaction": "parry"}),
        "targets[0].reaction",
        "no Reactions are allowed",
    ),
    (
        "Interceptor feat without intercepting",
        rtw(target={"interceptor_feat": True}),
        "targets[0].interceptor_feat",
        "only when this creature is intercepting",
    ),
    (
        "a distraction without a Distracted attacker",
        rtw(target={"distracting": True}),
        "targets[0].distracting",
        "not Distracted",
    ),
    (
        "Vitality missing for an attack vs Vitality",
        rtw(attack={"against": "vitality"}, target={"vitality": None}),
        "targets[0].vitality",
        "To-Hit vs Vitality",
    ),
    (
        "Concentration missing for an effect",
        rtw(attack={"effect": {"name": "x", "against": "concentration"}}, target={"concentration": None}),
        "targets[0].concentration",
        "effect rolls To-Hit vs Concentration",
    ),
    ("forced faces off a d6", rtw(to_hit=[7, 1]), "targets[0].dice.to_hit", "not on a d6"),
    ("an effect die with no effect", rtw(effect=[1, 1]), "targets[0].dice.effect", "unknown dice role"),
]


def _clean(data: dict[str, Any]) -> dict[str, Any]:
    """Drop keys set to None in the helper's overrides (a way to delete a default field)."""
    for target in data["targets"]:
        for key in [k for k, v in target.items() if v is None]:
            del target[key]
    return data


@pytest.mark.parametrize(("case", "data", "field", "words"), CASES, ids=[c[0] for c in CASES])
def test_rtw_bad_input_names_the_field(case: str, data: dict[str, Any], field: str, words: str) -> None:
    """Issue #3, Bad input: the loader refuses it with an InputError naming the field."""
    with pytest.raises(InputError) as caught:
        scenario(_clean(data))
    message = str(caught.value)
    assert caught.value.field == field, message
    assert words in message, message
    assert "\n" not in message


@pytest.mark.parametrize(("case", "data", "field", "words"), CASES, ids=[c[0] for c in CASES])
def test_rtw_bad_input_cli_exits_2_with_one_line(
    case: str, data: dict[str, Any], field: str, words: str, tmp_path: Path
) -> None:
    """Issue #3, Bad input: "one clear line naming the file and field, exit code 2" — for roll, odds, simulate."""
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(_clean(data)), encoding="utf-8")
    for command in (["roll"], ["odds"], ["simulate", "-n", "10"]):
        result = CliRunner().invoke(app, [*command, str(path)])
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith(f"error: {path}: {field}: "), lines[0]
        assert "Traceback" not in result.output
        assert result.stdout == ""
