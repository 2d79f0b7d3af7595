"""issue 41, item 2: `compare A B --vary AXIS`: one row per value with B - A (exact, or with its interval), a PNG
with `--plot`; simulated sides on common random numbers with the paired interval. Item 3 for compare: several
B files are one axis named by file."""

from __future__ import annotations

import json
import math
import statistics
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.sweeps.compare import compare_along
from tohit.sweeps.measure import Task, measure
from tohit.sweeps.pair import plan_pair
from tohit.sweeps.paired import T975, blocks

GREATSWORD = EXAMPLES / "designer" / "fullplate-greatsword.yaml"
MACE = EXAMPLES / "designer" / "fullplate-mace.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
AC = "targets[0].ac=-4..10"
runner = CliRunner()


def _differences(data: dict, measure_name: str) -> list[str]:
    return [
        next(m["difference"] for m in point["rows"][0]["measures"] if m["measure"] == measure_name)
        for point in data["points"]
    ]


def test_one_row_per_value_with_the_exact_difference() -> None:
    """The greatsword (1d12+1, 7.5 a hit) against the +2 mace (1d6+3, 6.5 a hit, 10% more hits) across AC -4 to
    10: the mace ahead by 11/20 of a point of damage at AC -4, level at AC 7, behind by 3/20 at AC 10."""
    result = runner.invoke(app, ["compare", str(GREATSWORD), str(MACE), "--vary", AC, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["vary"] == ["targets[0].ac"] and [p["values"]["targets[0].ac"] for p in data["points"]] == list(
        range(-4, 11)
    )
    diffs = [Fraction(d) for d in _differences(data, "mean_damage")]
    assert diffs == [Fraction(11 - k, 20) for k in range(15)]
    text = runner.invoke(app, ["compare", str(GREATSWORD), str(MACE), "--vary", AC]).stdout
    assert "+11/20" in text and "-3/20" in text and "mean_damage" in text


def test_plot_writes_a_png_of_the_difference(tmp_path: Path) -> None:
    out = tmp_path / "ac.png"
    result = runner.invoke(app, ["compare", str(GREATSWORD), str(MACE), "--vary", AC, "--plot", str(out)])
    assert result.exit_code == 0, result.output
    # the console wraps a long temporary path onto its own line
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"wrote {out}" in " ".join(result.stdout.split())


def test_a_vary_named_for_one_side_leaves_the_other_as_its_file() -> None:
    """`B:targets[0].ac=5..7`: A stays at its file's AC 6; B - A is P(hit) at B's AC less 3/5."""
    result = runner.invoke(
        app, ["compare", str(GREATSWORD), str(GREATSWORD), "--vary", "B:targets[0].ac=5..7", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert _differences(json.loads(result.stdout), "p_hit") == ["-1/20", "0/1", "1/20"]


def test_several_b_files_are_one_axis_named_by_file() -> None:
    result = runner.invoke(app, ["compare", str(GREATSWORD), str(GREATSWORD), str(MACE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [p["values"]["file"] for p in data["points"]] == ["fullplate-greatsword.yaml", "fullplate-mace.yaml"]
    assert _differences(data, "p_hit") == ["0/1", "1/10"]


def test_simulated_points_share_their_dice_and_get_the_paired_interval() -> None:
    """A file against itself on one seed differs by exactly 0 at every point, with an interval of width 0 (two
    independent runs would differ); and each interval is the paired one: the mean of the blocks' differences
    +- t(K-1) x their sd / sqrt(K), recomputed here from the blocks run one by one."""
    axis = ["sides[Bandits].combatants[Bandit chief].target.lp=10"]
    same = compare_along(plan_pair(DUEL, DUEL, axis, n=100, seed=3))
    for _, rows in same.points:
        win = next(d for d in rows[0][1] if d.measure == "win_Ceil")
        assert (win.difference, win.lo, win.hi) == (0, 0, 0)
    weak = plan_pair(DUEL, DUEL, ["B:" + axis[0]], n=100, seed=3)
    result = compare_along(weak)
    win = next(d for d in result.points[0][1][0][1] if d.measure == "win_Ceil")
    task_a, task_b = weak.tasks(0)
    assert isinstance(task_a, Task) and len(blocks(task_a)) == 10
    pairs = zip(blocks(task_a), blocks(task_b), strict=True)
    diffs = [measure(y)[0]["win_Ceil"] - measure(x)[0]["win_Ceil"] for x, y in pairs]
    half = T975[8] * statistics.stdev(diffs) / math.sqrt(10)
    assert win.difference is not None and win.lo is not None and win.hi is not None
    assert math.isclose(win.difference, statistics.fmean(diffs)) and math.isclose(win.hi - win.lo, 2 * half)


def test_measure_and_plot_without_an_axis_are_one_error_line() -> None:
    result = runner.invoke(app, ["compare", str(GREATSWORD), str(MACE), "--measure", "p_hit"])
    assert result.exit_code == 2 and "--measure" in result.output and "--vary" in result.output
    result = runner.invoke(app, ["compare", str(GREATSWORD), str(MACE), "--vary", AC, "--measure", "win_Ceil"])
    assert result.exit_code == 2 and "no measure 'win_Ceil'" in result.output and "Traceback" not in result.output


def test_in_python_the_comparison_is_a_frame_one_row_per_point_and_measure() -> None:
    """`compare_along(plan_pair(...))` is what the CLI wraps; `.frame()` is tidy: values, target, measure, a, b,
    difference, lo, hi."""
    result = compare_along(plan_pair(GREATSWORD, MACE, ["targets[0].ac=6,7"]))
    data = result.frame()
    damage = data[data["measure"] == "mean_damage"]
    assert list(damage["targets[0].ac"]) == [6, 7] and list(damage["difference"]) == [0.05, 0.0]
    assert set(data.columns) == {"targets[0].ac", "target", "measure", "a", "b", "difference", "lo", "hi"}
