"""Outcome fields held side by side for the table sampler (`FieldColumns`): one growing column of integers a field
and one flag a row, what its stack of tables (`stack.TableStack`) and its deeper tables (`modes.deep.DeepTables`)
hold their rows in. A field whose values so far lie within +-NARROW_LIMIT is held and read as int32, as a Monte
Carlo batch holds its small stats (`state.NARROW`); a large column holds each field in the narrowest integer type
its values so far fit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from tohit.core.fight.rows import take_at
from tohit.core.fight.state import NARROW, BoolArray, IntArray, narrow_range, wide

#: Once its buffer is past this many rows a column is held in the narrowest integer type its values so far fit
#: (int8, int16, int32), read back as int32 or int64 (`FieldColumns.read`): a fight that meets thousands of
#: situations holds a fraction of the memory (a bench group with open rolls over 10,000,000 fights: 284,000 rows a
#: field in the stack, 262,000 in the deeper tables, 25 MB as int64), and its gathers, which miss the cache at that
#: size, are no slower. A smaller one holds int32 columns where the values fit `NARROW_LIMIT`, else int64, read as
#: they are (every bench fight's stack at 100,000 fights).
NARROW_ROWS = 1 << 17
#: The integer types a large column may take, narrowest first, with the least and greatest value each holds.
_NARROW_TYPES = tuple(
    (kind, int(np.iinfo(kind).min), int(np.iinfo(kind).max)) for kind in (np.int8, np.int16, np.int32)
)


def column_type(low: int, high: int, rows: int) -> type[np.signedinteger[Any]]:
    """The type of a column of `rows` rows whose values lie in low..high: up to `NARROW_ROWS` rows int32 where they
    lie within +-NARROW_LIMIT (`narrow_range`), else int64; past it the narrowest that holds them."""
    if rows <= NARROW_ROWS:
        return np.int32 if narrow_range(low, high) else np.int64
    for kind, least, greatest in _NARROW_TYPES:
        if least <= low and high <= greatest:
            return kind
    return np.int64


class Span(Protocol):
    """Rows of the columns one table holds (a `stack.TableSampler`): from `offset`, `size` of them."""

    offset: int
    size: int


class FieldColumns:
    """One column of integers per field and one flag per row, 0 and False in every row not written. The first
    `used` rows are taken; `take` hands out the next ones. The buffers grow by half when full (a growth holds a
    column's old buffer and its new one); past `NARROW_ROWS` rows a column is narrow (`column_type`)."""

    def __init__(self, fields: tuple[str, ...], used: int = 0, rows: int = 64) -> None:
        self.fields = fields
        self.at = {f: i for i, f in enumerate(fields)}
        self.columns: list[IntArray] = [np.zeros(rows, dtype=np.int64) for _ in fields]
        self.flags: BoolArray = np.zeros(rows, dtype=bool)
        self.used = used
        #: Each field's least and greatest value so far (the zeros of the rows not written among them).
        self.lows, self.highs = [0] * len(fields), [0] * len(fields)

    def take(self, rows: int, lows: Sequence[int], highs: Sequence[int]) -> int:
        """Take the next `rows` rows, for values within lows..highs a field: the columns grown, and made narrow or
        wider (`column_type`), to hold them. Returns the first row's index."""
        offset, need = self.used, self.used + rows
        size = self.flags.size
        if need > size:
            size = max(need, size + size // 2)
            self.flags = _grown(self.flags, size, bool, offset)
        self.lows = [min(a, b) for a, b in zip(self.lows, lows, strict=True)]
        self.highs = [max(a, b) for a, b in zip(self.highs, highs, strict=True)]
        for i, column in enumerate(self.columns):
            kind = column_type(self.lows[i], self.highs[i], size)
            if column.size != size or column.dtype != kind:
                self.columns[i] = _grown(column, size, kind, offset)
        self.used = need
        return offset

    def append(
        self, size: int, values: npt.NDArray[np.integer[Any]], flags: BoolArray, at: IntArray | None = None
    ) -> int:
        """Append `size` rows: each field's `values` (a (fields, k) matrix) at rows `at` of them (every row in order
        when None; 0 on the others) and the rows' flags. Returns the first row's index."""
        offset = self.take(size, *value_range(values))
        rows = slice(offset, offset + size) if at is None else offset + at
        for column, field_values in zip(self.columns, values, strict=True):
            column[rows] = field_values
        self.flags[offset : offset + size] = flags
        return offset

    def read(self, field: str, at: npt.NDArray[np.integer[Any]], within: Span | None = None) -> IntArray:
        """The field's values at rows `at` (`within` a table: at its own rows, with no offset added to each row):
        int32 while its values so far lie within +-NARROW_LIMIT (`narrow_range`), else int64, whatever the column
        holds them in."""
        i = self.at[field]
        column = self.columns[i]
        if within is not None:
            column = column[within.offset : within.offset + within.size]
        found = take_at(column, at)
        if not narrow_range(self.lows[i], self.highs[i]):
            return wide(found)
        out: IntArray = found if found.dtype == NARROW else found.astype(NARROW)
        return out

    def flags_at(self, at: npt.NDArray[np.integer[Any]], within: Span | None = None) -> BoolArray:
        """The rows' flags (`within` as for `read`)."""
        flags = self.flags if within is None else self.flags[within.offset : within.offset + within.size]
        return take_at(flags, at)


def _grown(column: npt.NDArray[Any], size: int, kind: Any, used: int) -> npt.NDArray[Any]:
    """A column of `size` rows of type `kind`, holding `column`'s first `used` rows, zeros after them."""
    grown = np.zeros(size, dtype=kind)
    grown[:used] = column[:used]
    return grown


def value_range(values: npt.NDArray[np.integer[Any]]) -> tuple[list[int], list[int]]:
    """Each row's least and greatest value of a (fields, rows) matrix (two reductions over it, not two a field);
    zeros where it has no rows."""
    if not values.shape[1]:
        return [0] * values.shape[0], [0] * values.shape[0]
    return values.min(axis=1).tolist(), values.max(axis=1).tolist()
