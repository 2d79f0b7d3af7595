"""`tohit compare A B [--json]`: the same measures of two builds side by side with B - A (sweeps/compare.py):
exact differences as fractions, a 95% interval for a simulated chance and whether it excludes 0. With `--vary`,
`--zip` or several B files, one row per point of the axis for one measure (cli/compare_along.py), simulated on
common random numbers with the paired interval."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from tohit.cli.errors import fail, stoppable
from tohit.cli.sweep import Zips
from tohit.sweeps.limits import DEFAULT_FIGHTS, MAX_SEED
from tohit.sweeps.spec import FORMS


def register(app: typer.Typer) -> None:
    """Add the `compare` command to the CLI."""
    app.command(name="compare")(compare)


def compare(
    a: Annotated[Path, typer.Argument(help="The first build: a scenario or fight file.", show_default=False)],
    bs: Annotated[
        list[Path],
        typer.Argument(
            help="The second build, of the same kind; several B files are an axis, named by file.",
            show_default=False,
        ),
    ],
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            help=f"PATH=SPEC: one row per value, for both files ({FORMS}); A:PATH=SPEC or B:PATH=SPEC for one.",
            show_default=False,
        ),
    ] = None,
    zips: Zips = None,
    measure: Annotated[
        str | None,
        typer.Option("--measure", help="Along an axis: the measure shown and drawn (default: a win, or mean damage)."),
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Along an axis: draw B - A with its 95% band as a PNG.")
    ] = None,
    n: Annotated[
        int | None,
        typer.Option("-n", "--n", min=1, max=100_000_000, help=f"Fights per file (default {DEFAULT_FIGHTS:,})."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed (else A's).")] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Fight files: solve each duel exactly.")] = False,
    method: Annotated[str, typer.Option("--method", help="Fights: table (fast) or direct (dice).")] = "table",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (exact values as fractions).")] = False,
    systems_differ: Annotated[
        bool,
        typer.Option("--systems-differ", help="Compare files of two games (refused otherwise: paired by position)."),
    ] = False,
) -> None:
    """The same measures of two files side by side, with B - A: exact fractions for odds, a 95% interval for a
    simulated win rate (and whether it excludes 0); along an axis with --vary, --zip or several B files (a
    simulation on common random numbers, with the paired interval)."""
    if method not in ("table", "direct"):
        fail(f"--method: must be table or direct, got {method!r}")
    if vary or zips or len(bs) > 1:
        from tohit.cli.compare_along import along

        along(
            a,
            bs,
            vary or [],
            zips or [],
            n=n,
            seed=seed,
            exact=exact,
            method=method,
            as_json=as_json,
            systems_differ=systems_differ,
            measure=measure,
            plot=plot,
        )
        return
    if measure is not None or plot is not None:
        fail(f"{'--measure' if measure is not None else '--plot'}: is for a comparison along an axis (give --vary)")
    b = bs[0]
    from tohit.sweeps.compare import compare as run

    result = stoppable(
        lambda: run(
            a,
            b,
            n=n,
            seed=seed,
            exact=exact,
            method="direct" if method == "direct" else "table",
            systems_differ=systems_differ,
        ),
        "compare",
    )
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2) + "\n")
        return
    from tohit.cli import render
    from tohit.cli.compare_view import simulated_note, views

    console = render.console()
    for table in views(result):
        console.print(table)
    if result.n is not None:
        console.print(simulated_note(result.n, result.seed, None), style="dim")
