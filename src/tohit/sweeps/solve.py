"""`tohit solve`: where a measure crosses a target value along one varied field.

A crossing is a pair of neighbouring values of the range on opposite sides of the target P (one with the measure
below P, the other with it at P or above). Exact measures (an attack's odds, a duel solved exactly) are compared
as fractions. A simulated measure (a fight's win rate) carries its 95% interval: a point whose interval holds P
straddles it, and is run again with four times the fights (half the interval) until it does not, or until the
budget (a count of fights, never seconds) is spent; a crossing is certain when neither of its points straddles.

Search: when the measure is on opposite sides of P at the two ends of the range, bisection finds one crossing
evaluating only the points it needs (about log2 of the range), which is every crossing when the measure moves
one way along the range (monotone); otherwise, or with `scan`, every value is evaluated and every crossing
reported. An attack on several targets is solved for its first target (named in the answer).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.engine.frames import Views
from tohit.sweeps.execute import Runner, runner
from tohit.sweeps.run import Sweep
from tohit.sweeps.views import answer_html, display

#: Fights `solve` may run in all, as a multiple of -n, unless told otherwise.
BUDGET_TIMES = 50
#: How much more fights a straddling point is run with each time.
REFINE = 4


def parse_target(text: str) -> Fraction:
    """`75%`, `0.75` or `3/4` -> Fraction(3, 4); any number for a measure that is not a chance (`mean_damage`)."""
    word = text.strip()
    try:
        return Fraction(word[:-1]) / 100 if word.endswith("%") else Fraction(word)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{short_repr(text)} is not a number such as 0.75, 75% or 3/4", field="--target") from None


def check_target(measure: str, target: Fraction, text: str | None = None) -> None:
    """A chance's target is from 0 to 1 (0% to 100%): `--target 50` meant as 50% is refused, never answered as
    "stays below 5000.0%"."""
    from tohit.sweeps.measure import is_chance

    if not is_chance(measure) or 0 <= target <= 1:
        return
    written = short_repr(text.strip()) if text is not None else str(target)
    side = "more than 1 (100%)" if target > 1 else "less than 0"
    percent = text is not None and target > 1 and "%" not in text
    hint = f"; meant {target}%? write {target}% or {float(target / 100):g}" if percent else ""
    raise InputError(
        f"{written} is {side}: {measure} is a chance, from 0 to 1 (0.75, 75% or 3/4){hint}", field="--target"
    )


def exact_value(text: str) -> Fraction:
    """A measure's exact text (`7/12`) back to its Fraction (a fraction too long to write: its decimal)."""
    return Fraction(text.split()[0])


@dataclass
class Point:
    """One value of the range as evaluated: the measure (a Fraction when exact), its interval when simulated,
    and the fights it took."""

    index: int
    value: Any
    measure: Fraction | float
    lo: float | None = None
    hi: float | None = None
    n: int | None = None
    #: `solve --against`: the measure of A and of B here (the point's measure is A - B).
    a: Fraction | float | None = None
    b: Fraction | float | None = None

    def above(self, target: Fraction) -> bool:
        return self.measure >= target

    def straddles(self, target: Fraction) -> bool:
        """Whether the 95% interval holds the target (one of no width, exactly at it, does not: more fights would
        not move it)."""
        return self.lo is not None and self.hi is not None and self.lo <= target <= self.hi and self.lo < self.hi

    def to_json(self, measure: str, target: Fraction) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value}
        if isinstance(self.measure, Fraction):
            out.update(measure=f"{self.measure.numerator}/{self.measure.denominator}", float=float(self.measure))
        else:
            out.update(measure=self.measure, lo=self.lo, hi=self.hi, n=self.n, straddles=self.straddles(target))
        for side in ("a", "b"):
            value = getattr(self, side)
            if isinstance(value, Fraction):
                out[side] = {"measure": f"{value.numerator}/{value.denominator}", "float": float(value)}
            elif value is not None:
                out[side] = {"measure": value}
        return out


@dataclass
class Solution(Views):
    """The crossings found, how they were searched, and what it cost; in a notebook a table of the values
    evaluated (`to_dataframe()`: the field's value, the measure, exact as a Fraction, its interval and fights)."""

    sweep: Sweep
    measure: str
    target: Fraction
    search: str
    points: dict[int, Point] = field(default_factory=dict)
    crossings: list[tuple[Point, Point]] = field(default_factory=list)
    fights: int = 0
    budget: int | None = None
    target_name: str | None = None

    @property
    def method(self) -> str:
        return "simulated" if self.sweep.simulated else "exact"

    def certain(self, pair: tuple[Point, Point]) -> bool:
        return not any(p.straddles(self.target) for p in pair)

    def _frame(self) -> Any:
        import pandas as pd

        field, ends = self.sweep.grid.columns[0], {p.index for pair in self.crossings for p in pair}
        rows = []
        for i in sorted(self.points):
            point = self.points[i]
            row: dict[str, Any] = {field: point.value, self.measure: point.measure}
            if self.sweep.simulated:
                row.update(lo=point.lo, hi=point.hi, fights=point.n)
            rows.append({**row, "crossing": i in ends})
        return pd.DataFrame(rows)

    def _title(self) -> str:
        field, goal = self.sweep.grid.columns[0], display(self.measure, self.target)
        about = f" ({self.target_name})" if self.target_name else ""
        found = [f"between {a.value} and {b.value}" for a, b in self.crossings] or ["nowhere in the range"]
        how = f"{self.method}, {self.search}: {len(self.points)} of {self.sweep.grid.size} values evaluated"
        return f"{self.measure}{about} crosses {goal} along {field} {'; '.join(found)} ({how})"

    def _repr_html_(self) -> str:
        return answer_html(self._title(), self._frame(), [self.measure], lambda row: self.measure)

    def __repr__(self) -> str:
        return f"<Solution: {self._title()}; .to_dataframe()>"

    def to_json(self) -> dict[str, Any]:
        grid = self.sweep.grid
        out: dict[str, Any] = {
            "file": grid.source,
            "vary": grid.columns[0],
            "measure": self.measure,
            "target": f"{self.target.numerator}/{self.target.denominator}",
            "method": self.method,
            "search": self.search,
            "evaluated": len(self.points),
            "points": grid.size,
            "crossings": [
                {
                    "from": a.to_json(self.measure, self.target),
                    "to": b.to_json(self.measure, self.target),
                    **({} if self.method == "exact" else {"certain": self.certain((a, b))}),
                }
                for a, b in self.crossings
            ],
        }
        if self.target_name is not None:
            out["of_target"] = self.target_name
        if self.sweep.simulated:
            out.update(seed=self.sweep.seed, n=self.sweep.n, fights=self.fights, budget=self.budget)
        return out


