"""`tohit sweep`: a scenario or fight file across a grid of values (`--vary PATH=SPEC`), each point's measures
in one tidy table (CSV or Parquet), on a Dask cluster (local by default), with a chart of the results.

Every input problem (a path the file does not have, a value the game refuses, named by its point; more points
than the cap) is one `error:` line and exit code 2 before any work starts. Ctrl-C or SIGTERM stops the run
with every finished point written; `--resume` finishes it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tohit.cli.errors import Terminated, fail, guarded, stopped, stopped_by
from tohit.sweeps.limits import DEFAULT_FIGHTS, MAX_POINTS, MAX_POINTS_LIMIT, MAX_SEED
from tohit.sweeps.spec import FORMS, ZIP_HELP

if TYPE_CHECKING:
    from tohit.engine.fight.modes import Method
    from tohit.sweeps.run import Sweep
    from tohit.sweeps.table import Table


#: `--zip PATH=SPEC`, repeated: one axis of several fields (`sweep` and `compare` take it).
Zips = Annotated[
    list[str] | None,
    typer.Option(
        "--zip",
        help=f"PATH=SPEC, repeated: fields set together, value k of each at once (a build): one axis. {ZIP_HELP}",
        show_default=False,
    ),
]


def register(app: typer.Typer) -> None:
    """Add the `sweep` command to the CLI."""
    app.command(name="sweep")(sweep)


def sweep(
    files: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Scenario or fight file (YAML or JSON); several files of one kind are one axis, named by file.",
            show_default=False,
        ),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            help="PATH=SPEC: a field (targets[0].evasion, sides[1].combatants[0].target.lp, or count:<combatant>)"
            f" and its values: {FORMS}. Repeat for a grid.",
            show_default=False,
        ),
    ] = None,
    zips: Zips = None,
    n: Annotated[
        int | None,
        typer.Option(
            "-n", "--n", min=1, max=100_000_000, help=f"Fights per point (fight files; default {DEFAULT_FIGHTS:,})."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the sweep (else the file's).")
    ] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Fight files: solve each duel exactly.")] = False,
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=1, max=64, help="Local worker processes (default: one per core; 1: this one)."),
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Run on an existing Dask cluster, e.g. tcp://host:8786.")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the table: results.csv or results.parquet.")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a chart of the table as a PNG.")] = None,
    measure: Annotated[
        str | None,
        typer.Option(
            "--measure",
            help="The measure shown first and drawn by --plot (default: the first side's win, or mean damage):"
            " p_hit, p_critical, win_<side>, survives_<combatant>, dealt_<combatant>...",
        ),
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Finish the table in --out (its points are kept).")] = False,
    max_points: Annotated[
        int, typer.Option("--max-points", min=1, max=MAX_POINTS_LIMIT, help="The cap on points.")
    ] = MAX_POINTS,
    method: Annotated[str, typer.Option("--method", help="Fights: table (fast) or direct (dice).")] = "table",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (attacks: with exact fractions).")] = False,
    remake: Annotated[
        Path | None,
        typer.Option(
            "--remake",
            help="Run the sweep that made this table again, from its own record (input, --vary, -n, --seed...);"
            " give no FILE; --out writes the new table.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """A grid of points (every combination of the --vary values), each measured: an attack's exact odds, or a
    fight's win rates (95% CIs), rounds and survivors; as a table, a file and a chart."""
    if method not in ("table", "direct"):
        fail(f"--method: must be table or direct, got {method!r}")
    if workers is not None and scheduler is not None:
        fail("--workers and --scheduler: choose one (the cluster's workers run a --scheduler sweep)")
    if plot is not None and plot.suffix.lower() != ".png":
        fail(f"--plot: the plot is written as PNG: give a file name ending in .png, not {plot}")
    if remake is not None:
        given: dict[str, object] = {"FILE": files or None, "--vary": vary, "--zip": zips or None, "-n": n}
        given.update({"--seed": seed, "--measure": measure, "--exact": exact or None, "--resume": resume or None})
        given["--method"] = method != "table" or None
        named = [option for option, value in given.items() if value is not None]
        if named:
            fail(f"--remake: {remake} records {', '.join(named)}: give only --out, --plot, --workers or --json")
        planned = _remade(remake, out, quiet=as_json)
        title = Path(planned.grid.source).name
    elif not files:
        fail("give FILE and --vary PATH=SPEC (or --remake TABLE to run a table's sweep again)")
    else:
        from tohit.sweeps.run import plan

        given_files, title = files, files[0].name
        chosen: Method = "direct" if method == "direct" else "table"
        planned = guarded(
            lambda: plan(
                given_files,
                vary or [],
                zips=zips or [],
                n=n,
                seed=seed,
                exact=exact,
                method=chosen,
                out=out,
                resume=resume,
                max_points=max_points,
                measure=measure,
            )
        )
    table = _run(planned, workers=workers, scheduler=scheduler, quiet=as_json)
    try:  # a signal now stops the answer (the chart, the console's table), not the points: they are written
        _answer(planned, table, plot=plot, out=out, as_json=as_json, title=title)
    except (KeyboardInterrupt, Terminated, Exception) as exc:
        how = stopped_by(exc)
        if how is None:
            raise
        stopped(_stop_text(how.words, planned, table), how.code)


