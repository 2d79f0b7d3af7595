"""issue 31: a designer's questions: provenance and `--resume`, every measure checked before any work, paths by
name, exact rows that say so, the terminal table. (One worker, small n: these run in this process.)"""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import tohit
from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.cli.sweep_view import cell, view
from tohit.core.loader import read_document
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.run import simulate_fights
from tohit.engine.odds import odds
from tohit.sweeps.measure import point_seed
from tohit.sweeps.plot import how_measured, measure_label
from tohit.sweeps.run import plan, run

BOW = EXAMPLES / "rtw" / "bow-vs-evasion.yaml"
BANDITS = EXAMPLES / "fights" / "kaiser-party-vs-bandits.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
runner = CliRunner()


def one_error(args: list[str]) -> str:
    result = runner.invoke(app, args, prog_name="tohit")
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.stderr, result.stderr
    return lines[0]


# Provenance


def test_every_table_records_what_produced_it(tmp_path: Path) -> None:
    """ "Provenance": the input's SHA-256, the settings and the engine's version, in Parquet as the key-value
    metadata key `tohit`, for CSV in `OUT.meta.json`, in the DataFrame as `df.attrs["tohit"]`."""
    vary = ["count:sides[1].combatants[0]=1..2"]
    made = run(plan(BANDITS, vary, n=20, seed=4, out=tmp_path / "t.parquet", measure="win_Party"), workers=1)
    record = made.frame().attrs["tohit"]
    assert record == json.loads(pq.read_schema(tmp_path / "t.parquet").metadata[b"tohit"])
    assert record["input_sha256"] == __import__("hashlib").sha256(BANDITS.read_bytes()).hexdigest()
    assert record["vary"] == vary and record["n"] == 20 and record["seed"] == "4" and record["exact"] is False
    assert record["measure"] == "win_Party" and record["method"] == "table"
    assert record["engine"] == f"tohit {tohit.__version__}"
    run(plan(BANDITS, vary, n=20, seed=4, out=tmp_path / "t.csv"), workers=1)
    assert json.loads((tmp_path / "t.csv.meta.json").read_text())["input_sha256"] == record["input_sha256"]
    attack = tohit.sweep(BOW, {"targets[0].evasion": "12"}, workers=1)
    assert attack.attrs["tohit"]["n"] is None and attack.attrs["tohit"]["seed"] is None  # no dice rolled


def test_resume_refuses_a_changed_input_naming_it(tmp_path: Path) -> None:
    """Item 1: a bandit's LP changed between the run and `--resume`: refused in one line, nothing mixed."""
    fight = tmp_path / "fight.yaml"
    shutil.copy(BANDITS, fight)
    out = tmp_path / "t.csv"
    args = ["sweep", str(fight), "--vary", "count:Bandit=1..2", "-n", "20", "--seed", "1", "--workers", "1"]
    assert runner.invoke(app, [*args, "--out", str(out)]).exit_code == 0
    before = out.read_bytes()
    fight.write_text(fight.read_text().replace("lp: 25", "lp: 80"))
    line = one_error([*args, "--out", str(out), "--resume"])
    assert f"{fight} has changed since {out} was made (SHA-256" in line
    assert out.read_bytes() == before
    other = tmp_path / "other.yaml"
    shutil.copy(BANDITS, other)  # a copy of the first input under another name: the same input, the same points
    assert runner.invoke(app, ["sweep", str(other), *args[2:], "--out", str(out), "--resume"]).exit_code == 0
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (["-n", "30"], "was run with -n 20, not 30"),
        (["--seed", "2"], "was run with --seed 1, not 2"),
        (["--method", "direct"], "was run with --method 'table', not 'direct'"),
        (["--measure", "win_Bandits"], "was run with --measure win_Party, not win_Bandits"),
    ],
)
def test_resume_refuses_other_settings_naming_them(tmp_path: Path, change: list[str], says: str) -> None:
    out = tmp_path / "t.parquet"
    run(plan(BANDITS, ["count:Bandit=1..2"], n=20, seed=1, out=out, measure="win_Party"), workers=1)
    args = ["sweep", str(BANDITS), "--vary", "count:Bandit=1..2", "--out", str(out), "--resume", "--workers", "1"]
    assert says in one_error([*args, *change])


