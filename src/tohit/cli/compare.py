"""`tohit compare A B [--json]`: the same measures of two builds side by side with B - A (sweeps/compare.py):
exact differences as fractions, a 95% interval for a simulated chance and whether it excludes 0."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tohit.cli.errors import Terminated, fail, guarded, sigterm_arrived, stopped
from tohit.sweeps.limits import DEFAULT_FIGHTS, MAX_SEED

if TYPE_CHECKING:
    from rich.table import Table as RichTable

    from tohit.sweeps.compare import Comparison, Difference


def register(app: typer.Typer) -> None:
    """Add the `compare` command to the CLI."""
    app.command(name="compare")(compare)


def compare(
    a: Annotated[Path, typer.Argument(help="The first build: a scenario or fight file.", show_default=False)],
    b: Annotated[Path, typer.Argument(help="The second build, of the same kind.", show_default=False)],
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
    simulated win rate (and whether it excludes 0)."""
    if method not in ("table", "direct"):
        fail(f"--method: must be table or direct, got {method!r}")
    from tohit.sweeps.compare import compare as run

    try:
        result = guarded(
            lambda: run(
                a,
                b,
                n=n,
                seed=seed,
                exact=exact,
                method="direct" if method == "direct" else "table",
                systems_differ=systems_differ,
            )
        )
    except KeyboardInterrupt:
        stopped("interrupted (Ctrl-C): compare stopped", 130)
    except Terminated:
        stopped("terminated (SIGTERM): compare stopped", 143)
    except Exception:
        if not sigterm_arrived():
            raise
        stopped("terminated (SIGTERM): compare stopped", 143)
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2) + "\n")
        return
    from tohit.cli import render

    console = render.console()
    for table in views(result):
        console.print(table)
    if result.n is not None:
        console.print(f"simulated: {result.n:,} fights each, seed {result.seed}", style="dim")


#: The longest exact fraction the terminal writes out (a longer one is shown at display precision; --json has it).
LONGEST = 15


def _fraction(value: Fraction, sign: bool = False) -> str:
    """`3/2`, `0`, or with `sign` `+3/2`; empty when too long to read."""
    text = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if len(text) > LONGEST:
        return ""
    return f"+{text}" if sign and value > 0 else text


def _shown(name: str, value: Any) -> str:
    from tohit.cli.sweep_view import cell

    if isinstance(value, Fraction):
        text = _fraction(value)
        if value.denominator == 1 and text:
            return text
        return f"{text} ({cell(name, float(value))})" if text else cell(name, float(value))
    return cell(name, value)


def _difference(d: Difference) -> str:
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
            cells = [d.measure, _shown(d.measure, d.a), _shown(d.measure, d.b), _difference(d)]
            if simulated:
                cells.append("" if d.excludes_zero is None else "yes" if d.excludes_zero else "no")
            table.add_row(*cells)
        tables.append(table)
    return tables
