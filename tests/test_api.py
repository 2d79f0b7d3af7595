"""The Python API a tool builder uses (issue #2: tool builders get a typed API)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import tohit
from tests.conftest import EXAMPLES


def test_api_load_roll_odds_simulate() -> None:
    attack = tohit.load(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml")
    assert tohit.roll(attack).target("Bandit").row["damage"] == 14
    p_hit = tohit.odds(attack).target("Bandit").probability("result", "hit")
    assert isinstance(p_hit, Fraction) and Fraction(88, 100) < p_hit < Fraction(89, 100)
    sim = tohit.simulate(attack, 20_000, seed=1)
    assert sim.to_json()["targets"][0]["n"] == 20_000
    assert "kaiser" in tohit.list_systems()


def test_api_input_error_names_source_and_field() -> None:
    with pytest.raises(tohit.InputError) as info:
        tohit.from_dict({"system": "kaiser", "attacker": {}}, source="bot-message")
    assert info.value.source == "bot-message" and info.value.field


def test_api_unknown_name() -> None:
    with pytest.raises(AttributeError):
        tohit.nothing  # noqa: B018
