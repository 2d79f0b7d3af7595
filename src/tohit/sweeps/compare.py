"""`tohit compare A B`: the same measures of two files, side by side, with B - A.

Each file is measured as one point of a sweep is (sweeps/measure.py): an attack's exact odds per target (targets
matched by name, else by place), a fight's simulation of n fights (each file seeded alike) or, with `exact`, a
duel solved exactly. An exact difference is a fraction. A simulated chance (a win rate, a draw, a combatant's
survival) gets the 95% interval of the difference of two independent proportions (Newcombe's hybrid score
interval, from each side's Wilson interval) and whether that interval excludes 0; other simulated measures (mean
rounds, damage dealt) get the difference alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError
from tohit.core.exact_text import fraction_text
from tohit.core.loader import read_document
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.modes import Method
from tohit.engine.frames import Views
from tohit.engine.scenario import from_dict
from tohit.engine.seeds import fresh_seed
from tohit.engine.stats import wilson
from tohit.sweeps.grid import kind_of
from tohit.sweeps.limits import DEFAULT_FIGHTS
from tohit.sweeps.measure import METHOD, Task, measure, point_seed
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


def _differences(a: dict[str, Any], b: dict[str, Any], n: int | None) -> list[Difference]:
    va, vb = _values(a), _values(b)
    out = []
    for key in [*va, *(k for k in vb if k not in va)]:
        x, y = va.get(key), vb.get(key)
        if x is None or y is None:
            out.append(Difference(key, x, y, None))
        elif isinstance(x, Fraction) and isinstance(y, Fraction):
            out.append(Difference(key, x, y, y - x))
        elif n is not None and _chance(key):
            low, high = newcombe(float(x), float(y), n, n)
            out.append(Difference(key, x, y, float(y) - float(x), low, high))
        else:
            out.append(Difference(key, x, y, float(y) - float(x)))
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
    are refused unless `systems_differ` (their targets and measures would be paired by position, silently)."""
    documents = [read_document(path) for path in (a, b)]
    kinds = {kind_of(doc) for doc in documents}
    if len(kinds) != 1:
        raise InputError("compare two attacks (scenario files) or two fights, not one of each", field="B")
    kind = kinds.pop()
    if exact and kind == "attack":
        raise InputError("an attack's odds are always exact; --exact is for fight files", field="--exact")
    games: list[str] = []
    for doc, path in zip(documents, (a, b), strict=True):  # every input problem before any work
        if kind == "attack":
            games.append(from_dict(doc, source=str(path)).system.id)
            continue
        fight = fight_from_dict(doc, source=str(path))
        games.append(fight.system.id)
        if exact and fight.roster.size != 2:
            raise InputError(f"{path}: --exact is for a duel of two combatants (simulate with -n)", field="--exact")
    if games[0] != games[1] and not systems_differ:
        raise InputError(
            f"A's game is {games[0]} and B's is {games[1]}: two games' measures are paired by position"
            " (give --systems-differ to compare them all the same)",
            field="B",
        )
    simulated = kind == "fight" and not exact
    fights = n or DEFAULT_FIGHTS
    if seed is None:
        given = documents[0].get("seed")
        seed = given if isinstance(given, int) and not isinstance(given, bool) else fresh_seed()
    rows = [
        measure(Task(0, doc, str(path), kind, fights, seed, exact, method, depth))
        for doc, path in zip(documents, (a, b), strict=True)
    ]
    paired: list[tuple[str | None, list[Difference]]] = []
    if kind == "fight":
        paired.append((None, _differences(rows[0][0], rows[1][0], fights if simulated else None)))
    else:
        names_b = {row["target"]: row for row in rows[1]}
        for k, row in enumerate(rows[0]):
            other = names_b.get(row["target"]) or (rows[1][k] if k < len(rows[1]) else None)
            if other is not None:
                label = row["target"] if row["target"] == other["target"] else f"{row['target']} / {other['target']}"
                paired.append((label, _differences(row, other, None)))
    return Comparison(
        str(a),
        str(b),
        kind,
        "simulated" if simulated else "exact",
        paired,
        fights if simulated else None,
        point_seed(seed, 0) if simulated else None,
    )
