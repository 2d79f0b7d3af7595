"""Row-wise reductions over the few combatants (or attacks) of each fight in a batch.

A batch holds arrays of shape (fights, combatants): a hundred thousand rows of a handful of columns. numpy
reduces a short last axis slowly (`x.any(axis=1)` on (100000, 2) runs a tiny inner loop per row, some 30
times slower than or-ing the two columns), so the step code reduces column by column instead: a few
whole-column operations, each over every fight at once. Same results as the numpy reductions they replace.
Besides, the reads by index the step code shares: `cells` (a combatant's cell of each row, as a flat index) and
`take_at` (`take` for the engine's own indices, without the bounds check).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
#: An array's cell type (`take_at`).
Cell = TypeVar("Cell", bound=np.generic)

#: Column counts whose bool rows read as one unsigned integer (a row is "any" when that integer is not 0).
_PACKED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
#: Per packed width: the multiplier whose top byte, times a packed row, sums the row's bytes (its count of True), and
#: the one whose top byte, times a row's lowest set byte alone, is that byte's column (its first True).
_SUMS = {k: sum(1 << (8 * j) for j in range(k)) for k in _PACKED}
_PLACES = {k: sum(j << (8 * (k - 1 - j)) for j in range(k)) for k in _PACKED}
#: ... and the one whose top byte, times a packed row, holds byte c's lowest bit at bit c: the row as the set of its
#: True columns (byte c's bit lands at 8(k - 1) + c + 8(j - c) for each byte j: distinct powers of two, no carry).
_BITS = {k: sum(1 << (8 * (k - 1) - 7 * c) for c in range(k)) for k in _PACKED}
#: Up to this many columns, column-by-column beats numpy's own reduction along the short axis (argmax: 4).
SHORT = 4
FEW = 16
#: `dense_rank` ranks through a table of one entry per value while the values span at most this many per row (and
#: fewer than 2**19, where the table's running count leaves the cache); beyond, by sorting.
RANGE_PER_ROW = 16


def any_rows(x: BoolArray) -> BoolArray:
    """x.any(axis=1) for a 2-D bool array."""
    n, k = x.shape
    if k == 0:
        return np.zeros(n, dtype=bool)
    if k in _PACKED and x.flags.c_contiguous and x.dtype == np.bool_:
        out: BoolArray = x.view(_PACKED[k]).reshape(n) != 0
        return out
    if k > FEW:
        wide: BoolArray = np.asarray(x.any(axis=1))
        return wide
    found = x[:, 0].copy()
    for j in range(1, k):
        found |= x[:, j]
    return found


def any_groups(x: BoolArray, groups: Sequence[Sequence[int]]) -> list[BoolArray]:
    """[x[:, g].any(axis=1) for g in groups] for a 2-D bool array: each group of columns (a side's combatants, say)
    read from the packed rows by one mask of its bytes (no copy of a strided column), else `any_rows` of its
    columns."""
    packed = packed_rows(x)
    if packed is None:
        return [any_rows(x[:, list(g)]) for g in groups]
    kind = packed.dtype.type
    return [(packed & kind(sum(0xFF << (8 * c) for c in g))) != 0 for g in groups]


def packed_rows(x: BoolArray) -> Any:
    """Each row of a 2-D bool array read as one unsigned integer, column j its byte j (little-endian machines), or
    None when the array cannot be read so (a width not 1, 2, 4 or 8, a strided array)."""
    n, k = x.shape
    if k in _PACKED and x.flags.c_contiguous and x.dtype == np.bool_ and sys.byteorder == "little":
        return x.view(_PACKED[k]).reshape(n)
    return None


def packed_bits(packed: Any, k: int) -> IntArray:
    """A `packed_rows` row of k columns (each byte 0 or 1) as the set of its True columns: bit c for column c."""
    kind = packed.dtype.type
    bits: IntArray = ((packed * kind(_BITS[k])) >> kind(8 * (k - 1))).astype(np.int64)
    return bits


def column_bits(x: BoolArray) -> IntArray:
    """Each row of a 2-D bool array of at most 8 columns as the set of its True columns: bit c for column c."""
    packed = packed_rows(x)
    if packed is not None:
        return packed_bits(packed, x.shape[1])
    out = np.zeros(x.shape[0], dtype=np.int64)
    for c in range(x.shape[1]):
        out |= x[:, c].astype(np.int64) << c
    return out


def count_rows(x: BoolArray) -> IntArray:
    """x.sum(axis=1) for a 2-D bool array, as int64."""
    n, k = x.shape
    packed = packed_rows(x)
    if packed is not None and k > 1:  # the bytes summed into the top byte at once (each is 0 or 1: no carry)
        kind = packed.dtype.type
        summed: IntArray = ((packed * kind(_SUMS[k])) >> kind(8 * (k - 1))).astype(np.int64)
        return summed
    if k > FEW:
        wide: IntArray = x.sum(axis=1, dtype=np.int64)
        return wide
    total = np.zeros(n, dtype=np.int64)
    for j in range(k):
        total += x[:, j]
    return total


def first_rows(x: BoolArray) -> IntArray:
    """np.argmax(x, axis=1) for a 2-D bool array: the first True column of each row (0 when none). Packed rows:
    the lowest set bit of each row's integer (v & -v) is bit 8j of the first True column j, and the bits below
    it number 8j."""
    n, k = x.shape
    packed = packed_rows(x)
    if packed is not None and k > 1:  # the lowest set byte alone, times _PLACES: its column in the top byte
        kind = packed.dtype.type
        lowest = packed & (~packed + kind(1))
        placed: IntArray = ((lowest * kind(_PLACES[k])) >> kind(8 * (k - 1))).astype(np.int64)
        return placed
    if k > SHORT:
        out: IntArray = np.argmax(x, axis=1).astype(np.int64)
        return out
    first = np.zeros(n, dtype=np.int64)
    if k == 0:
        return first
    seen = x[:, 0].copy()
    for j in range(1, k):
        first += (x[:, j] & ~seen) * j
        seen |= x[:, j]
    return first


def min_rows(values: Any) -> Any:
    """values.min(axis=1) for a 2-D array with at least one column."""
    k = values.shape[1]
    if k > FEW:
        return values.min(axis=1)
    low = values[:, 0].copy()
    for j in range(1, k):
        np.minimum(low, values[:, j], out=low)
    return low


#: The highest int64: `lowest_rows`' value where the mask is unset.
BIG = np.iinfo(np.int64).max


def lowest_rows(mask: BoolArray, values: IntArray) -> IntArray:
    """np.argmin(np.where(mask, values, BIG), axis=1) for a 2-D bool mask and int values of its shape (int64, or a
    batch's narrow int32: the masked copy is int64 either way): each row's column of the lowest value where the mask
    is set (ties: the first column; 0 where none is set). Without `where`'s masked copy: BIG + the mask is BIG where
    it is unset and, wrapping, the lowest int64 where it is set, so its maximum with the values is BIG or the value
    itself. The same columns for every int64 value."""
    masked: IntArray = np.add(mask.view(np.uint8), BIG, dtype=np.int64)
    np.maximum(masked, values, out=masked)
    out: IntArray = masked.argmin(axis=1).astype(np.int64, copy=False)
    return out


#: Rows `column_sums` adds as one: a block of them read as one long row (numpy sums over a short last axis row by row).
SUM_BLOCK = 256


def column_sums(x: Any) -> IntArray:
    """x.sum(axis=0) for a 2-D int or bool array (fights x combatants), as int64: numpy adds a long array of short
    rows one row at a time (some 40 ns a row); here SUM_BLOCK rows at a time, read as one long row, then the blocks'
    sums and the rows left over. The same integers."""
    m, k = x.shape
    cut = m - m % SUM_BLOCK
    x = np.ascontiguousarray(x)
    blocks = x[:cut].reshape(-1, SUM_BLOCK * k).sum(axis=0, dtype=np.int64).reshape(SUM_BLOCK, k)
    out: IntArray = blocks.sum(axis=0, dtype=np.int64) + x[cut:].sum(axis=0, dtype=np.int64)
    return out


def one_row_for_all(arr: Any) -> bool:
    """Whether an array of fights x combatants (x ...) is one row for every fight: a zero-stride view over more than
    one row, as a group's batch holds a stat no event has written (engine/fight/ending.py). An array of no rows has
    zero strides too, and is not one."""
    return bool(arr.ndim >= 2 and arr.strides[0] == 0 and arr.shape[0] > 1)


def take_rows(arr: Any, who: IntArray) -> Any:
    """arr[np.arange(n), who] for a 2-D array: each row's entry in column `who`."""
    n, k = arr.shape[0], arr.shape[1]
    if one_row_for_all(arr):  # read from that row
        return take_at(arr[0], who, axis=0)
    flat = row_offsets(n, k) + who
    return take_at(np.ascontiguousarray(arr).reshape(n * k, *arr.shape[2:]), flat, axis=0)  # `take`: faster than []


def take_at(arr: npt.NDArray[Cell], at: Any, axis: int | None = None) -> npt.NDArray[Cell]:
    """arr.take(at, axis) for indices `at` that are all in range (negative ones count from the end, as numpy's
    own), with `take`'s "wrap" mode: the same entries without the default's per-index bounds check. About a third
    faster on a small table the cache holds (100,000 reads of a 3,000-entry int64 table: 44 µs against 66 µs), a
    few percent on a batch's arrays. An index out of range would wrap instead of raising: for the indices the engine
    makes itself (a batch's rows, its combatants, a table's rows), never for input."""
    out: npt.NDArray[Cell] = arr.take(at, axis=axis, mode="wrap")
    return out


@lru_cache(maxsize=8)
def row_offsets(n: int, k: int) -> IntArray:
    """0, k, 2k, ... (n of them), read-only, one object per (n, k): row i's first flat index in an (n, k) array."""
    out = np.arange(n, dtype=np.int64) * k
    out.flags.writeable = False
    return out


def cells(rows: Any, width: int, who: Any) -> IntArray:
    """rows * width + who: each row's cell of combatant `who` in a (rows, `width`) array, as a flat index; `who` added
    in place where it has the rows' shape or is one value (no second array of the rows' size)."""
    flat: IntArray = np.asarray(rows, dtype=np.int64) * width
    if type(who) is not np.ndarray:  # a number, or a list: as an array (`np.ndim`/`np.shape` cost a call each)
        who = np.asarray(who)
    if who.ndim == 0 or who.shape == flat.shape:
        flat += who
        return flat
    return flat + who


def spread(values: Any, rows: IntArray, n: int) -> IntArray:
    """A column of a batch's `n` rows: `values` (one per row of `rows`) at `rows`, 0 elsewhere (an outcome of no
    resolve, an argument off the rows an attack is on)."""
    column = np.zeros(n, dtype=np.int64)
    column[rows] = values
    return column


def rows_after(at: IntArray, idx: IntArray, n: int) -> tuple[IntArray, IntArray]:
    """Rows `at` of a batch of `n`, after its rows are re-indexed by `idx` (each new row's parent, as `resolve` and
    `roll` return it where the exact chain expands a row by its outcomes): the new rows whose parent is in `at`, in
    order, and for each the place of its parent in `at` (where a value held one per row of `at` is read)."""
    place = np.full(n, -1, dtype=np.int64)
    place[at] = np.arange(at.size)
    came = place.take(idx)
    new = np.flatnonzero(came >= 0)
    return new, came.take(new)


def gather_stats(per: Any, stats: Sequence[str], rows: IntArray, who: IntArray) -> dict[str, IntArray]:
    """Each stat's entry per[stat][rows, who] (arrays of fights x combatants), by one flat index for them all."""
    if not stats:
        return {}
    return read_cells(per, stats, stat_cells(per, rows, who))


def stat_cells(per: Any, rows: Any, who: Any) -> IntArray:
    """rows * combatants + who: each row's cell of combatant `who` in the state's arrays of fights x combatants
    (`per`), as a flat index: read by `read_cells`, and written through by a change given it (`Change.cells`)."""
    return cells(rows, next(iter(per.values())).shape[1], who)


def read_cells(per: Any, stats: Sequence[str], flat: IntArray) -> dict[str, IntArray]:
    """Each stat's entries at the flat cells `flat` of the state's arrays of fights x combatants (`stat_cells`)."""
    return {s: read_flat(per[s], flat) for s in stats}


def read_flat(arr: npt.NDArray[Cell], flat: Any) -> npt.NDArray[Cell]:
    """arr.reshape(-1)[flat] for a 2-D array of fights x combatants read at flat cells (rows x width + who). A stat
    a batch holds as one row for every fight (a zero-stride view: no event has written it) is read from that row,
    at each cell's column, not copied out whole first."""
    if one_row_for_all(arr):
        return take_at(arr[0], np.remainder(flat, arr.shape[1]))
    return take_at(np.ascontiguousarray(arr).reshape(-1), flat)


def and_rows(x: BoolArray, mask: BoolArray) -> BoolArray:
    """x & mask[:, None] for a 2-D bool array x and a mask per row (each packed row times the mask when
    possible: broadcasting over a short last axis is slow)."""
    n, k = x.shape
    if k in _PACKED and x.flags.c_contiguous and x.dtype == np.bool_:
        packed = x.view(_PACKED[k]).reshape(n) * mask
        out: BoolArray = packed.view(np.bool_).reshape(n, k)
        return out
    return x & mask[:, None]


def pair_rows(usable: BoolArray, foes: BoolArray) -> BoolArray:
    """usable[:, :, None] & foes[:, None, :] for `usable` (rows, attacks) and `foes` (rows, combatants), or
    usable[:, :, None] & foes for `foes` (rows, attacks, combatants): per row, each attack's pairs with a foe. With
    one attack, the foes' packed rows times the mask (broadcasting a short axis is slow)."""
    n, na = usable.shape
    if na == 1:
        out: BoolArray = and_rows(np.ascontiguousarray(foes).reshape(n, -1), usable[:, 0])[:, None, :]
        return out
    return usable[:, :, None] & (foes if foes.ndim == 3 else foes[:, None, :])


def rows_of(table: Any, who: IntArray) -> Any:
    """table[who] for a small per-combatant table (combatants, ...): one row per fight. `take` is many times
    faster than fancy indexing along the first axis for such tables."""
    return take_at(np.asarray(table), who, axis=0)


def select(mask: BoolArray, *arrays: Any) -> tuple[Any, ...]:
    """Each array at the True entries of `mask` (1-D, all the same length): the arrays themselves when every
    entry is True, else by index (`take`; much faster than boolean indexing)."""
    if mask.all():
        return arrays
    (idx,) = mask.nonzero()  # 1-D: `flatnonzero`'s positions without its ravel
    return tuple(take_at(np.asarray(a), idx, axis=0) for a in arrays)


def dense_rank(values: IntArray) -> tuple[int, IntArray]:
    """(number of distinct values, rank of each value among them): np.unique's inverse, sort-free when the
    values span a small range (a table of one entry per value in the range, against the sort's n log n)."""
    n = values.size
    if n == 0:
        return 0, values.astype(np.int64)
    lo, hi = int(values.min()), int(values.max())
    if hi - lo < min(1 << 19, RANGE_PER_ROW * n + 4096):
        present = np.zeros(hi - lo + 1, dtype=bool)
        present[values - lo] = True
        rank = np.cumsum(present) - 1
        return int(rank[-1]) + 1, rank[values - lo].astype(np.int64)
    uniq, inv = np.unique(values, return_inverse=True)
    return len(uniq), inv.reshape(-1).astype(np.int64)


def distinct(columns: Sequence[Any]) -> tuple[IntArray, IntArray]:
    """(first, inverse) of the rows the integer `columns` make: the index of each distinct row's first
    occurrence, the distinct rows in lexicographic order (as `np.unique(axis=0)` orders them), and each row's
    group. The columns read as the digits of one integer key (each column less its least value, in the base of its
    span: the first column the most significant, so the keys sort as the rows do), ranked once; a key that would
    pass 62 bits is replaced by its rank first (below n). Far faster than sorting whole rows."""
    n = len(columns[0])
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    key = np.zeros(n, dtype=np.int64)
    keys = 1  # how many values the key can take
    for col in columns:
        col = np.asarray(col, dtype=np.int64)
        lo, hi = int(col.min()), int(col.max())
        span = hi - lo + 1
        if span >= 1 << 31:  # a column of far-apart values: its rank instead
            span, col, lo = *dense_rank(col), 0
        if keys * span >= 1 << 62:
            keys, key = dense_rank(key)
        key = key * span + (col - lo) if span > 1 else key
        keys *= span
    groups, code = dense_rank(key)
    return first_of_each(code, groups), code


def first_of_each(group: IntArray, groups: int) -> IntArray:
    """Each group's first row: the least row whose `group` entry is that group (0..groups-1), `group.size` (the
    number of rows) where no row is. A minimum per group (`np.minimum.at`, defined for repeated indices), not a
    reversed fancy write whose last write would win: numpy leaves the order of repeated writes through an index
    undefined."""
    first = np.full(groups, group.size, dtype=np.int64)
    np.minimum.at(first, group, np.arange(group.size, dtype=np.int64))
    return first