def _answer(planned: Sweep, table: Table, *, plot: Path | None, out: Path | None, as_json: bool, title: str) -> None:
    """The sweep's answer: its chart (`--plot`), then its JSON (`--json`) or its table on the console, and what it
    wrote."""
    from tohit.cli import render
    from tohit.cli.plot import write_png

    data = table.frame()
    if plot is not None:
        from tohit.sweeps.plot import sweep_plot

        def draw(path: Path) -> None:
            grid = planned.grid
            sweep_plot(data, list(grid.varies), grid.document, grid.kind, path, measure=planned.measure, title=title)

        guarded(lambda: write_png(plot, "--plot", draw))
    if as_json:
        _print_json(_json(planned, table))
        return
    from tohit.cli.sweep_view import view
    from tohit.sweeps.plot import default_measure

    console = render.console()
    chosen = planned.measure or default_measure(data, planned.grid.kind)
    console.print(view(data, planned.grid.columns, chosen, console.width))
    if out is not None:
        console.print(f"wrote {planned.grid.size:,} points to {out}", style="dim")
    if plot is not None:
        console.print(f"wrote {plot}", style="dim")


def _remade(table: Path, out: Path | None, *, quiet: bool) -> Sweep:
    """The sweep that made `table`, from its record; what differs from then (the engine, numpy, Python) said on
    stderr before it runs."""
    from tohit.sweeps.provenance import versions
    from tohit.sweeps.remake import differences, remake

    planned, then = guarded(lambda: remake(table, out=out))
    changed = differences(then, versions())
    if changed and not quiet:
        sys.stderr.write(f"note: {table} was made with {'; '.join(changed)}: the rows may differ\n")
    return planned


def _run(planned: Sweep, *, workers: int | None, scheduler: str | None, quiet: bool) -> Table:
    from tohit.cli import render
    from tohit.sweeps.run import run
    from tohit.sweeps.table import Table

    table = Table(planned.out, planned.made_by)
    with render.delayed_progress("sweeping", "points", planned.todo, after=0.0, quiet=quiet) as advance:
        try:
            return guarded(lambda: run(planned, workers=workers, scheduler=scheduler, progress=advance, table=table))
        except (KeyboardInterrupt, Terminated, Exception) as exc:
            how = stopped_by(exc)
            if how is None:
                raise
            stopped(_stop_text(how.words, planned, table), how.code)


def _stop_text(what: str, planned: Sweep, table: Table) -> str:
    """The one line a signal leaves: how many points the output holds. They are counted from the table the run
    wrote, not from the progress bar (a point is in the table, and its file, before the bar hears of it): with
    --out, the points its last finished write put in the file (a write the signal cut short left the file as it
    was); without, the points finished."""
    finished = len(set(planned.done) | set(table.rows))
    if finished == 0:  # no point finished: no file was written
        return f"{what}: stopped before the first of {planned.grid.size:,} points finished; nothing written"
    if planned.out is None:
        return f"{what}: stopped after {finished:,} of {planned.grid.size:,} points (give --out to keep them)"
    done = len(set(planned.done) | table.on_file)
    if done == 0:
        return (
            f"{what}: stopped after {finished:,} of {planned.grid.size:,} points finished, before the first write;"
            " nothing written"
        )
    if done == planned.grid.size:  # every point ran: the answer (chart, table shown) was cut short, not the run
        return f"{what}: stopped; all {done:,} points written to {planned.out}"
    return (
        f"{what}: stopped; {done:,} of {planned.grid.size:,} points written to {planned.out}"
        " (run again with --resume to finish)"
    )


def _json(planned: Sweep, table: Table) -> dict[str, Any]:
    rows = []
    for index in sorted(table.rows):
        for k, row in enumerate(table.rows[index]):
            exact = table.exact.get(index, [])
            rows.append({**row, **({"exact": exact[k]} if k < len(exact) and exact[k] else {})})
    return {
        "file": planned.grid.source,
        "kind": planned.grid.kind,
        "vary": planned.grid.columns,
        "points": planned.grid.size,
        **({"seed": planned.seed, "n": planned.n} if planned.grid.kind == "fight" and not planned.exact else {}),
        "provenance": planned.made_by,
        "rows": rows,
    }


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=_plain) + "\n")


def _plain(value: Any) -> Any:
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    raise TypeError(f"not JSON: {type(value).__name__}")
