"""Bad fight files (issue 8, Bad input): one clear line naming the file and the field, exit code 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import duel, kaiser_combatant, kaiser_fight, load
from tohit.cli.app import app
from tohit.core.errors import InputError


def library_fight() -> dict[str, Any]:
    data = duel()
    data["attacks"] = {"sword": {"attack": {"range": "hand_to_hand"}}}
    data["sides"][0]["combatants"][0]["attacks"] = ["sword"]
    return data


def bad(data: dict[str, Any]) -> str:
    with pytest.raises(InputError) as err:
        load(data)
    return str(err.value)


def run_cli(tmp_path: Path, data: dict[str, Any], *args: str) -> Any:
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(data))
    return CliRunner().invoke(app, ["fight", str(path), *args])


CASES: list[tuple[str, Any, str]] = []


def _case(name: str, field: str):  # type: ignore[no-untyped-def]
    def wrap(fn):  # type: ignore[no-untyped-def]
        CASES.append((name, fn, field))
        return fn

    return wrap


@_case("an attack that does not exist", "sides[0].combatants[0].attacks[1]")
def _unknown_attack() -> dict[str, Any]:
    data = library_fight()
    data["sides"][0]["combatants"][0]["attacks"].append("axe")
    return data


@_case("a target that does not exist", "sides[0].combatants[0].focus")
def _unknown_target() -> dict[str, Any]:
    data = duel()
    data["sides"][0]["combatants"][0]["focus"] = "Nobody"
    return data


@_case("a focus on an ally", "sides[0].combatants[0].focus")
def _ally_target() -> dict[str, Any]:
    return kaiser_fight([kaiser_combatant("A", focus="A2"), kaiser_combatant("A2")], [kaiser_combatant("B")])


@_case("a side with no combatants", "sides[1].combatants")
def _empty_side() -> dict[str, Any]:
    data = duel()
    data["sides"][1]["combatants"] = []
    return data


@_case("a policy name unknown", "sides[0].policy")
def _bad_policy() -> dict[str, Any]:
    data = duel()
    data["sides"][0]["policy"] = "cleverest"
    return data


@_case("a combatant's policy unknown", "sides[1].combatants[0].policy")
def _bad_comb_policy() -> dict[str, Any]:
    data = duel()
    data["sides"][1]["combatants"][0]["policy"] = "coward"
    return data


@_case("one side only", "sides")
def _one_side() -> dict[str, Any]:
    data = duel()
    data["sides"] = data["sides"][:1]
    return data


@_case("a name used twice", "sides[1].combatants[0].name")
def _twice() -> dict[str, Any]:
    return kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("A")])


@_case("a stat out of range", "sides[0].combatants[0].target.lp")
def _bad_stat() -> dict[str, Any]:
    return kaiser_fight([kaiser_combatant("A", target={"lp": -3})], [kaiser_combatant("B")])


@_case("an AP cost above 6", "sides[0].combatants[0].attacks[0].ap_cost")
def _bad_cost() -> dict[str, Any]:
    data = duel()
    data["sides"][0]["combatants"][0]["attacks"][0]["ap_cost"] = 7
    return data


@_case("an unknown field", "sides[0].combatants[0].hp")
def _unknown_field() -> dict[str, Any]:
    data = duel()
    data["sides"][0]["combatants"][0]["hp"] = 3
    return data


@_case("no attacks", "sides[0].combatants[0].attacks")
def _no_attacks() -> dict[str, Any]:
    data = duel()
    data["sides"][0]["combatants"][0]["attacks"] = []
    return data


@_case("max_rounds of 0", "max_rounds")
def _zero_rounds() -> dict[str, Any]:
    return {**duel(), "max_rounds": 0}


@pytest.mark.parametrize(("name", "make", "field"), CASES, ids=[c[0] for c in CASES])
def test_fight_bad_input_names_the_file_and_field(name: str, make: Any, field: str, tmp_path: Path) -> None:
    message = bad(make())
    assert message.startswith(f"fight.yaml: {field}: "), message
    result = run_cli(tmp_path, make())
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    out = " ".join(result.output.split())  # the terminal may wrap the one line
    assert out.startswith("error: ") and out.count("error:") == 1
    assert f"{field}:" in out and "fight.yaml" in out and "Traceback" not in out


def test_fight_unknown_system_and_missing_file(tmp_path: Path) -> None:
    result = run_cli(tmp_path, {**duel(), "system": "chess"})
    assert result.exit_code == 2 and "system: unknown system 'chess'" in " ".join(result.output.split())
    result = CliRunner().invoke(app, ["fight", str(tmp_path / "none.yaml")])
    assert result.exit_code == 2 and "no such file" in " ".join(result.output.split())


def test_fight_exact_refusals_exit_2(tmp_path: Path) -> None:
    three = kaiser_fight([kaiser_combatant("A"), kaiser_combatant("A2")], [kaiser_combatant("B")])
    result = run_cli(tmp_path, three, "--exact")
    assert result.exit_code == 2 and "sides: --exact is for a duel" in " ".join(result.output.split())
    result = run_cli(tmp_path, duel(), "--exact", "-n", "10")
    assert result.exit_code == 2
