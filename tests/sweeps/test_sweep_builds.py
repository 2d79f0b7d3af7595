"""issue 41, item 3: builds as an axis: `--zip` sets several fields together (value k of each at once), and
several files of one kind are one axis named by file, for `sweep` and `compare`."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.sweeps.run import plan, run

GREATSWORD = EXAMPLES / "designer" / "fullplate-greatsword.yaml"
MACE = EXAMPLES / "designer" / "fullplate-mace.yaml"
SWORD = EXAMPLES / "designer" / "sword.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
ZIP = ["--zip", "attacker.weapon.damage=1d12,1d6", "--zip", "attacker.weapon.enhancement=0,2"]
runner = CliRunner()


def test_zip_pairs_the_values_of_several_fields_into_one_axis() -> None:
    """The greatsword (1d12, +0) and the +2 mace (1d6) as one axis of two builds against AC 6 and 3: the mace's
    Enhancement adds 2 to To-Hit (10% more hits) and 2 to damage; the same rows as the mace's own file."""
    planned = plan(GREATSWORD, ["targets[0].ac=6,3"], zips=ZIP[1::2])
    assert planned.grid.columns == ["targets[0].ac", "attacker.weapon.damage, attacker.weapon.enhancement"]
    data = run(planned, workers=1).frame()
    builds = list(data["attacker.weapon.damage, attacker.weapon.enhancement"])
    assert builds == ["1d12, 0", "1d6, 2", "1d12, 0", "1d6, 2"]
    assert list(data["p_hit"]) == [0.6, 0.7, 0.45, 0.55]
    own = run(plan(MACE, ["targets[0].ac=6,3"]), workers=1).frame()
    assert list(data["mean_damage"][1::2]) == list(own["mean_damage"])


def test_zip_lists_of_two_lengths_are_one_error_line() -> None:
    result = runner.invoke(
        app, ["sweep", str(GREATSWORD), "--zip", "attacker.weapon.damage=1d12,1d6,1d8", *ZIP[2:], "--workers", "1"]
    )
    assert result.exit_code == 2
    line = result.output.strip()
    assert "\n" not in line and "--zip" in line and "attacker.weapon.damage has 3" in line, line


def test_a_field_both_zipped_and_varied_is_refused() -> None:
    result = runner.invoke(app, ["sweep", str(GREATSWORD), *ZIP, "--vary", "attacker.weapon.enhancement=0..3"])
    assert result.exit_code == 2 and "varied twice" in result.output


def test_several_files_are_one_axis_named_by_file() -> None:
    """`sweep A B --vary ...`: the outermost axis is `file`, each value a file's name, each point that file's."""
    result = runner.invoke(
        app, ["sweep", str(GREATSWORD), str(MACE), "--vary", "targets[0].ac=6,3", "--workers", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert [(r["file"], r["targets[0].ac"]) for r in rows] == [
        ("fullplate-greatsword.yaml", 6),
        ("fullplate-greatsword.yaml", 3),
        ("fullplate-mace.yaml", 6),
        ("fullplate-mace.yaml", 3),
    ]
    assert [Fraction(r["exact"]["p_hit"]) for r in rows] == [
        Fraction(3, 5),
        Fraction(9, 20),
        Fraction(7, 10),
        Fraction(11, 20),
    ]


def test_a_file_axis_of_an_attack_and_a_fight_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["sweep", str(SWORD), str(DUEL), "--vary", "seed=1,2"])
    assert result.exit_code == 2 and "not both" in result.output and "Traceback" not in result.output


def test_several_files_alone_are_an_axis() -> None:
    result = runner.invoke(app, ["sweep", str(SWORD), str(SWORD.with_name("mace.yaml")), "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert [r["file"] for r in rows] == ["sword.yaml", "mace.yaml"] and rows[0]["mean_damage"] > rows[1]["mean_damage"]