def test_resume_refuses_a_table_that_records_nothing(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    run(plan(BANDITS, ["count:Bandit=1..2"], n=20, seed=1, out=out), workers=1)
    (tmp_path / "t.csv.meta.json").unlink()
    line = one_error(["sweep", str(BANDITS), "--vary", "count:Bandit=1..2", "--out", str(out), "--resume"])
    assert "records nothing of what made it (no t.csv.meta.json beside it)" in line


# Every measure, checked before any work


def test_attack_rows_have_p_of_every_outcome_field_odds_reports() -> None:
    """ "Every measure": `p_critical`, `p_effect_landed`, a labelled field's `p_falls_<label>`, each the exact
    odds of the file (and as a fraction in --json)."""
    data = tohit.sweep(BOW, {"targets[0].evasion": "13"}, workers=1)
    row = data.iloc[0]
    exact = odds(tohit.load(BOW)).targets[0]
    assert row["p_critical"] == float(exact.probability("critical", True)) == float(Fraction(1, 36))
    assert row["p_effect_landed"] == 0.0 and row["p_falls"] == 0.0 and row["p_falls_perishes"] == 0.0
    reported = [f for f in exact.to_json()["fields"]]
    assert all(f"p_{f}" in data.columns for f in reported)
    result = runner.invoke(app, ["sweep", str(BOW), "--vary", "targets[0].evasion=13", "--workers", "1", "--json"])
    assert json.loads(result.stdout)["rows"][0]["exact"]["p_critical"] == "1/36"


def test_fight_rows_have_each_combatants_survival_and_damage_dealt() -> None:
    data = run(plan(BANDITS, ["count:Bandit=2"], n=40, seed=7), workers=1).frame()
    doc = read_document(BANDITS)
    bandit = doc["sides"][1]["combatants"][0]
    doc["sides"][1]["combatants"] = [bandit, {**bandit, "name": "Bandit 2"}]
    fight = fight_from_dict(doc)
    stats = simulate_fights(fight, 40, point_seed(7, 0))
    row = data.iloc[0]
    for c, name in enumerate(fight.roster.names):
        assert row[f"survives_{name}"] == int(stats.tally.standing[c]) / 40
        assert row[f"dealt_{name}"] == int(stats.tally.dealt[c]) / 40
    assert row["dealt_Ceil"] > 0


def test_a_bad_measure_is_refused_before_any_work(tmp_path: Path) -> None:
    """Item 6: the measure is checked with the plan: one line listing the measures, nothing run or written."""
    out = tmp_path / "never.csv"
    line = one_error(
        ["sweep", str(BOW), "--vary", "targets[0].evasion=0..44", "--out", str(out), "--measure", "p_crit"]
    )
    assert "--measure: no measure 'p_crit' in this sweep; its measures: p_hit, p_miss, p_critical" in line
    assert not out.exists()
    with pytest.raises(tohit.InputError, match="survives_Bandit 2"):
        plan(BANDITS, ["count:Bandit=1..2"], measure="survives_Goblin")
    assert plan(BANDITS, ["count:Bandit=1..2"], measure="dealt_Bandit 2").measure == "dealt_Bandit 2"


# Paths by name


def test_paths_by_name_give_the_table_of_the_index_forms() -> None:
    named = {"sides[Bandits].combatants[Bandit chief].target.lp": "6,12"}
    by_name = tohit.sweep(DUEL, named, exact=True, workers=1)
    by_index = tohit.sweep(DUEL, {"sides[1].combatants[0].target.lp": "6,12"}, exact=True, workers=1)
    assert by_name.columns[1] == "sides[Bandits].combatants[Bandit chief].target.lp"  # the path as given
    pd.testing.assert_frame_equal(by_name.iloc[:, 2:], by_index.iloc[:, 2:])
    counted = plan(BANDITS, ["count:Bandit=3"])
    assert counted.grid.varies[0].steps == ("sides", 1, "combatants", 0) and counted.grid.columns == ["count:Bandit"]


@pytest.mark.parametrize(
    ("vary", "says"),
    [
        ("count:Goblin=1", "no combatant named 'Goblin' \\(the combatants: Ceil, Aldo, Bandit\\)"),
        ("sides[Orcs].name=x", "sides has no item named 'Orcs' \\(it has: Party, Bandits\\)"),
        ("sides[Party].combatants[Bob].target.lp=3", "no item named 'Bob' \\(it has: Ceil, Aldo\\)"),
    ],
)
def test_an_unknown_name_is_an_unknown_path(vary: str, says: str) -> None:
    with pytest.raises(tohit.InputError, match=f"unknown path .*{says}"):
        plan(BANDITS, [vary])


# Exact rows say so; the terminal


def test_rows_say_how_they_were_measured() -> None:
    simulated = run(plan(BANDITS, ["count:Bandit=1"], n=20, seed=1), workers=1).frame()
    exact = tohit.sweep(DUEL, {"sides[1].combatants[0].target.lp": "6"}, exact=True, workers=1)
    attack = tohit.sweep(BOW, {"targets[0].evasion": "13"}, workers=1)
    assert list(simulated["method"]) == ["simulated"] and "win_Party_lo" in simulated.columns
    assert list(exact["method"]) == ["exact"] and list(attack["method"]) == ["exact"]
    assert how_measured(exact) == "exact" and how_measured(attack) == "exact"
    assert how_measured(simulated) == "n = 20 fights per point"
    assert measure_label("win_Ceil", "exact") == "Ceil win (exact)"
    assert measure_label("win_Ceil", "n = 20 fights per point") == "Ceil win (share of 20 fights)"
    assert measure_label("p_hit", "exact") == "P(hit) (exact)"
    assert measure_label("mean_rounds", "n = 20 fights per point") == "mean rounds, n = 20 fights per point"


def test_the_terminal_shows_the_measure_first_at_display_precision() -> None:
    """Item 10: at 80 columns a 2-D sweep's table starts with its measure; bounds print as percentages."""
    from rich.console import Console

    data = run(
        plan(BANDITS, ["sides[Bandits].combatants[Bandit].attacker.offensive_skill=5,9", "count:Bandit=1,4"], n=20),
        workers=1,
    ).frame()
    console = Console(width=80, record=True)
    console.print(view(data, [str(c) for c in data.columns[1:3]], "win_Bandits", 80))
    lines = console.export_text().splitlines()
    header = next(line for line in lines if "win_Bandits" in line)
    assert header.split()[0] == "win_Bandits" and all(len(line) <= 80 for line in lines)
    assert cell("win_Party", 1.0, 0.8388742019887862, 1.0000000000000002) == "100.0% (83.9%-100.0%)"
    assert cell("win_Party", 0.0, 1.0842e-19, 0.16) == "0.0% (0.0%-16.0%)"
    assert cell("mean_rounds", 3.4999999999999996) == "3.5" and cell("draw", None) == "-"