class Solver:
    """Evaluates points of a one-field sweep on a runner, refining straddling simulated points within the budget."""

    #: Files a point's fights are run for (`solve --against` runs two).
    sides = 1

    def __init__(self, sweep: Sweep, measure: str, target: Fraction, run: Runner, budget: int) -> None:
        self.sweep, self.measure, self.target, self.run = sweep, measure, target, run
        self.solution = Solution(sweep, measure, target, "bisection", budget=budget if sweep.simulated else None)
        self.budget = budget

    def evaluate(self, indexes: list[int]) -> None:
        """Evaluate the points not yet known (all at once, on the runner), then refine those that straddle."""
        todo = [i for i in indexes if i not in self.solution.points]
        self._measure(todo, self.sweep.n)
        if not self.sweep.simulated:
            return
        while True:
            wide = [i for i in indexes if self.solution.points[i].straddles(self.target)]
            more = [(i, (self.solution.points[i].n or 0) * REFINE) for i in wide]
            refined = False
            for i, n in more:  # each within what is left of the budget when its turn comes
                if n * self.sides <= self.budget - self.solution.fights:
                    self._measure([i], n)
                    refined = True
            if not refined:
                return

    def _measure(self, indexes: list[int], n: int) -> None:
        tasks = [dataclasses.replace(self.sweep.task(i), n=n) for i in indexes]
        if not tasks:
            return
        for task, rows in self.run(tasks):
            row = rows[0]
            value = self.sweep.grid.point(task.index).values[0]
            if self.sweep.simulated:
                self.solution.fights += task.n
                point = Point(
                    task.index,
                    value,
                    float(row[self.measure]),
                    row.get(f"{self.measure}_lo"),
                    row.get(f"{self.measure}_hi"),
                    task.n,
                )
            else:
                exact = row.get("exact", {})
                measure = exact_value(exact[self.measure]) if self.measure in exact else Fraction(row[self.measure])
                point = Point(task.index, value, measure)
                self.solution.target_name = row.get("target")
            self.solution.points[task.index] = point

    def solve(self, scan: bool) -> Solution:
        size = self.sweep.grid.size
        points = self.solution.points
        first, last = 0, size - 1
        self.evaluate([first, last])
        if not scan and points[first].above(self.target) != points[last].above(self.target):
            while last - first > 1:
                middle = (first + last) // 2
                self.evaluate([middle])
                if points[middle].above(self.target) == points[first].above(self.target):
                    first = middle
                else:
                    last = middle
            self.solution.crossings = [(points[first], points[last])]
            return self.solution
        self.solution.search = "scan"
        self.evaluate(list(range(size)))
        ordered = [points[i] for i in range(size)]
        self.solution.crossings = [
            (a, b) for a, b in itertools.pairwise(ordered) if a.above(self.target) != b.above(self.target)
        ]
        return self.solution


def check(sweep: Sweep, measure: str) -> None:
    """One varied field of numbers, in order; a measure that has a value per point."""
    grid = sweep.grid
    if len(grid.varies) != 1:
        raise InputError(f"solve varies one field, not {len(grid.varies)}", field="--vary")
    values = grid.varies[0].values
    if len(values) < 2:
        raise InputError("solve needs a range of at least two values, e.g. attacker.accuracy=0..12", field="--vary")
    if any(isinstance(v, (bool, str)) for v in values):
        raise InputError("solve varies a number along a range (A..B or A..B:STEP)", field="--vary")
    if measure.endswith(("_lo", "_hi")) or measure in ("point", "seed", "n"):
        raise InputError(f"{short_repr(measure)} is not a measure solve can cross", field="--measure")


@contextmanager
def solver(
    sweep: Sweep,
    measure: str,
    target: Fraction,
    *,
    budget: int | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    client: Any = None,
) -> Iterator[Solver]:
    """A Solver on the runner these options give (this process by default: bisection runs one point at a time)."""
    check(sweep, measure)
    check_target(measure, target)
    fights = budget if budget is not None else sweep.n * BUDGET_TIMES
    with runner(workers=workers, scheduler=scheduler, client=client) as run:
        yield Solver(sweep, measure, target, run, fights)
