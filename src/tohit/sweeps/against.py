"""`tohit solve A --against B`: where a measure of A equals the same measure of B along one axis (a break-even:
"at what cut armour does the long sword stop beating the mace?").

It is `solve` (sweeps/solve.py) with A - B for the measure and 0 for the target: a crossing is a pair of
neighbouring values on either side of A = B (A below B at one, at or above it at the other). The axis applies to
both files unless a `--vary` names one (`A:...`, `B:...`: sweeps/pair.py). Both exact: A - B is a fraction, and
so is each side. Simulated: both sides of a point run on its seed in paired blocks (common random numbers,
sweeps/paired.py), A - B has the paired 95% interval, a point whose interval holds 0 is run again with four
times the fights within the budget (fights of both sides count), and a crossing is certain when neither of its
points straddles 0. An attack on several targets is solved for its first target (named in the answer).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

from tohit.core.errors import InputError, short_repr
from tohit.sweeps.compare import compare_point
from tohit.sweeps.execute import Results
from tohit.sweeps.measure import Task
from tohit.sweeps.pair import Pair
from tohit.sweeps.solve import BUDGET_TIMES, Point, Solver, check

#: What A - B is solved for.
EVEN = Fraction(0)


class AgainstSolver(Solver):
    """A Solver whose measure at a point is A - B, each side measured as `compare` measures it."""

    sides = 2

    def __init__(self, pair: Pair, measure: str, budget: int) -> None:
        super().__init__(pair.b, measure, EVEN, _no_runner, budget)
        self.pair = pair

    def _measure(self, indexes: list[int], n: int) -> None:
        for index in indexes:
            rows = compare_point(self.pair, index, n)
            target, diffs = rows[0]
            d = next((d for d in diffs if d.measure == self.measure), None)
            if d is None or d.a is None or d.b is None:
                where = self.sweep.grid.label(self.sweep.grid.point(index))
                raise InputError(f"A or B has no value of {self.measure!r} at {where}", field="--measure")
            value = self.sweep.grid.point(index).values[0]
            if isinstance(d.a, Fraction) and isinstance(d.b, Fraction):
                point = Point(index, value, d.a - d.b, a=d.a, b=d.b)
            else:
                lo = None if d.hi is None else -d.hi
                hi = None if d.lo is None else -d.lo
                point = Point(index, value, float(d.a) - float(d.b), lo, hi, n, a=float(d.a), b=float(d.b))
                self.solution.fights += 2 * n
            self.solution.target_name = target
            self.solution.points[index] = point


def _no_runner(tasks: list[Task]) -> Results:  # pragma: no cover - AgainstSolver measures its own points
    raise AssertionError("an AgainstSolver measures its points itself")


def check_against(pair: Pair, measure: str) -> None:
    """One axis of numbers (as `solve`), and a measure both sides have."""
    check(pair.b, measure)
    for side, measures in (("A", pair.a.measures), ("B", pair.b.measures)):
        if measure not in measures:
            shown = ", ".join(m for m in measures if not m.endswith(("_lo", "_hi")))
            raise InputError(f"{side} has no measure {short_repr(measure)}; its measures: {shown}", field="--measure")


@contextmanager
def against_solver(pair: Pair, measure: str, *, budget: int | None = None) -> Iterator[AgainstSolver]:
    """An AgainstSolver (this process: bisection runs one point at a time), once the axis and measure check."""
    check_against(pair, measure)
    yield AgainstSolver(pair, measure, budget if budget is not None else pair.n * BUDGET_TIMES)
