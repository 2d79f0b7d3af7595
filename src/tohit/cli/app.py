"""The `tohit` command line: systems, roll, odds, simulate, demo, schema, modifiers.

Every input problem is one line on stderr naming the file and field, exit code 2, no traceback; nothing
is written when the input is refused.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.table import Table

from tohit.cli import render
from tohit.core.errors import TohitError
from tohit.engine import registry
from tohit.engine.odds import odds as exact_odds
from tohit.engine.roll import MAX_TIMES, roll_many
from tohit.engine.scenario import Loaded, load
from tohit.engine.simulate import Method
from tohit.engine.simulate import simulate as run_simulation

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="tohit: attack rules of five tabletop RPGs, as traced rolls, exact odds and simulation.",
    pretty_exceptions_enable=False,
)
T = TypeVar("T")
MAX_SIMULATIONS = 10_000_000_000

FileArg = Annotated[Path, typer.Argument(help="Scenario file (YAML or JSON).", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
SeedOpt = Annotated[int | None, typer.Option("--seed", min=0, help="Seed for the dice not forced.")]


def fail(message: str) -> NoReturn:
    """One plain line on stderr (never wrapped, easy to grep), then exit code 2."""
    sys.stderr.write(f"error: {' '.join(message.split())}\n")
    raise typer.Exit(2)


def guarded(action: Callable[[], T]) -> T:
    """Run `action`, turning input errors into one line and exit code 2."""
    try:
        return action()
    except TohitError as exc:
        fail(str(exc))


def _load(path: Path) -> Loaded:
    return guarded(lambda: load(path))


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


@app.command()
def systems(as_json: JsonOpt = False) -> None:
    """List the rule systems, one line each."""
    found = registry.systems()
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
    depth: Annotated[int | None, typer.Option("--depth", min=0, max=40, help="Open-roll depth.")] = None,
) -> None:
    """Exact probability of every outcome, per target, and the full damage distribution."""
    loaded = _load(file)
    result = guarded(lambda: exact_odds(loaded, depth))
    if plot is not None:
        guarded(lambda: _plot(result, plot))
    if as_json:
        _print_json(result.to_json())
    else:
        render.console().print(render.odds_view(result))
        if plot is not None:
            render.console().print(f"wrote {plot}")


def _plot(result: Any, path: Path) -> None:
    from tohit.cli.output import write_file
    from tohit.cli.plot import damage_plot

    if path.suffix.lower() != ".png":
        raise TohitError(f"the plot is written as PNG: give a file name ending in .png, not {path}", field="--plot")
    write_file(path, lambda temporary: damage_plot(result, temporary), field="--plot")


@app.command()
def simulate(
    file: FileArg,
    n: Annotated[int, typer.Option("-n", "--n", min=1, max=MAX_SIMULATIONS, help="Attacks per target.")] = 100_000,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
    method: Annotated[str, typer.Option("--method", help="table (fast) or direct (dice through resolve).")] = "table",
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Processes to share the work.")] = 1,
) -> None:
    """Monte Carlo: N independent attacks per target, with 95% confidence intervals."""
    if method not in ("table", "direct"):
        fail(f"--method: must be table or direct, got {method!r}")
    chosen: Method = "table" if method == "table" else "direct"
    loaded = _load(file)
    total = n * len(loaded.scenario.targets)
    with render.delayed_progress("simulating", "", total, after=1.0, quiet=as_json) as advance:
        result = guarded(lambda: run_simulation(loaded, n, seed, method=chosen, progress=advance, workers=workers))
    if as_json:
        _print_json(result.to_json())
    else:
        render.console().print(render.sim_view(result))


@app.command()
def schema(system: Annotated[str, typer.Argument(help="System id.")]) -> None:
    """Print the JSON Schema of a system's scenario files."""
    found = guarded(lambda: registry.get(system))
    _print_json(found.scenario_model().model_json_schema())


@app.command()
def modifiers(system: Annotated[str, typer.Argument(help="System id.")], as_json: JsonOpt = False) -> None:
    """List a system's named modifier rows (ids to use in scenario files)."""
    found = guarded(lambda: registry.get(system))
    rows = found.modifiers()
    if not rows:
        fail(f"system {system!r} has no table of named modifiers")
    if as_json:
        _print_json([row.__dict__ for row in rows])
        return
    table = Table(show_edge=False)
    table.add_column("id", no_wrap=True, overflow="fold", style="bold")
    for col in ("group", "modifier", "description"):
        table.add_column(col)
    for row in rows:
        table.add_row(row.id, row.group, row.modifier, row.description)
    render.console().print(table)


@app.command()
def demo(
    examples: Annotated[Path | None, typer.Option("--examples", help="Folder of example scenarios.")] = None,
    n: Annotated[int, typer.Option("-n", min=1, help="Attacks per target in the simulations.")] = 100_000,
) -> None:
    """Run every bundled example through roll, odds and simulate."""
    from tohit.cli.demo import run_demo

    guarded(lambda: run_demo(examples, n))


def _register_grid() -> None:
    from tohit.cli.grid import register

    register(app)


_register_grid()


def _register_fight() -> None:
    from tohit.cli.fight import register  # fight and replay: cli/fight.py

    register(app)


_register_fight()


def main() -> None:
    """Console-script entry point."""
    app()
