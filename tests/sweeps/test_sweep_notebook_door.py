"""issue 41, item 4: the notebook's door: `tohit.solve` and `tohit.compare` (the CLI's functions, its flags as
keywords), `.plot()` on a sweep's table (the curve and the heatmap), short column names, exact-fraction columns
on request, `.wins(name)` on every fight result, and Dask without a false warning in a Jupyter kernel."""

from __future__ import annotations

import json
import pickle
import sys
import types
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

import tohit
from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.engine.fight.exact import ExactResult
from tohit.sweeps import execute
from tohit.sweeps.compare import compare as cli_compare
from tohit.sweeps.frame import Chart, SweepFrame, chart, sweep_frame

DESIGNER = Path(__file__).resolve().parents[2] / "docs" / "designer"
TRIDENT = DESIGNER / "trident-vs-concentration.yaml"
PRACTISED = DESIGNER / "trident-practised-vs-concentration.yaml"
BOW = EXAMPLES / "rtw" / "bow-vs-evasion.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
runner = CliRunner()


# tohit.solve and tohit.compare


def test_solve_in_python_gives_the_commands_answer() -> None:
    """ "`tohit.solve`": the same crossing as `tohit solve --json`, the target as text, number or Fraction."""
    args = ["solve", str(TRIDENT), "--vary", "attacker.accuracy=0..10", "--measure", "p_hit", "--target", "75%"]
    command = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    for target in ("75%", 0.75, Fraction(3, 4), "3/4"):
        solution = tohit.solve(TRIDENT, "attacker.accuracy=0..10", measure="p_hit", target=target)
        assert solution.to_json() == command
    by_mapping = tohit.solve(TRIDENT, {"attacker.accuracy": "0..10"}, measure="p_hit", target="75%")
    assert by_mapping.to_json() == command


def test_solve_in_python_refuses_what_the_command_refuses() -> None:
    with pytest.raises(tohit.InputError, match="is more than 1 \\(100%\\): p_hit is a chance"):
        tohit.solve(TRIDENT, "attacker.accuracy=0..10", measure="p_hit", target=50)
    with pytest.raises(tohit.InputError, match="expected one PATH=SPEC"):
        tohit.solve(TRIDENT, ["attacker.accuracy=0..10"], measure="p_hit", target="75%")  # type: ignore[arg-type]
    with pytest.raises(tohit.InputError, match="budget"):
        tohit.solve(TRIDENT, "attacker.accuracy=0..10", measure="p_hit", target="75%", budget=0)


def test_a_solution_draws_as_a_table_with_fractions_beside_decimals() -> None:
    solution = tohit.solve(TRIDENT, "attacker.accuracy=0..10", measure="p_hit", target="75%")
    data = solution.to_dataframe()
    assert data.loc[data["crossing"], "attacker.accuracy"].tolist() == [1, 2]
    assert data.loc[data["crossing"], "p_hit"].tolist() == [Fraction(13, 18), Fraction(5, 6)]
    page = solution._repr_html_()
    assert "p_hit (Wizzrobe) crosses 75.0% (3/4) along attacker.accuracy between 1 and 2" in page
    assert "<table" in page and "72.2% (13/18)" in page and "83.3% (5/6)" in page
    assert "\n" not in repr(solution) and repr(solution).startswith("<Solution: p_hit (Wizzrobe) crosses")


def test_compare_in_python_gives_the_commands_answer() -> None:
    """ "`tohit.compare`": the command's function, its flags as keywords."""
    mine = tohit.compare(TRIDENT, PRACTISED)
    assert mine.to_json() == cli_compare(TRIDENT, PRACTISED).to_json()
    data = mine.to_dataframe()
    hit = data[data["measure"] == "p_hit"].iloc[0]
    assert (hit["target"], hit["A"], hit["B"], hit["B - A"]) == (
        "Wizzrobe",
        Fraction(5, 6),
        Fraction(35, 36),
        Fraction(5, 36),
    )
    page = mine._repr_html_()
    assert "<table" in page and "+13.9% (+5/36)" in page and "83.3% (5/6)" in page
    with pytest.raises(tohit.InputError, match="two attacks"):
        tohit.compare(TRIDENT, DUEL)


# The sweep's table: .plot(), short names, fractions


