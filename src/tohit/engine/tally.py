"""Counting outcomes: grouped integer sums (exact, no float weights) and histograms of outcome fields."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.outcome import NULL_INT, Field, Outcome

#: Up to this many rows, a plain dict is faster than any numpy grouping.
SMALL = 24
#: float64 sums of whole numbers are exact below this.
EXACT_FLOAT = 1 << 53
SLICE_BITS = 21
SLICE_MASK = (1 << SLICE_BITS) - 1


def value_key(value: Any) -> str:
    """An outcome value as a JSON object key, the same in every output: a missing value is "null" (the key
    JSON gives None), a bool "true" or "false", anything else its text."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def group_sum(values: npt.NDArray[np.int64], weights: npt.NDArray[Any]) -> dict[int, int]:
    """Sum of `weights` per distinct value of `values`, exactly (int64 or Python ints), in value order.

    int64 weights must be positive and sum below 2^62, as a joint table's do (larger totals are kept as
    Python ints). Small value ranges use `bincount`: when the weights sum below 2^53 its float64 sums are
    exact as they are; otherwise it runs on 21-bit slices of the weights (each slice sum stays below
    2^53) and the slices recombine as integers.
    """
    if len(values) == 0:
        return {}
    if len(values) <= SMALL:
        small: dict[int, int] = {}
        for v, w in zip(values.tolist(), weights.tolist(), strict=True):
            small[v] = small.get(v, 0) + w
        return dict(sorted(small.items()))
    if weights.dtype == np.int64:
        null = values == NULL_INT
        has_null = bool(null.any())
        present, w = (values[~null], weights[~null]) if has_null else (values, weights)
        out: dict[int, int] = {NULL_INT: int(weights[null].sum())} if has_null else {}
        if not present.size:
            return out
        low, high = int(present.min()), int(present.max())
        if high - low <= 4 * len(values) + 1024:
            index = present - low
            if int(w.sum()) < EXACT_FLOAT:
                sums = np.bincount(index, weights=w.astype(np.float64)).astype(np.int64)
            else:
                sums = np.zeros(high - low + 1, dtype=np.int64)
                for shift in (0, SLICE_BITS, 2 * SLICE_BITS):
                    part = ((w >> shift) & SLICE_MASK).astype(np.float64)
                    sums += np.bincount(index, weights=part, minlength=len(sums)).astype(np.int64) << shift
            seen = np.flatnonzero(sums)
            out.update(zip((seen + low).tolist(), sums[seen].tolist(), strict=True))
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
    out: dict[str, Histogram] = {}
    if fields and 0 < len(weights) <= SMALL:  # a few rows: one plain loop per field (exact Python ints)
        w = weights.tolist()  # Python ints, from int64 or object arrays alike
        total = sum(w)
        for f in fields:
            values = outcome[f.name].tolist()
            if values.count(values[0]) == len(values):  # one value on every row (often a null)
                out[f.name] = Histogram(f, {values[0]: total})
                continue
            counts: dict[int, int] = {}
            for v, x in zip(values, w, strict=True):
                counts[v] = counts.get(v, 0) + x
            out[f.name] = Histogram(f, counts)  # in any order: readers sort (Histogram.items)
        return out
    together = _together(fields, outcome, weights) if len(fields) > 1 else None
    if together is not None:
        return together
    for f in fields:
        h = Histogram(f)
        h.add(outcome[f.name], weights)
        out[f.name] = h
    return out


def _together(fields: tuple[Field, ...], outcome: Outcome, weights: npt.NDArray[Any]) -> dict[str, Histogram] | None:
    """Every field's histogram from one `bincount`: each field's codes (its nulls in one extra slot) are
    shifted into a range of their own. Exact when the int64 weights sum below 2^53, as a float64 sum of
    whole numbers is; None (count field by field) otherwise, or when the codes span too wide a range."""
    if weights.dtype != np.int64 or int(weights.sum()) >= EXACT_FLOAT:
        return None
    codes = np.stack([outcome[f.name] for f in fields])  # (fields, rows)
    null = codes == NULL_INT
    low = np.where(null, np.iinfo(np.int64).max, codes).min(axis=1)
    high = np.where(null, low[:, None], codes).max(axis=1)
    low = np.minimum(low, high)  # a field of nulls only: one slot
    spans = high - low + 2  # the last slot of each field holds its nulls
    if int(spans.sum()) > 4 * codes.size + 1024:
        return None
    offsets = np.concatenate(([0], np.cumsum(spans)[:-1]))
    index = np.where(null, (spans - 1)[:, None], codes - low[:, None]) + offsets[:, None]
    sums = np.bincount(index.ravel(), weights=np.tile(weights.astype(np.float64), len(fields)))
    seen = np.flatnonzero(sums)
    owner = np.searchsorted(offsets, seen, side="right") - 1
    slot = seen - offsets[owner]
    value = np.where(slot == spans[owner] - 1, NULL_INT, slot + low[owner])
    counts: list[dict[int, int]] = [{} for _ in fields]
    for o, v, c in zip(owner.tolist(), value.tolist(), sums[seen].astype(np.int64).tolist(), strict=True):
        counts[o][v] = c
    return {f.name: Histogram(f, c) for f, c in zip(fields, counts, strict=True)}


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
