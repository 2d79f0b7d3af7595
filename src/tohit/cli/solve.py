"""`tohit solve FILE --vary PATH=SPEC --measure M --target P`: where a measure crosses P along one field's range
(sweeps/solve.py), said as a designer reads it, or as JSON (`--json`); `--against B`: where it equals B's
(cli/solve_against.py). Every input problem is one `error:` line and exit code 2 before any work starts; Ctrl-C
is one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tohit.cli.errors import guarded, stoppable
from tohit.sweeps.limits import DEFAULT_FIGHTS, MAX_SEED
from tohit.sweeps.spec import FORMS

if TYPE_CHECKING:
    from tohit.sweeps.solve import Solution


def register(app: typer.Typer) -> None:
    """Add the `solve` command to the CLI."""
    app.command(name="solve")(solve)


def solve(
    file: Annotated[Path, typer.Argument(help="Scenario or fight file (YAML or JSON).", show_default=False)],
    vary: Annotated[
        str,
        typer.Option(
            "--vary",
            help=f"PATH=SPEC: the field (attacker.accuracy, count:Goblin) and its values, numbers in order: {FORMS}"
            "; a list is searched in the order given. With --against it applies to both files; A:PATH=SPEC or"
            " B:PATH=SPEC to one.",
            show_default=False,
        ),
    ],
    measure: Annotated[
        str, typer.Option("--measure", help="The measure: p_hit, p_critical, win_<side>, mean_damage...")
    ],
    target: Annotated[
        str | None, typer.Option("--target", help="The value it crosses: 0.75, 75% or 3/4 (not with --against).")
    ] = None,
    against: Annotated[
        Path | None,
        typer.Option(
            "--against",
            help="B: where the measure of FILE equals B's (break-even); --vary applies to both, A:PATH=SPEC or"
            " B:PATH=SPEC to one.",
        ),
    ] = None,
    n: Annotated[
        int | None,
        typer.Option(
            "-n", "--n", min=1, max=100_000_000, help=f"Fights per point at first (default {DEFAULT_FIGHTS:,})."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed (else the file's).")] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Fight files: solve each duel exactly.")] = False,
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=1, help="Fights it may run in all, refining straddling points (default 50 x -n)."),
    ] = None,
    scan: Annotated[bool, typer.Option("--scan", help="Evaluate every value (not bisection): every crossing.")] = False,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, max=64, help="Local worker processes (default: this one).")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Run on an existing Dask cluster, e.g. tcp://host:8786.")
    ] = None,
    method: Annotated[str, typer.Option("--method", help="Fights: table (fast) or direct (dice).")] = "table",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (exact measures as fractions).")] = False,
) -> None:
    """Where a measure crosses a target along one field's range (or, with --against B, where it equals B's): the
    neighbouring values on either side of it, exact (fractions) or simulated (95% intervals, refined with more
    fights within a budget)."""
    from tohit.cli.errors import fail

    if method not in ("table", "direct"):
        fail(f"--method: must be table or direct, got {method!r}")
    if workers is not None and scheduler is not None:
        fail("--workers and --scheduler: choose one (the cluster's workers run a --scheduler solve)")
    if against is not None:
        from tohit.cli.solve_against import solve_against

        solve_against(
            file,
            against,
            vary,
            measure,
            target=target,
            n=n,
            seed=seed,
            exact=exact,
            budget=budget,
            scan=scan,
            method=method,
            as_json=as_json,
            elsewhere=workers is not None or scheduler is not None,
        )
        return
    if target is None:
        fail("--target: give the value the measure crosses (0.75, 75% or 3/4), or --against B for a break-even")
    from tohit.sweeps.run import plan
    from tohit.sweeps.solve import check, check_target, parse_target, solver

    given = target
    wanted = guarded(lambda: parse_target(given))
    planned = guarded(
        lambda: plan(
            file,
            [vary],
            n=n,
            seed=seed,
            exact=exact,
            method="direct" if method == "direct" else "table",
            measure=measure,
        )
    )
    guarded(lambda: check(planned, measure))
    guarded(lambda: check_target(measure, wanted, given))

    def work() -> Solution:
        with solver(planned, measure, wanted, budget=budget, workers=workers or 1, scheduler=scheduler) as s:
            return s.solve(scan)

    solution = stoppable(work, "solve")
    if as_json:
        sys.stdout.write(json.dumps(solution.to_json(), indent=2) + "\n")
        return
    from tohit.cli.solve_view import said

    for line in said(solution):
        typer.echo(line)
