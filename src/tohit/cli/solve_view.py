"""How `tohit solve` says its answer (cli/solve.py, cli/solve_against.py): each crossing with the values on
either side, exact fractions beside their decimals (a long one said exact, never rounded), and what it cost."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tohit.sweeps.solve import Point, Solution

#: The longest exact fraction written out (a longer one is shown as its decimal; --json has it).
LONGEST = 15


def _value(solution: Solution, point: Point) -> str:
    from tohit.cli.sweep_view import cell

    if isinstance(point.measure, Fraction):
        text = f"{point.measure.numerator}/{point.measure.denominator}"
        if len(text) > LONGEST:  # never a bare long fraction, nor one rounded to "20": its decimal, said exact
            return f"{precise(solution.measure, point.measure)}, exact"
        return f"{text} = {cell(solution.measure, float(point.measure))}"
    shown = cell(solution.measure, point.measure, point.lo, point.hi)
    return f"{shown}, {point.n:,} fights"


def precise(measure: str, value: Fraction | float) -> str:
    """The decimal of a value: a chance as a percentage to 0.01%, another number to 6 significant digits."""
    from tohit.sweeps.measure import is_chance

    return f"{float(value):.2%}" if is_chance(measure) else f"{float(value):.6g}"


def decimal(measure: str, value: Fraction | float) -> str:
    """A value as a decimal (a chance as a percentage), with its fraction beside when it is exact: `11.4815
    (310/27)`, `72.22% (13/18)`; a fraction too long to read: `19.9997 (exact)` (`--json` has it)."""
    shown = precise(measure, value)
    if not isinstance(value, Fraction):
        return shown
    text = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if text == shown:
        return shown
    return f"{shown} ({text})" if len(text) <= LONGEST else f"{shown} (exact)"


def said(solution: Solution) -> list[str]:
    """The answer in words: each crossing, how it was found and what it cost."""
    from tohit.cli.sweep_view import cell, is_chance

    grid = solution.sweep.grid
    field = grid.columns[0]
    goal = cell(solution.measure, float(solution.target)) if is_chance(solution.measure) else str(solution.target)
    about = f" ({solution.target_name})" if solution.target_name else ""
    lines = []
    if not solution.crossings:
        first, last = grid.varies[0].values[0], grid.varies[0].values[-1]
        ends = [solution.points[0], solution.points[grid.size - 1]]
        side = "at or above" if ends[0].above(solution.target) else "below"
        lines.append(f"{solution.measure}{about} stays {side} {goal} for {field} from {first} to {last}")
    for a, b in solution.crossings:
        way = "reaches" if b.above(solution.target) else "falls below"
        lines.append(
            f"{solution.measure}{about} {way} {goal} between {field} = {a.value} ({_value(solution, a)}) "
            f"and {b.value} ({_value(solution, b)})"
        )
        if solution.method == "simulated" and not solution.certain((a, b)):
            lines.append("  not certain: a 95% interval still holds the target (raise --budget or -n)")
    lines.append(cost_line(solution))
    return lines


def cost_line(solution: Solution) -> str:
    """How the crossings were found and what it cost: `exact, bisection: 5 of 13 values evaluated`."""
    how = "bisection" if solution.search == "bisection" else "every value (scan)"
    cost = f"; {solution.fights:,} fights of a budget of {solution.budget:,}" if solution.budget is not None else ""
    return f"{solution.method}, {how}: {len(solution.points)} of {solution.sweep.grid.size} values evaluated{cost}"
