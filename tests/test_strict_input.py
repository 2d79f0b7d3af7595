"""Strict input (issue 20, item 3): no true/false for a number and no number for true/false, duplicate side
names refused, an unknown field always named as unknown, with the close name it may stand for."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.scenario import from_dict

CEIL = yaml.safe_load((EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text())
DUEL = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())


def refused(data: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as err:
        from_dict(data, source="x.yaml")
    return err.value


def test_strict_a_bool_is_not_a_number() -> None:
    """`offensive_skill: true` was read as 1."""
    data = copy.deepcopy(CEIL)
    data["attacker"]["offensive_skill"] = True
    err = refused(data)
    assert (err.field, err.message) == ("attacker.offensive_skill", "a number, not true")


def test_strict_a_number_is_not_a_bool() -> None:
    data = copy.deepcopy(CEIL)
    data["options"] = {"open_rolls_and_fumbles": 1}
    err = refused(data)
    assert err.field == "options.open_rolls_and_fumbles" and "true or false" in err.message


def test_strict_bools_in_a_list_or_mapping_of_numbers() -> None:
    data = copy.deepcopy(CEIL)
    data["targets"][0]["armor"] = {"cut": True}
    assert refused(data).field == "targets[0].armor.cut"  # the entry itself is named
    data["targets"][0]["armor"] = {"cut": 2}
    data["targets"][0]["dice"] = {"offense": [5, True]}
    assert refused(data).field == "targets[0].dice.offense[1]"


def test_strict_no_text_for_a_number_nor_for_a_flag() -> None:
    """pydantic would read "5" as 5 and "yes" as true; the loader, as the JSON Schema, refuses both."""
    data = copy.deepcopy(CEIL)
    data["targets"][0]["lp"] = "5"
    err = refused(data)
    assert err.field == "targets[0].lp" and err.message == "an integer, not text ('5')"
    data = copy.deepcopy(CEIL)
    data["options"] = {"open_rolls_and_fumbles": "yes"}
    err = refused(data)
    assert err.field == "options.open_rolls_and_fumbles" and "true or false" in err.message


def test_strict_no_text_for_a_flag_or_a_number() -> None:
    """A Last Odyssey Shell is true or its points [Shells.md]; "yes" is neither, for the loader as for the JSON
    Schema (found by the schema's property test)."""
    data = yaml.safe_load((EXAMPLES / "last-odyssey" / "cleave-two-enemies.yaml").read_text())
    data["targets"][0]["shell"] = "yes"
    err = refused(data)
    assert err.field == "targets[0].shell" and "true, false or a whole number" in err.message
    data["targets"][0]["shell"] = 5
    assert from_dict(data, source="x").scenario.targets[0].shell == 5


def test_strict_a_flag_that_means_one_may_still_be_true() -> None:
    """WSSWNN's `unflinching: true` is the usual amount, 1 [Damage Reduction]: a bool by design."""
    data = yaml.safe_load((EXAMPLES / "wsswnn" / "mighty-blow-club.yaml").read_text())
    assert from_dict(data, source="x").scenario.targets[0].unflinching == 1


def test_strict_a_typo_is_an_unknown_field_with_the_name_it_stands_for() -> None:
    """A typo that replaces a required field is named as unknown, not as the required field missing."""
    data = copy.deepcopy(CEIL)
    data["attacker"]["offensiv_skill"] = data["attacker"].pop("offensive_skill")
    err = refused(data)
    assert err.field == "attacker.offensiv_skill"
    assert err.message == "unknown field; did you mean `offensive_skill`?"


def test_strict_an_unknown_field_far_from_any_name_has_no_suggestion() -> None:
    data = copy.deepcopy(CEIL)
    data["attacker"]["zzz"] = 1
    assert refused(data).message == "unknown field"


def test_strict_two_sides_of_one_name_are_refused() -> None:
    data = copy.deepcopy(DUEL)
    data["sides"][1]["name"] = data["sides"][0]["name"]
    with pytest.raises(InputError) as err:
        fight_from_dict(data, source="fight.yaml")
    assert err.value.field == "sides[1].name" and "used twice" in err.value.message


def test_targets_are_capped_and_the_error_states_the_cap() -> None:
    from tohit.core.models import MAX_TARGETS

    data = copy.deepcopy(CEIL)
    data["targets"] = [{**data["targets"][0], "name": f"T{i}"} for i in range(MAX_TARGETS + 1)]
    err = refused(data)
    assert err.field == "targets" and f"at most {MAX_TARGETS}" in err.message


def test_odds_reports_progress_target_by_target() -> None:
    from tohit.engine.odds import odds

    data = copy.deepcopy(CEIL)
    data["targets"] = [{**data["targets"][0], "name": f"T{i}"} for i in range(3)]
    seen: list[int] = []
    odds(from_dict(data, source="x"), progress=seen.append)
    assert seen == [1, 1, 1]
