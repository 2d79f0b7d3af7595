"""`tohit solve A --against B --vary PATH=SPEC --measure M`: where M of A equals M of B along the axis
(sweeps/against.py), said with each side's value as a decimal and its fraction beside (a fraction too long to
read is said to be exact; `--json` has it), or as JSON."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from tohit.cli.errors import fail, guarded, stoppable

if TYPE_CHECKING:
    from tohit.sweeps.pair import Pair
    from tohit.sweeps.solve import Point, Solution


def solve_against(
    a: Path,
    b: Path,
    vary: str,
    measure: str,
    *,
    target: str | None,
    n: int | None,
    seed: int | None,
    exact: bool,
    budget: int | None,
    scan: bool,
    method: str,
    as_json: bool,
    elsewhere: bool,
) -> None:
    """Check everything (one line, exit 2), solve in this process, say the answer."""
    if target is not None:
        fail("--target: --against solves for where A equals B; leave --target out")
    if elsewhere:
        fail("--workers/--scheduler: solve --against runs in this process (a point at a time, both files on one seed)")
    from tohit.sweeps.against import against_solver
    from tohit.sweeps.pair import plan_pair

    pair = guarded(
        lambda: plan_pair(a, b, [vary], n=n, seed=seed, exact=exact, method="direct" if method == "direct" else "table")
    )

    def work() -> Solution:
        with against_solver(pair, measure, budget=budget) as s:
            return s.solve(scan)

    solution = stoppable(work, "solve")
    if as_json:
        sys.stdout.write(json.dumps(as_data(solution, pair), indent=2) + "\n")
        return
    for line in said(solution, pair):
        typer.echo(line)


def as_data(solution: Solution, pair: Pair) -> dict[str, Any]:
    """`solve --json` with the two files: `file` (A), `against` (B); each point's `measure` is A - B, with `a`
    and `b` beside."""
    return {**solution.to_json(), "file": pair.a.grid.source, "against": pair.b.grid.source, "target": "A = B"}


def _sides(solution: Solution, point: Point) -> str:
    """`A 11.4815 (310/27), B 9.84259 (1063/108)`; simulated: with A - B's interval and the fights."""
    from tohit.cli.compare_view import difference_text
    from tohit.cli.solve_view import decimal
    from tohit.cli.sweep_view import cell
    from tohit.sweeps.compare import Difference

    m = solution.measure
    assert point.a is not None and point.b is not None
    if isinstance(point.measure, Fraction):
        return f"A {decimal(m, point.a)}, B {decimal(m, point.b)}"
    gap = difference_text(Difference(m, point.a, point.b, point.measure, point.lo, point.hi))
    return f"A {cell(m, point.a)}, B {cell(m, point.b)}, A - B {gap}, {point.n or 0:,} fights each"


def said(solution: Solution, pair: Pair) -> list[str]:
    """The break-even in words: between which values A stops beating B (or starts), or that it never does."""
    from tohit.cli.solve_view import cost_line

    grid = solution.sweep.grid
    field = grid.columns[0]
    about = f" ({solution.target_name})" if solution.target_name else ""
    names = Path(pair.a.grid.source).name, Path(pair.b.grid.source).name
    lines = []
    if not solution.crossings:
        first, last = grid.varies[0].values[0], grid.varies[0].values[-1]
        side = "at or above" if solution.points[0].above(solution.target) else "below"
        lines.append(
            f"{solution.measure}{about} of {names[0]} stays {side} {names[1]}'s for {field} from {first} to {last}"
        )
    for a, b in solution.crossings:
        way = "reaches" if b.above(solution.target) else "falls below"
        lines.append(
            f"{solution.measure}{about} of {names[0]} {way} {names[1]}'s between {field} = {a.value} and {b.value}"
        )
        lines.append(f"  {field} = {a.value}: {_sides(solution, a)}")
        lines.append(f"  {field} = {b.value}: {_sides(solution, b)}")
        if solution.method == "simulated" and not solution.certain((a, b)):
            lines.append("  not certain: a 95% interval of A - B still holds 0 (raise --budget or -n)")
    lines.append(cost_line(solution))
    return lines
