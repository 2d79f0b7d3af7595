"""The command line's state table names a per-item stat by its item, as the web table's cards do: one table shows
several combatants' weapons, so the row (or column) reads "Durability (weapon 1)" (what it counts, in the game's
word, and its number) and each combatant's cell names its own weapon ("7 (traveler's sword)"); a combatant with no
such weapon reads "—". Never "Durability 1" or the state key."""

from __future__ import annotations

from itertools import takewhile
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.cli.fight_views import item_names, state_table
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate

RTW_MAP = EXAMPLES / "fights" / "rtw-map.yaml"


def printed(width: int, tmp_path: Path) -> str:
    played = narrate(load_fight(RTW_MAP), 1)
    fight = played.fight
    with (tmp_path / "out.txt").open("w") as sink:
        console = Console(width=width, record=True, file=sink)
        console.print(state_table(fight.roster, played.final, fight.rules, width, item_names(fight)))
    return console.export_text()


@pytest.mark.parametrize("width", [80, 240])
def test_a_weapons_durability_is_headed_by_its_number_and_named_in_its_cell(width: int, tmp_path: Path) -> None:
    """Both layouts (a row per combatant where it fits, a row per stat where not) read the same words: Link's
    sword (8 Durability, used once: 7 at the end) in his cell, his second slot and Zelda's untracked "—"."""
    text = printed(width, tmp_path)
    assert "Durability (weapon 1)" in text and "Durability (weapon 2)" in text
    if width == 240:
        assert "7 (traveler's sword)" in text
    else:  # a row per stat: Link's cell, folded over the lines of its row, reads the same
        lines = text.splitlines()
        first = next(i for i, line in enumerate(lines) if line.startswith(" Durability (weapon 1)"))
        row = [lines[first], *takewhile(lambda line: line.split("│")[0].strip() == "", lines[first + 1 :])]
        cell = "".join(line.split("│")[1].strip() for line in row if "│" in line)
        assert cell.startswith("7(traveler's sword)"), cell
    assert "Durability 1" not in text and "durability0" not in text and "used" not in text
    assert all(len(line) <= width for line in text.splitlines())


def test_the_fight_command_prints_the_weapons_name() -> None:
    result = CliRunner().invoke(app, ["fight", str(RTW_MAP), "--seed", "1"], env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    assert "Durability (weapon 1)" in result.output and "(traveler's sword)" in result.output


def test_without_item_names_the_cell_is_the_value_alone() -> None:
    """A table given no names (a replayed log, which carries no fight file) still heads the row by the weapon's
    number, and its cells are the values."""
    played = narrate(load_fight(RTW_MAP), 1)
    console = Console(width=240, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(state_table(played.fight.roster, played.final, played.fight.rules, 240))
    text = console.export_text()
    assert "Durability (weapon 1)" in text and "traveler's sword" not in text