def test_plot_draws_the_curve_for_one_field_and_the_heatmap_for_two() -> None:
    """ "`Sweep.plot()` (the heatmap and the curve)": from the table and its record alone."""
    curve = tohit.sweep(BOW, {"targets[0].evasion": "12..14"}, workers=1)
    assert isinstance(curve, SweepFrame)
    drawn = curve.plot()
    assert isinstance(drawn, Chart) and drawn.figure.axes[0].lines and not drawn.figure.axes[0].images
    assert drawn.png().startswith(b"\x89PNG") and drawn._repr_html_().startswith('<img src="data:image/png;base64,')
    grid = tohit.sweep(BOW, {"targets[0].evasion": "12..13", "attacker.accuracy": "1..2"}, workers=1)
    heat = grid.plot("p_hit")
    assert heat.figure.axes[0].images and heat.figure.axes[0].get_ylabel() == "Accuracy (attacker.accuracy)"
    with pytest.raises(tohit.InputError, match="no measure 'p_nothing'"):
        grid.plot("p_nothing")


def test_plot_with_pandas_arguments_is_pandas_plot() -> None:
    data = tohit.sweep(BOW, {"targets[0].evasion": "12..14"}, workers=1)
    axes = data.plot(x="targets[0].evasion", y="p_hit", kind="line")
    assert axes.get_xlabel() == "targets[0].evasion"
    assert data.plot.line(x="targets[0].evasion", y="p_miss").get_xlabel() == "targets[0].evasion"


def test_plot_and_save_from_a_parquet_file_read_back(tmp_path: Path) -> None:
    out = tmp_path / "bow.parquet"
    tohit.sweep(BOW, {"targets[0].evasion": "12..14"}, workers=1, out=out)
    drawn = chart(pd.read_parquet(out))
    drawn.save(tmp_path / "bow.png")
    assert (tmp_path / "bow.png").read_bytes().startswith(b"\x89PNG")
    with pytest.raises(tohit.InputError, match="keeps no record of its sweep"):
        chart(pd.DataFrame({"p_hit": [0.5]}))


def test_a_varied_column_answers_to_the_end_of_its_path() -> None:
    """ "short column aliases (`weapon.damage` where unambiguous)"."""
    data = tohit.sweep(BOW, {"targets[0].evasion": "12..13", "attacker.weapon.attack_power": "5,6"}, workers=1)
    assert data["evasion"].tolist() == data["targets[0].evasion"].tolist() == [12, 12, 13, 13]
    assert data["weapon.attack_power"].tolist() == data["attack_power"].tolist() == [5, 6, 5, 6]
    assert data.column("attack_power") == "attacker.weapon.attack_power"
    assert list(data[["evasion", "p_hit"]].columns) == ["targets[0].evasion", "p_hit"]
    filtered = data[data["evasion"] > 12]
    assert isinstance(filtered, SweepFrame) and filtered.attrs == data.attrs and len(filtered) == 2
    both = sweep_frame(pd.DataFrame({"a.power": [1], "b.power": [2]}))
    with pytest.raises(KeyError, match=r"'power' ends 2 columns \(a.power, b.power\): write one in full"):
        both["power"]
    with pytest.raises(KeyError):
        data["nothing"]


def test_exact_fraction_columns_on_request() -> None:
    """ "exact-fraction columns on request": `fractions=True` puts `m_fraction` beside each exact measure."""
    plain = tohit.sweep(BOW, {"targets[0].evasion": "12..13"}, workers=1)
    assert not any(c.endswith("_fraction") for c in plain.columns)
    data = tohit.sweep(BOW, {"targets[0].evasion": "12..13"}, workers=1, fractions=True)
    columns = list(data.columns)
    assert columns[columns.index("p_hit") + 1] == "p_hit_fraction"
    assert data["p_hit_fraction"].tolist() == [Fraction(13, 18), Fraction(7, 12)]
    assert data["mean_damage_fraction"].tolist()[1] == Fraction(131, 36)
    assert [float(f) for f in data["p_hit_fraction"]] == data["p_hit"].tolist()
    fight = tohit.sweep(DUEL, {"sides[1].combatants[0].target.lp": "6"}, n=20, seed=1, workers=1, fractions=True)
    assert not any(c.endswith("_fraction") for c in fight.columns)  # simulated: nothing exact


# .wins(name) on every fight result


