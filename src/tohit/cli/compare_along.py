"""`tohit compare A B --vary PATH=SPEC` (or `--zip`, or several B files): B - A at every point of an axis
(sweeps/compare.py `compare_along`), one row per point for one measure: A, B, B - A (exact, or with its paired
95% interval) and whether the interval excludes 0; `--plot` draws B - A with its band; `--json` has every
measure of every point."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tohit.cli.errors import fail, guarded, stoppable

if TYPE_CHECKING:
    from rich.table import Table as RichTable

    from tohit.sweeps.compare import Along, Difference
    from tohit.sweeps.pair import Pair


def along(
    a: Path,
    bs: list[Path],
    vary: list[str],
    zips: list[str],
    *,
    n: int | None,
    seed: int | None,
    exact: bool,
    method: str,
    as_json: bool,
    systems_differ: bool,
    measure: str | None,
    plot: Path | None,
) -> None:
    """Plan both sides (every problem one line, before any work), compare every point, show or write it."""
    if plot is not None and plot.suffix.lower() != ".png":
        fail(f"--plot: the plot is written as PNG: give a file name ending in .png, not {plot}")
    from tohit.sweeps.compare import compare_along
    from tohit.sweeps.pair import plan_pair

    pair = guarded(
        lambda: plan_pair(
            a,
            bs[0] if len(bs) == 1 else bs,
            vary,
            zips=zips,
            n=n,
            seed=seed,
            exact=exact,
            method="direct" if method == "direct" else "table",
            systems_differ=systems_differ,
        )
    )
    chosen = guarded(lambda: chosen_measure(pair, measure))
    result = stoppable(lambda: compare_along(pair), "compare")
    if plot is not None:
        from tohit.cli.plot import write_png
        from tohit.sweeps.plot import difference_plot

        guarded(lambda: write_png(plot, "--plot", lambda path: difference_plot(result, chosen, path)))
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2) + "\n")
        return
    from tohit.cli import render
    from tohit.cli.compare_view import simulated_note

    console = render.console()
    console.print(view(result, chosen))
    pair = result.pair
    if pair.simulated:
        from tohit.sweeps.paired import block_sizes

        console.print(simulated_note(pair.n, pair.seed, len(block_sizes(pair.n))), style="dim")
    if plot is not None:
        console.print(f"wrote {plot}", style="dim")


def chosen_measure(pair: Pair, measure: str | None) -> str:
    """The measure asked for (checked before any work: one both sides compare), else the first side's win rate for
    a fight, or an attack's mean damage."""
    from tohit.core.errors import InputError
    from tohit.sweeps.compare import NOT_MEASURES

    names = [
        m for m in pair.a.measures if m in pair.b.measures and m not in NOT_MEASURES and not m.endswith(("_lo", "_hi"))
    ]
    if measure is None:
        wins = [m for m in names if m.startswith("win_")]
        return wins[0] if wins and pair.kind == "fight" else "mean_damage"
    if measure not in names:
        raise InputError(f"no measure {measure!r} here; the measures: {', '.join(names)}", field="--measure")
    return measure


def _first(rows: list[tuple[str | None, list[Difference]]], measure: str) -> Difference | None:
    return next((d for d in rows[0][1] if d.measure == measure), None) if rows else None


def view(result: Along, measure: str) -> RichTable:
    """One row per point: its values, A, B, B - A and whether a simulated interval excludes 0."""
    from rich.table import Table as RichTable

    from tohit.cli.compare_view import difference_text, shown

    pair = result.pair
    simulated = pair.simulated
    target = result.points[0][1][0][0] if result.points and result.points[0][1] else None
    title = f"{measure}: A {Path(pair.a.grid.source).name}, B {_b_name(result)}" + (
        f"; target {target}" if target else ""
    )
    heads = ["A", "B", "B - A (95% CI)" if simulated else "B - A (exact)", *(["excludes 0"] if simulated else [])]
    body = []
    for values, rows in result.points:
        d = _first(rows, measure)
        cells = ["-", "-", "-"] if d is None else [shown(measure, d.a), shown(measure, d.b), difference_text(d)]
        if simulated:
            cells.append("" if d is None or d.excludes_zero is None else "yes" if d.excludes_zero else "no")
        body.append(([str(v) for v in values], cells))
    table = RichTable(show_edge=False, title=title)
    for column in result.columns:  # a long path folds; the numbers keep their width
        table.add_column(column, overflow="fold")
    for k, head in enumerate(heads):
        table.add_column(head, no_wrap=True, min_width=max(len(head), *(len(cells[k]) for _, cells in body)))
    for texts, cells in body:
        table.add_row(*texts, *cells)
    return table


def _b_name(result: Along) -> str:
    grid = result.pair.b.grid
    return "by file" if grid.files else Path(grid.source).name
