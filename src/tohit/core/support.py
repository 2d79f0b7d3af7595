"""Finite distributions as tables: value columns with integer weights (docs/architecture.md, "What is exact and how").

A `Support` is what a dice role (or a whole attack) can produce: one row per distinct outcome, columns of
values, and an integer weight per row. `total` is the common denominator; where an infinite support was cut
at a stated depth, `remainder` holds the weight of everything beyond the cut, so that
`sum(weights) + remainder == total` always holds and nothing is silently dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import gcd

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
Columns = dict[str, npt.NDArray[np.int64]]

#: Largest total weight kept in int64 arithmetic; above it weights become Python ints (object arrays).
INT64_SAFE = 2**62


def weight_array(values: list[int]) -> npt.NDArray[np.int64] | npt.NDArray[np.object_]:
    """Integer weights as int64 when they are safe to sum, else as exact Python ints."""
    if not values or sum(values) < INT64_SAFE:
        return np.asarray(values, dtype=np.int64)
    return np.asarray(values, dtype=object)


@dataclass(frozen=True)
class Support:
    """Rows of outcome columns with exact integer weights over a common denominator `total`."""

    columns: Columns
    weights: npt.NDArray[np.int64] | npt.NDArray[np.object_]
    total: int
    remainder: int = 0
    depth: int | None = None

    def __post_init__(self) -> None:
        n = len(self.weights)
        for name, col in self.columns.items():
            if len(col) != n:
                raise ValueError(f"column {name!r} has {len(col)} rows, weights have {n}")
        if int(sum(int(w) for w in self.weights)) + self.remainder != self.total:
            raise ValueError("weights plus remainder must equal total")

    @property
    def size(self) -> int:
        return len(self.weights)

    @staticmethod
    def from_rows(
        rows: Mapping[tuple[int, ...], int],
        names: tuple[str, ...],
        *,
        remainder: int = 0,
        depth: int | None = None,
    ) -> Support:
        """Build a support from {value tuple: weight}; rows are sorted for a stable order."""
        keys = sorted(rows)
        weights = [rows[k] for k in keys]
        columns: Columns = {name: np.asarray([k[i] for k in keys], dtype=np.int64) for i, name in enumerate(names)}
        total = sum(weights) + remainder
        return Support(columns, weight_array(weights), total, remainder, depth)

    def reduced(self) -> Support:
        """The same distribution with weights, remainder and total divided by their common factor."""
        g = self.total
        for w in self.weights:
            g = gcd(g, int(w))
        g = gcd(g, self.remainder)
        if g <= 1:
            return self
        weights = weight_array([int(w) // g for w in self.weights])
        return Support(self.columns, weights, self.total // g, self.remainder // g, self.depth)
