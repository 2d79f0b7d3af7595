"""`tohit compare A B [--json]`: the same measures of two builds side by side with B - A (sweeps/compare.py):
exact differences as fractions, a 95% interval for a simulated chance and whether it excludes 0. With `--vary`,
`--zip` or several B files, one row per point of the axis for one measure (cli/compare_along.py), simulated on
common random numbers with the paired interval."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tohit.cli.errors import fail, stoppable
from tohit.sweeps.limits import DEFAULT_FIGHTS, MAX_SEED
from tohit.sweeps.spec import FORMS, ZIP_HELP

if TYPE_CHECKING:
    from rich.table import Table as RichTable

    from tohit.sweeps.compare import Comparison, Difference


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
    zips: Annotated[
        list[str] | None,
        typer.Option(
            "--zip", help=f"PATH=SPEC, repeated: fields set together, one axis. {ZIP_HELP}", show_default=False
        ),
    ] = None,
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

    console = render.console()
    for table in views(result):
        console.print(table)
    if result.n is not None:
        console.print(simulated_note(result.n, result.seed, None), style="dim")


def simulated_note(n: int, seed: int | None, blocks: int | None) -> str:
    """How a simulated comparison ran: `--seed` repeats it."""
    paired = f", in {blocks} paired blocks (common random numbers)" if blocks and blocks > 1 else ""
    return f"simulated: {n:,} fights each, seed {seed}{paired}"


#: The longest exact fraction the terminal writes out (a longer one is shown at display precision; --json has it).
LONGEST = 15


def _fraction(value: Fraction, sign: bool = False) -> str:
    """`3/2`, `0`, or with `sign` `+3/2`; empty when too long to read."""
    text = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if len(text) > LONGEST:
        return ""
    return f"+{text}" if sign and value > 0 else text


def shown(name: str, value: Any) -> str:
    """A value of A or B: a short fraction with its decimal, else the decimal."""
    from tohit.cli.sweep_view import cell

    if isinstance(value, Fraction):
        text = _fraction(value)
        if value.denominator == 1 and text:
            return text
        return f"{text} ({cell(name, float(value))})" if text else cell(name, float(value))
    return cell(name, value)


def difference_text(d: Difference) -> str:
    """B - A as the terminal shows it: a short fraction, else a decimal; with its interval when simulated."""
    from tohit.cli.sweep_view import cell, is_chance

    if d.difference is None:
        return "-"
    if isinstance(d.difference, Fraction):
        text = _fraction(d.difference, sign=True)
        if text:
            return text
        shown = float(d.difference)
        return f"{shown:+.2%}" if is_chance(d.measure) else f"{shown:+.4g}"
    shown = 0.0 if abs(d.difference) < 0.0005 else d.difference  # no "-0.0%"
    if d.lo is not None and d.hi is not None:
        if not is_chance(d.measure):
            return f"{shown:+.3g} ({d.lo:+.3g} to {d.hi:+.3g})"
        return f"{shown:+.1%} ({d.lo:+.1%} to {d.hi:+.1%})"
    if is_chance(d.measure):
        return f"{shown:+.1%}"
    return f"{d.difference:+.4g}" if d.difference else cell(d.measure, 0)


def views(result: Comparison) -> list[RichTable]:
    """One table per target (an attack) or one (a fight): measure, A, B, B - A."""
    from rich.table import Table as RichTable

    tables = []
    simulated = result.method == "simulated"
    for target, diffs in result.rows:
        title = f"A: {Path(result.a).name}, B: {Path(result.b).name}" + (f"; target {target}" if target else "")
        table = RichTable(show_edge=False, title=title)
        for column in ("measure", "A", "B", "B - A (95% CI)" if simulated else "B - A (exact)"):
            table.add_column(column, no_wrap=True)
        if simulated:
            table.add_column("excludes 0", no_wrap=True)
        for d in diffs:
            cells = [d.measure, shown(d.measure, d.a), shown(d.measure, d.b), difference_text(d)]
            if simulated:
                cells.append("" if d.excludes_zero is None else "yes" if d.excludes_zero else "no")
            table.add_row(*cells)
        tables.append(table)
    return tables
