"""The `tohit` command line: systems, roll, odds, simulate, schema, modifiers; demo, map, aim, fight, replay, sweep.

Every input problem is one line on stderr naming the file and field, exit code 2, no traceback; nothing
is written when the input is refused (the one printer: cli/errors.py). The other command modules add
their commands here through their `register(app)` and never import this module. A command imports the
engine (and rich's tables) when it runs: `tohit --help` and a command's help load neither numpy nor
pydantic, and `tohit roll` does not load the simulation or the fight engine.
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tohit import __version__
from tohit.cli import authoring, compare, demo, fight, grid, serve, solve, sweep
from tohit.cli.errors import OneLineErrors, fail, guarded, on_sigint, on_sigterm
from tohit.engine.requests import MAX_ATTACKS, MAX_DEPTH, MAX_SEED, MAX_TIMES, MAX_WORKERS

if TYPE_CHECKING:
    from tohit.engine.scenario import Loaded
    from tohit.engine.simulate import Method

app = typer.Typer(
    cls=OneLineErrors,
    add_completion=False,
    no_args_is_help=True,
    help="tohit: attack rules of five tabletop RPGs, as traced rolls, exact odds and simulation.",
    pretty_exceptions_enable=False,
)
#: Below this many columns, `tohit modifiers` lists each group apart, the description under its id.
NARROW = 110

FileArg = Annotated[Path, typer.Argument(help="Scenario file (YAML or JSON).", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed for the dice not forced.")]
SchedulerOpt = typer.Option(
    "--scheduler",
    help="Run on the Dask cluster at this address (tcp://host:8786), split as --workers W splits it"
    " (W: the cluster's workers unless given).",
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"tohit {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", is_eager=True, callback=_print_version, help="Print the version and exit.")
    ] = False,
) -> None:
    pass


def _load(path: Path) -> Loaded:
    from tohit.engine.scenario import load

    return guarded(lambda: load(path))


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


@app.command()
def systems(as_json: JsonOpt = False) -> None:
    """List the rule systems, one line each."""
    from rich.table import Table

    from tohit.cli import render
    from tohit.engine import registry

    found = guarded(registry.systems)
    if as_json:
        _print_json([{"id": s.id, "title": s.title, "summary": s.summary, "page": s.page} for s in found.values()])
        return
    table = Table(show_edge=False)
    table.add_column("id", style="bold")
    table.add_column("game")
    table.add_column("rules")
    for s in found.values():
        table.add_row(s.id, s.title, s.summary)
    render.console().print(table)


@app.command()
def roll(
    file: FileArg,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    times: Annotated[int, typer.Option("--times", min=1, max=MAX_TIMES, help="Roll the attack this many times.")] = 1,
) -> None:
    """Resolve the attack once per target (or --times N), with a trace citing each rule applied."""
    from tohit.engine.roll import roll_many

    loaded = _load(file)
    results = guarded(lambda: roll_many(loaded, times, seed))
    if as_json:
        if times == 1:
            _print_json(results[0].to_json())
        else:
            _print_json(
                {
                    "system": loaded.system.id,
                    "seed": results[0].seed,
                    "times": times,
                    "rolls": [r.to_json() for r in results],
                }
            )
        return
    from tohit.cli import render

    console = render.console()
    for i, result in enumerate(results):
        if times > 1:
            console.print(f"[bold]roll {i + 1} of {times}[/]")
        console.print(render.roll_view(result))


@app.command()
def odds(
    file: FileArg,
    as_json: JsonOpt = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write the damage distribution as a PNG.")] = None,
    depth: Annotated[int | None, typer.Option("--depth", min=0, max=MAX_DEPTH, help="Open-roll depth.")] = None,
    log: Annotated[bool, typer.Option("--log", help="--plot: probabilities on a log scale.")] = False,
) -> None:
    """Exact probability of every outcome, per target, and the full damage distribution."""
    from tohit.cli import render
    from tohit.engine.odds import odds as exact_odds

    loaded = _load(file)
    count = len(loaded.scenario.targets)
    with render.delayed_progress("exact odds", "targets", count, after=1.0, quiet=as_json) as advance:
        result = guarded(lambda: exact_odds(loaded, depth, progress=advance))
    if plot is not None:
        from tohit.cli.plot import damage_plot, write_png

        guarded(lambda: write_png(plot, "--plot", lambda path: damage_plot(result, path, log=log)))
    if as_json:
        _print_json(result.to_json())
    else:
        render.console().print(render.odds_view(result))
        if plot is not None:
            render.console().print(f"wrote {plot}")


@app.command()
def simulate(
    file: FileArg,
    n: Annotated[int, typer.Option("-n", "--n", min=1, max=MAX_ATTACKS, help="Attacks per target.")] = 100_000,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    method: Annotated[str, typer.Option("--method", help="table (fast) or direct (dice through resolve).")] = "table",
    workers: Annotated[int, typer.Option("--workers", min=1, max=MAX_WORKERS, help="Processes to share the work.")] = 1,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write the frequencies (95% CIs) and damage as a PNG.")
    ] = None,
    scheduler: Annotated[str | None, SchedulerOpt] = None,
) -> None:
    """Monte Carlo: N independent attacks per target, with 95% confidence intervals."""
    from tohit.cli import render
    from tohit.engine.simulate import simulate as run_simulation

    if method not in ("table", "direct"):
        fail(f"--method: must be table or direct, got {method!r}")
    chosen: Method = "table" if method == "table" else "direct"
    loaded = _load(file)
    total = n * len(loaded.scenario.targets)
    with render.delayed_progress("simulating", "", total, after=1.0, quiet=as_json) as advance:
        if scheduler is not None:
            from tohit.core.loader import read_document
            from tohit.sweeps.cluster import simulate_on

            document = guarded(lambda: read_document(file))
            result = guarded(
                lambda: simulate_on(
                    scheduler,
                    document,
                    str(file),
                    n,
                    seed,
                    method=chosen,
                    workers=workers if workers > 1 else None,
                    progress=advance,
                )
            )
        else:
            result = guarded(lambda: run_simulation(loaded, n, seed, method=chosen, progress=advance, workers=workers))
    if plot is not None:
        from tohit.cli.plot import simulation_plot, write_png

        guarded(lambda: write_png(plot, "--plot", lambda path: simulation_plot(result.to_json(), path)))
        if not as_json:
            render.console().print(f"wrote {plot}")
    if as_json:
        _print_json(result.to_json())
    else:
        render.console().print(render.sim_view(result))


@app.command()
def schema(
    system: Annotated[str, typer.Argument(help="System id.")],
    fight_file: Annotated[bool, typer.Option("--fight", help="The schema of its fight files instead.")] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            help="The schema of a command's --json output instead: roll, odds, simulate, fight, fights (fight -n),"
            " exact (fight --exact) or replay.",
        ),
    ] = None,
) -> None:
    """Print the JSON Schema (2020-12) of a system's scenario files, with --fight of its fight files, or with
    --output KIND of what a command prints with --json."""
    from tohit.engine import registry

    found = guarded(lambda: registry.get(system))
    if output is not None:
        from tohit.engine.output_schemas import KINDS, output_schema

        if output not in KINDS:
            fail(f"--output: one of {', '.join(KINDS)}, not {output!r}")
        _print_json(output_schema(found, output))
        return
    if not fight_file:
        _print_json(found.scenario_schema())
        return
    from tohit.core.fight.contract import rules_for
    from tohit.core.fight.spec import fight_schema

    _print_json(guarded(lambda: fight_schema(found, rules_for(found))))


@app.command()
def modifiers(system: Annotated[str, typer.Argument(help="System id.")], as_json: JsonOpt = False) -> None:
    """List a system's named modifier rows (ids to use in scenario files)."""
    from rich.table import Table

    from tohit.cli import render
    from tohit.engine import registry

    found = guarded(lambda: registry.get(system))
    rows = found.modifiers()
    if not rows:
        fail(f"system {system!r} has no table of named modifiers")
    scaled = any(row.scale for row in rows)
    if as_json:
        _print_json([{k: v for k, v in row.__dict__.items() if k != "scale" or scaled} for row in rows])
        return
    out = render.console()
    if out.width >= NARROW:
        table = Table(show_edge=False)
        table.add_column("id", no_wrap=True, overflow="fold", style="bold")
        for col in ("group", *(("scale",) if scaled else ()), "modifier", "description"):
            table.add_column(col)
        for row in rows:
            table.add_row(row.id, row.group, *((row.scale,) if scaled else ()), row.modifier, row.description)
        out.print(table)
        return
    # A narrow terminal: a heading per group, the description under each id (no column squeezed to a word).
    for group in dict.fromkeys(row.group for row in rows):
        table = Table(show_edge=False, title=group, title_justify="left", title_style="bold")
        table.add_column("id / description", overflow="fold")
        table.add_column("modifier", justify="right", no_wrap=True)
        for row in (r for r in rows if r.group == group):
            scale = f"  ({row.scale})" if scaled and row.scale else ""
            table.add_row(f"[bold]{row.id}[/]{scale}\n  {row.description}", row.modifier)
        out.print(table)


demo.register(app)  # demo: cli/demo.py
grid.register(app)  # map and aim: cli/grid.py
fight.register(app)  # fight and replay: cli/fight.py
authoring.register(app)  # new and reference: cli/authoring.py
serve.register(app)  # serve and db upgrade: cli/serve.py
sweep.register(app)  # sweep: cli/sweep.py
solve.register(app)  # solve: cli/solve.py
compare.register(app)  # compare: cli/compare.py


def main() -> None:
    """Console-script entry point (SIGTERM stops a command as Ctrl-C does: workers ended, nothing half-written).
    Ctrl-C keeps Python's meaning, noted as it arrives (`on_sigint`); a process started with it ignored (`nohup`,
    a background job) keeps ignoring it."""
    signal.signal(signal.SIGTERM, on_sigterm)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, on_sigint)
    app()
