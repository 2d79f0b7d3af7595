"""`tohit new` and `tohit reference` (issue 20, item 11): a starter file per game that loads as it is, and a
field reference per game (`docs/<id>.md`) that is never stale."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from tohit.cli.app import app
from tohit.engine import registry
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.reference import field_reference
from tohit.engine.roll import roll
from tohit.engine.scenario import from_dict

DOCS = Path(__file__).resolve().parents[1] / "docs"
GAMES = sorted(registry.systems())


@pytest.mark.parametrize("game", GAMES)
def test_new_starter_scenario_loads_and_rolls(game: str) -> None:
    text = registry.get(game).starter()
    assert text is not None and text.startswith("#")
    loaded = from_dict(yaml.safe_load(text), source=f"tohit new {game}")
    assert roll(loaded).targets


@pytest.mark.parametrize("game", GAMES)
def test_new_starter_fight_loads(game: str) -> None:
    text = registry.get(game).starter(fight=True)
    assert text is not None and text.startswith("#")
    fight = fight_from_dict(yaml.safe_load(text), source=f"tohit new {game} --fight")
    assert fight.roster.size >= 2


def test_new_writes_a_file_and_never_over_one(tmp_path: Path) -> None:
    out = tmp_path / "mine.yaml"
    first = CliRunner().invoke(app, ["new", "kaiser", "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert out.read_text() == registry.get("kaiser").starter()
    again = CliRunner().invoke(app, ["new", "kaiser", "--out", str(out)])
    assert again.exit_code == 2
    assert "exists already" in again.output


def test_new_unknown_game_is_one_error_line() -> None:
    result = CliRunner().invoke(app, ["new", "chess"])
    assert result.exit_code == 2
    assert "unknown system 'chess'" in result.output


@pytest.mark.parametrize("game", GAMES)
def test_reference_docs_are_not_stale(game: str) -> None:
    """docs/<id>.md is what `tohit reference <id>` prints now (`make docs` writes them again)."""
    assert (DOCS / f"{game}.md").read_text() == field_reference(registry.get(game)), f"run `make docs` ({game})"


@pytest.mark.parametrize("game", GAMES)
def test_reference_names_every_field_of_the_scenario_blocks(game: str) -> None:
    system = registry.get(game)
    text = field_reference(system)
    for model in (system.attacker_model, system.attack_model, system.target_model, system.options_model):
        for name in model.model_fields:
            assert f"`{name}`" in text or f".{name}`" in text, name