def test_wins_by_name_on_every_fight_result() -> None:
    """ "`.wins(name)` on every result": the exact duel's (a Fraction, and still a list), a simulation's (a
    count), one narrated fight's (1 or 0)."""
    duel = tohit.load_fight(DUEL)
    exact = ExactResult(duel, [Fraction(5, 8), Fraction(1, 4)], Fraction(1, 8), Fraction(0), Fraction(0), None, 9, 8)
    assert exact.wins("Ceil") == exact.wins[0] == exact.wins(0) == Fraction(5, 8)
    assert exact.wins("Bandits") == exact.wins[1] == Fraction(1, 4)
    assert isinstance(exact.wins("Ceil"), Fraction) and list(exact.wins) == [exact.wins[0], exact.wins[1]]
    assert pickle.loads(pickle.dumps(exact.wins))("Ceil") == exact.wins[0]
    one = tohit.fight(duel, seed=1)
    assert one.wins(one.winner_name) == 1 and one.wins("Ceil") + one.wins("Bandits") == 1
    stats = tohit.fight(duel, n=30, seed=1)
    assert stats.wins("Ceil") + stats.wins("Bandits") + stats.draws == 30
    for result in (exact, one, stats):
        with pytest.raises(tohit.InputError, match="the sides are Ceil, Bandits"):
            result.wins("Nobody")


# Dask in Jupyter, without a false warning


@contextmanager
def _fake_cluster(workers: int) -> Iterator[Any]:
    yield f"a LocalCluster of {workers}"


def test_a_notebook_cell_runs_on_dask_without_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "no false warning in Jupyter (Dask when Dask can run)": the path an ipykernel cell takes: its code
    compiled under a temporary file name that is not on disk, run at `<module>` level in `__main__`'s namespace,
    whose module has no `__file__` (so Dask's spawned workers import nothing of it)."""
    monkeypatch.setattr(execute, "local_cluster", _fake_cluster)
    monkeypatch.setattr(execute, "on_client", lambda client: f"Dask on {client}")
    kernel_main = types.ModuleType("__main__")
    monkeypatch.setitem(sys.modules, "__main__", kernel_main)
    cell = compile("with runner(workers=2) as run:\n    chosen = run\n", "/tmp/ipykernel_4242/3381284870.py", "exec")
    kernel_main.__dict__["runner"] = execute.runner
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exec(cell, kernel_main.__dict__)
    assert kernel_main.__dict__["chosen"] == "Dask on a LocalCluster of 2"


def test_a_scripts_top_level_still_falls_back_with_its_warning(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    script = tmp_path / "plain.py"
    script.write_text("with runner(workers=2) as run:\n    chosen = run\n")
    main = types.ModuleType("__main__")
    main.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", main)
    monkeypatch.setattr(execute, "_pool", lambda count: _fake_cluster(count))
    main.__dict__["runner"] = execute.runner
    with pytest.warns(RuntimeWarning, match="top level of plain.py without"):
        exec(compile(script.read_text(), str(script), "exec"), main.__dict__)
    assert main.__dict__["chosen"] == "a LocalCluster of 2"


def test_solve_against_in_python_is_the_commands_break_even() -> None:
    """`tohit.solve(A, vary, measure=, against=B)` answers as `tohit solve A --against B` (issue 41, items 1 and 4):
    the long sword beats the mace until the bandit's cut armour is 4."""
    sword, mace = EXAMPLES / "designer" / "sword.yaml", EXAMPLES / "designer" / "mace.yaml"
    solution = tohit.solve(sword, "targets[0].armor.cut=0..12", measure="mean_damage", against=mace)
    (low, high), *_ = solution.crossings
    assert (low.value, high.value) == (3, 4)
    with pytest.raises(tohit.InputError, match="target"):
        tohit.solve(sword, "targets[0].armor.cut=0..12", measure="mean_damage", target=3, against=mace)


def test_compare_along_an_axis_in_python_is_one_row_per_point() -> None:
    """`tohit.compare(A, B, vary=...)` is `tohit compare A B --vary ...` (issue 41, items 2 and 4): the +2 mace
    against the greatsword, B - A of mean damage 11/20 at AC -4 down to -3/20 at AC 10."""
    greatsword = EXAMPLES / "designer" / "fullplate-greatsword.yaml"
    mace = EXAMPLES / "designer" / "fullplate-mace.yaml"
    along = tohit.compare(greatsword, mace, vary="targets[0].ac=-4..10")
    assert [values[0] for values, _ in along.points] == list(range(-4, 11))
    frame = along.frame()
    damage = frame[frame["measure"] == "mean_damage"]
    assert list(damage["targets[0].ac"]) == list(range(-4, 11))
    assert [Fraction(d).limit_denominator(1000) for d in damage["difference"]] == [
        Fraction(11 - k, 20) for k in range(15)
    ]
