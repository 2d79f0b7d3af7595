"""`fight --exact` sizes its chain up front (issue 20, item 10; issue 21, item 7): after its first second it
estimates the states, outcome rows, time and memory the chain will take, and refuses one over a cap, naming
the estimate and the cap; the time and memory budgets are checked inside the exploration and the solver."""

from __future__ import annotations

import copy

import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.load import fight_from_dict, load_fight

DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"


def test_a_chain_estimated_over_a_cap_is_refused_early_naming_estimate_and_cap() -> None:
    with pytest.raises(InputError) as caught:
        exact_duel(load_fight(DUEL), probe=0.0, max_rows=200_000)
    err = caught.value
    assert err.field == "--exact"
    assert "is estimated at" in err.message and "outcome rows (the cap: 200,000 outcome rows)" in err.message
    assert "states explored" in err.message and "simulate it with -n" in err.message


def test_the_estimate_names_the_state_cap_too() -> None:
    with pytest.raises(InputError, match=r"states \(the cap: 2,000 states\)"):
        exact_duel(load_fight(DUEL), probe=0.0, limit=2_000)


def test_the_memory_budget_is_checked_while_the_chain_grows() -> None:
    with pytest.raises(InputError, match="memory budget of 0 MB"):
        exact_duel(load_fight(DUEL), memory=0, probe=1e9)


def test_a_chain_within_its_caps_is_solved_as_before() -> None:
    data = yaml.safe_load((EXAMPLES / "fights" / "fullplate-skirmish.yaml").read_text())
    data["sides"] = [copy.deepcopy(s) for s in data["sides"]]
    for side in data["sides"]:
        side["combatants"] = side["combatants"][:1]
    result = exact_duel(fight_from_dict(data), probe=0.0)
    assert sum(result.wins) + result.draw + result.beyond == 1


def test_the_kaiser_duel_without_physical_resistance_is_refused_in_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The issue's reproducer: it ran 34 s and 816 MB, then a traceback; now one line, from the estimate."""
    data = yaml.safe_load(DUEL.read_text())
    del data["sides"][1]["combatants"][0]["physical_resistance"]
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(app, ["fight", str(path), "--exact"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "--exact" in lines[0], lines
