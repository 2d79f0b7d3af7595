"""Counting outcomes: grouped integer sums (exact, no float weights) and histograms of outcome fields."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.outcome import Field, Outcome

#: Below this many rows, `group_sum` adds in a Python loop instead of sorting.
SMALL = 64


def group_sum(values: npt.NDArray[np.int64], weights: npt.NDArray[Any]) -> dict[int, int]:
    """Sum of `weights` per distinct value of `values`, exactly (int64 or Python ints)."""
    if len(values) == 0:
        return {}
    if len(values) <= SMALL:  # a few rows (exact odds of small supports): a plain loop beats sorting
        out: dict[int, int] = {}
        for v, w in zip(values.tolist(), weights.tolist(), strict=True):
            out[v] = out.get(v, 0) + int(w)
        return dict(sorted(out.items()))
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    sums = np.add.reduceat(weights[order], starts)
    return {int(v): int(s) for v, s in zip(ordered[starts], sums, strict=True)}


@dataclass
class Histogram:
    """Weighted counts of one outcome field's codes (labels, flags or ints)."""

    field: Field
    counts: dict[int, int] = dc_field(default_factory=dict)

    def add(self, values: npt.NDArray[np.int64], weights: npt.NDArray[Any]) -> None:
        for v, w in group_sum(values, weights).items():
            self.counts[v] = self.counts.get(v, 0) + w

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def items(self, outcome: Outcome) -> list[tuple[Any, int]]:
        """(decoded value, count) in value order; every label of a label field, in declaration order."""
        counts = dict(self.counts)
        if self.field.kind == "label":
            for code in range(len(outcome.labels.get(self.field.name, self.field.labels))):
                counts.setdefault(code, 0)
        return [(outcome.decode(self.field, code), n) for code, n in sorted(counts.items())]

    def mean(self) -> Fraction:
        return Fraction(sum(v * n for v, n in self.counts.items()), self.total) if self.total else Fraction(0)


def histograms(fields: tuple[Field, ...], outcome: Outcome, weights: npt.NDArray[Any]) -> dict[str, Histogram]:
    out = {}
    if fields and 0 < len(weights) <= SMALL:  # a few rows: one plain loop per field (exact Python ints)
        w = weights.tolist()  # Python ints, from int64 or object arrays alike
        table = [outcome[f.name].tolist() for f in fields]
        total = sum(w)
        for f, values in zip(fields, table, strict=True):
            if values.count(values[0]) == len(values):  # one value on every row (often a null)
                out[f.name] = Histogram(f, {values[0]: total})
                continue
            counts: dict[int, int] = {}
            for v, x in zip(values, w, strict=True):
                counts[v] = counts.get(v, 0) + x
            out[f.name] = Histogram(f, counts)  # in any order: readers sort (Histogram.items)
        return out
    for f in fields:
        h = Histogram(f)
        h.add(outcome[f.name], weights)
        out[f.name] = h
    return out


class LazyHistograms(dict[str, Histogram]):
    """Histograms by field name where some fields are counted only when first asked for."""

    def __init__(self, counted: dict[str, Histogram], later: tuple[Field, ...], outcome: Outcome, weights: Any):
        super().__init__(counted)
        self._later = {f.name: f for f in later}
        self._outcome, self._weights = outcome, weights

    def __missing__(self, name: str) -> Histogram:
        field = self._later.pop(name)  # KeyError for a field the system does not have
        self[name] = histograms((field,), self._outcome, self._weights)[name]
        return self[name]


def odds_histograms(fields: tuple[Field, ...], outcome: Outcome, weights: npt.NDArray[Any]) -> dict[str, Histogram]:
    """The histograms `odds` reports (result, damage and the fields `in_odds`); the others on demand."""
    now = tuple(f for f in fields if f.in_odds or f.name in ("result", "damage"))
    later = tuple(f for f in fields if not (f.in_odds or f.name in ("result", "damage")))
    counted = histograms(now, outcome, weights)
    return LazyHistograms(counted, later, outcome, weights) if later else counted
