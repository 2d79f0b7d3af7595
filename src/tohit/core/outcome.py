"""Outcomes are data (docs/architecture.md, "Outcomes are data, state changes are events"): a system's `resolve` returns
named arrays, one element per attack.

A system declares its fields once (`Field`), with a kind:
- "label": int codes into `labels` (e.g. hit / miss / tie); code `NULL_CODE` is null;
- "flag": 0 / 1, `NULL_CODE` for null;
- "int": whole numbers, `NULL_INT` for null.
Interfaces turn a row into JSON with `Outcome.row`; odds and simulate aggregate the arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

Kind = Literal["label", "flag", "int"]
NULL_CODE = -1
NULL_INT = -(2**62)
Array = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Field:
    """One output of `resolve`: its name in JSON, its kind, and what it means (cite the clause)."""

    name: str
    kind: Kind
    doc: str
    labels: tuple[str, ...] = ()
    nullable: bool = False
    #: Whether `odds` reports this field's distribution (result and damage always are).
    in_odds: bool = True


def null_int(mask: Any, values: Any) -> Array:
    """`values` where `mask` is false, null where it is true."""
    return np.where(mask, NULL_INT, values).astype(np.int64)


def null_code(mask: Any, values: Any) -> Array:
    return np.where(mask, NULL_CODE, values).astype(np.int64)


class Outcome:
    """The arrays `resolve` returns, keyed by field name, with labels for label fields."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.values: dict[str, Array] = {}
        self.labels: dict[str, tuple[str, ...]] = {}

    def set(self, name: str, values: Any, labels: Sequence[str] | None = None) -> None:
        arr = np.asarray(values, dtype=np.int64)
        if arr.shape != (self.n,):  # one value for every row: np.full, far cheaper than broadcast_to + copy
            arr = np.full(self.n, arr, dtype=np.int64) if arr.ndim == 0 else np.broadcast_to(arr, (self.n,)).copy()
        self.values[name] = arr
        if labels is not None:
            self.labels[name] = tuple(labels)

    def __getitem__(self, name: str) -> Array:
        return self.values[name]

    def decode(self, field: Field, code: int) -> Any:
        """One value of `field` as JSON: a label, a bool, an int or None."""
        if field.kind == "int":
            return None if code == NULL_INT else int(code)
        if code == NULL_CODE:
            return None
        if field.kind == "flag":
            return bool(code)
        return self.labels.get(field.name, field.labels)[code]

    def row(self, fields: Sequence[Field], i: int = 0) -> dict[str, Any]:
        return {f.name: self.decode(f, int(self.values[f.name][i])) for f in fields}

    def column(self, field: Field) -> list[Any]:
        """One field decoded for every row (as `decode` does, a column at a time)."""
        values = self.values[field.name]
        if field.kind == "int":
            codes = values.tolist()
            return [None if c == NULL_INT else c for c in codes] if field.nullable else codes
        # Labels and flags: one lookup in an object array whose last item, at NULL_CODE (-1), is None.
        table = (False, True) if field.kind == "flag" else self.labels.get(field.name, field.labels)
        return list(np.asarray([*table, None], dtype=object)[values].tolist())

    def rows(self, fields: Sequence[Field]) -> list[dict[str, Any]]:
        """Every row as JSON values (decoded column by column)."""
        names = [f.name for f in fields]
        return [dict(zip(names, values, strict=True)) for values in zip(*(self.column(f) for f in fields), strict=True)]
