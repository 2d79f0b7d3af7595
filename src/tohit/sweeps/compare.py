"""`tohit compare A B`: the same measures of two files, side by side, with B - A.

Each file is measured as one point of a sweep is (sweeps/measure.py): an attack's exact odds per target (targets
matched by name, else by place), a fight's simulation of n fights or, with `exact`, a duel solved exactly. An
exact difference is a fraction.

`compare` (one point) runs each side once on one seed: a simulated chance gets the 95% interval of the difference
of two independent proportions (Newcombe's hybrid score interval, from each side's Wilson interval), other
simulated measures the difference alone. `compare_along` does it at every point of an axis (`--vary`, `--zip`,
several B files: sweeps/pair.py), one row per point; a simulated point runs both sides on the point's seed in
paired blocks (common random numbers, sweeps/paired.py), and every simulated measure gets the paired 95%
interval of B - A (a run too short for two blocks: as `compare`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from tohit.core.exact_text import fraction_text
from tohit.engine.fight.modes import Method
from tohit.engine.frames import Views
from tohit.engine.stats import wilson
from tohit.sweeps.measure import METHOD, measure, point_seed
from tohit.sweeps.pair import Pair, plan_pair
from tohit.sweeps.paired import block_sizes, paired
from tohit.sweeps.solve import exact_value
from tohit.sweeps.views import answer_html

#: Columns of a row that are not compared.
NOT_MEASURES = ("target", METHOD, "point_seed", "damage_p5", "damage_p25", "damage_p75", "damage_p95")


@dataclass(frozen=True)
class Difference:
    """One measure of A and B, and B - A (exact as a Fraction, else a float with its 95% interval if a chance)."""

    measure: str
    a: Fraction | float | None
    b: Fraction | float | None
    difference: Fraction | float | None
    lo: float | None = None
    hi: float | None = None

    @property
    def excludes_zero(self) -> bool | None:
        """Whether the 95% interval of a simulated difference leaves 0 out (None when there is no interval)."""
        if self.lo is None or self.hi is None:
            return None
        return self.lo > 0 or self.hi < 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"measure": self.measure}
        for key in ("a", "b", "difference"):
            value = getattr(self, key)
            out[key] = fraction_text(value) if isinstance(value, Fraction) else value
        if isinstance(self.difference, Fraction):
            out["difference_float"] = float(self.difference)
        if self.lo is not None:
            out.update(lo=self.lo, hi=self.hi, excludes_zero=self.excludes_zero)
        return out


@dataclass(frozen=True)
class Comparison(Views):
    """The rows of A and B (one per target of an attack, one for a fight) and their differences; in a notebook a
    table (`to_dataframe()`: one row per target and measure, exact values as Fractions)."""

    a: str
    b: str
    kind: str
    method: str
    rows: list[tuple[str | None, list[Difference]]]
    n: int | None = None
    seed: int | None = None

    def _frame(self) -> Any:
        import pandas as pd

        rows = []
        for target, diffs in self.rows:
            for d in diffs:
                row = {"target": target, "measure": d.measure, "A": d.a, "B": d.b, "B - A": d.difference}
                if self.method == "simulated":
                    row.update(lo=d.lo, hi=d.hi, excludes_zero=d.excludes_zero)
                rows.append(row if self.kind == "attack" else {k: v for k, v in row.items() if k != "target"})
        return pd.DataFrame(rows)

    def _title(self) -> str:
        how = f"simulated, {self.n:,} fights each, seed {self.seed}" if self.n is not None else "exact"
        return f"A: {Path(self.a).name}, B: {Path(self.b).name} ({how})"

    def _repr_html_(self) -> str:
        columns = ["A", "B", "B - A"] + (["lo", "hi"] if self.method == "simulated" else [])
        signed = ("B - A", "lo", "hi")
        return answer_html(self._title(), self._frame(), columns, lambda row: str(row["measure"]), signed)

    def __repr__(self) -> str:
        return f"<Comparison {self._title()}: {sum(len(d) for _, d in self.rows)} measures; .to_dataframe()>"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"a": self.a, "b": self.b, "kind": self.kind, "method": self.method}
        if self.n is not None:
            out.update(n=self.n, seed=self.seed)
        out["rows"] = [
            {**({"target": target} if target is not None else {}), "measures": [d.to_json() for d in diffs]}
            for target, diffs in self.rows
        ]
        return out


def _chance(measure_name: str) -> bool:
    return measure_name.startswith(("win_", "survives_")) or measure_name == "draw"


def _values(row: dict[str, Any]) -> dict[str, Fraction | float | None]:
    """A row's measures: exact ones as Fractions, the others as floats."""
    exact = row.get("exact", {})
    out: dict[str, Fraction | float | None] = {}
    for key, value in row.items():
        if key in NOT_MEASURES or key == "exact" or key.endswith(("_lo", "_hi")):
            continue
        if key in exact:
            out[key] = exact_value(exact[key])
        else:
            out[key] = None if value is None or (isinstance(value, float) and math.isnan(value)) else value
    return out


def newcombe(a: float, b: float, n_a: int, n_b: int) -> tuple[float, float]:
    """The 95% interval of b - a for two independent proportions seen in n_a and n_b trials (Newcombe 1998,
    method 10: from each proportion's Wilson interval)."""
    low_a, high_a = wilson(round(a * n_a), n_a)
    low_b, high_b = wilson(round(b * n_b), n_b)
    d = b - a
    return d - math.hypot(b - low_b, high_a - a), d + math.hypot(high_b - b, a - low_a)


