"""An attack's exact outcome table as a fight reads it: the fight's outcome fields, equal rows merged, their
integer weights summed, and the weight beyond the depth kept apart (docs/architecture.md, "What is exact and how").

The exact chain expands rows by it, policy `best` and a live encounter's preview read its mean damage
(`mean_damage`, the one definition: the same as `tohit odds`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.fight.rows import distinct
from tohit.core.fight.state import IntArray


class OutcomeTable:
    """The exact distribution of an attack's fight-relevant outcome fields, grouped, with the remainder."""

    def __init__(self, columns: dict[str, IntArray], weights: list[int], total: int, remainder: int) -> None:
        self.columns, self.weights, self.total, self.remainder = columns, weights, total, remainder
        #: Row weights, then the remainder's (when there is one), as Python ints over `total`.
        self.numerators = np.asarray([*weights, *([remainder] if remainder else [])], dtype=object)
        self._laid: dict[tuple[str, ...], tuple[IntArray, npt.NDArray[np.bool_], npt.NDArray[np.object_]]] = {}

    def laid(self, fields: tuple[str, ...]) -> tuple[IntArray, npt.NDArray[np.bool_], npt.NDArray[np.object_]]:
        """The table as the exact chain expands rows by it: its rows' `fields` (one column each), then one row of
        zeros for the remainder (when there is one); which rows lie beyond the depth; `numerators`. Made once per
        fields."""
        found = self._laid.get(fields)
        if found is None:
            rows = np.zeros((self.numerators.size, len(fields)), dtype=np.int64)
            for i, f in enumerate(fields):
                rows[: self.size, i] = self.columns[f]
            beyond = np.zeros(self.numerators.size, dtype=bool)
            beyond[self.size :] = True
            found = self._laid[fields] = (rows, beyond, self.numerators)
        return found

    @property
    def size(self) -> int:
        return len(self.weights)


def mean_damage(table: OutcomeTable) -> Fraction:
    """The exact mean damage of the outcomes within the depth (all of them when nothing is cut): what `tohit
    odds` reports as `mean_damage` (the weights beyond the depth are left out of both sums). 0 when every
    outcome lies beyond the depth."""
    finite = sum(table.weights)
    dealt = sum(int(d) * w for d, w in zip(table.columns["damage"].tolist(), table.weights, strict=True))
    return Fraction(dealt, finite) if finite else Fraction(0)


#: Up to this many rows a table is grouped in plain Python (a dict of row tuples): faster than numpy's passes for
#: the small tables of most situations.
SMALL_TABLE = 512


def grouped(columns: dict[str, IntArray], weights: npt.NDArray[Any], total: int, remainder: int) -> OutcomeTable:
    """Rows with equal values in every column merged, their integer weights summed exactly; the rows in
    lexicographic order of the columns."""
    names = list(columns)
    if len(weights) <= SMALL_TABLE:
        merged: dict[tuple[int, ...], int] = {}
        each_row = zip(*(columns[f].tolist() for f in names), strict=True)
        for row, w in zip(each_row, weights.tolist(), strict=True):
            merged[row] = merged.get(row, 0) + int(w)
        keys = sorted(merged)
        table = np.asarray(keys, dtype=np.int64).reshape(len(keys), len(names))
        small = {f: np.ascontiguousarray(table[:, i]) for i, f in enumerate(names)}
        return OutcomeTable(small, [merged[k] for k in keys], total, remainder)
    first, inverse = distinct([columns[f] for f in names])
    rows = np.stack([columns[f][first] for f in names], axis=1)
    if weights.dtype != object and total < 2**62:
        summed = np.zeros(len(first), dtype=np.int64)
        np.add.at(summed, inverse, weights)
        sums = [int(x) for x in summed]
    else:
        sums = [0] * len(first)
        for i, w in zip(inverse.tolist(), weights.tolist(), strict=True):
            sums[i] += int(w)
    out = {f: rows[:, i].astype(np.int64) for i, f in enumerate(names)}
    return OutcomeTable(out, sums, total, remainder)