def _differences(
    a: dict[str, Any], b: dict[str, Any], intervals: dict[str, tuple[float, float]], n: int | None
) -> list[Difference]:
    """Measure by measure B - A: exact as a Fraction; simulated with its paired interval (`sweeps/paired.py`), or
    for a chance of a run too short for blocks, the independent one (`n` fights each)."""
    va, vb = _values(a), _values(b)
    out = []
    for key in [*va, *(k for k in vb if k not in va)]:
        x, y = va.get(key), vb.get(key)
        if x is None or y is None:
            out.append(Difference(key, x, y, None))
        elif isinstance(x, Fraction) and isinstance(y, Fraction):
            out.append(Difference(key, x, y, y - x))
        elif key in intervals:
            out.append(Difference(key, x, y, float(y) - float(x), *intervals[key]))
        elif n is not None and _chance(key):
            low, high = newcombe(float(x), float(y), n, n)
            out.append(Difference(key, x, y, float(y) - float(x), low, high))
        else:
            out.append(Difference(key, x, y, float(y) - float(x)))
    return out


Rows = list[tuple[str | None, list[Difference]]]


def compare_point(pair: Pair, index: int, n: int | None = None, *, blocks: bool = True) -> Rows:
    """Point `index` of A and of B measured alike (a simulation: on one seed, in paired blocks unless `blocks` is
    false) and B - A: one row for a fight, one per target of an attack (targets matched by name, else by place)."""
    task_a, task_b = pair.tasks(index, n)
    if pair.simulated and blocks:
        row_a, row_b, intervals = paired(task_a, task_b)
        return [(None, _differences(row_a, row_b, intervals, task_a.n))]
    rows_a, rows_b = measure(task_a), measure(task_b)
    if pair.kind == "fight":
        return [(None, _differences(rows_a[0], rows_b[0], {}, task_a.n if pair.simulated else None))]
    out: Rows = []
    names_b = {row["target"]: row for row in rows_b}
    for k, row in enumerate(rows_a):
        other = names_b.get(row["target"]) or (rows_b[k] if k < len(rows_b) else None)
        if other is not None:
            label = row["target"] if row["target"] == other["target"] else f"{row['target']} / {other['target']}"
            out.append((label, _differences(row, other, {}, None)))
    return out


def compare(
    a: str | Path,
    b: str | Path,
    *,
    n: int | None = None,
    seed: int | None = None,
    exact: bool = False,
    method: Method = "table",
    depth: int | None = None,
    systems_differ: bool = False,
) -> Comparison:
    """Measure A and B alike and take B - A, measure by measure (both attacks, or both fights). Files of two games
    are refused unless `systems_differ` (their targets and measures would be paired by position, silently). A
    simulation runs each side once on the one seed, with the independent interval of a chance (`newcombe`):
    the numbers `tohit fight FILE -n N --seed <seed>` gives for each file."""
    pair = plan_pair(a, b, n=n, seed=seed, exact=exact, method=method, depth=depth, systems_differ=systems_differ)
    simulated = pair.simulated
    return Comparison(
        str(a),
        str(b),
        pair.kind,
        "simulated" if simulated else "exact",
        compare_point(pair, 0, blocks=False),
        pair.n if simulated else None,
        point_seed(pair.seed, 0) if simulated else None,
    )


@dataclass(frozen=True)
class Along:
    """B - A at every point of an axis: each point's values (one per column) and its rows."""

    pair: Pair
    points: list[tuple[tuple[Any, ...], Rows]]

    @property
    def columns(self) -> list[str]:
        return self.pair.axis.columns

    @property
    def method(self) -> str:
        return "simulated" if self.pair.simulated else "exact"

    def to_json(self) -> dict[str, Any]:
        pair = self.pair
        out: dict[str, Any] = {
            "a": pair.a.grid.source,
            "b": pair.b.grid.source,
            "kind": pair.kind,
            "method": self.method,
        }
        out["vary"] = self.columns
        if pair.simulated:
            out.update(n=pair.n, seed=pair.seed, blocks=len(block_sizes(pair.n)))
        out["points"] = [
            {
                "values": dict(zip(self.columns, values, strict=True)),
                "rows": [
                    {**({"target": target} if target is not None else {}), "measures": [d.to_json() for d in diffs]}
                    for target, diffs in rows
                ],
            }
            for values, rows in self.points
        ]
        return out

    def frame(self) -> Any:
        """One pandas row per point, target and measure: the values, A, B, B - A and its interval (floats)."""
        import pandas as pd

        records = []
        for values, rows in self.points:
            for target, diffs in rows:
                for d in diffs:
                    record: dict[str, Any] = dict(zip(self.columns, values, strict=True))
                    record.update(target=target, measure=d.measure)
                    for key in ("a", "b", "difference", "lo", "hi"):
                        value = getattr(d, key)
                        record[key] = None if value is None else float(value)
                    records.append(record)
        return pd.DataFrame.from_records(records)


def compare_along(pair: Pair) -> Along:
    """B - A at every point of the pair's axis, in the axis's order."""
    grid = pair.axis
    return Along(pair, [(grid.point(i).values, compare_point(pair, i)) for i in range(grid.size)])
