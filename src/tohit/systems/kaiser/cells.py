"""Fast forms of numpy's scans for Kaiser's fight, which runs them on every step of a batch of up to 100,000
fights: whether a stat may be set anywhere, and the (row, column) cells of a 2-D mask from its flat positions."""

from __future__ import annotations

import weakref
from functools import partial

import numpy as np

from tohit.core.fight.state import BoolArray, IntArray, held_row

#: The stat arrays `maybe_set` found set somewhere, by identity while they live (each entry removed as its array goes).
_FOUND_SET: dict[int, weakref.ref[IntArray]] = {}


def maybe_set(stat: IntArray) -> bool:
    """Whether a stat's array (ints) may be set somewhere, for a caller that skips work no set entry needs: stat.any()
    (one OR over its entries, which numpy runs much faster than `any`'s test of each entry), and True without a look
    for an array found set before. A batch's events write its arrays in place, so such an array may be all 0 again
    (a penalty that faded): a caller that does the work then finds nothing to do, as it would on any 0 entry."""
    key = id(stat)
    held = _FOUND_SET.get(key)
    if held is not None and held() is stat:
        return True
    if not np.bitwise_or.reduce(held_row(stat).reshape(-1)):  # a stat a batch holds as one row: that row
        return False
    _FOUND_SET[key] = weakref.ref(stat, partial(_forget, key))
    return True


def _forget(key: int, _: weakref.ref[IntArray]) -> None:
    """An array `maybe_set` found set is gone: its entry too (a new array may be given its identity)."""
    _FOUND_SET.pop(key, None)


def cells(x: BoolArray) -> tuple[IntArray, IntArray]:
    """np.nonzero(x) for a 2-D bool array (row, column of each True, in row order), from its flat positions:
    several times faster than a 2-D nonzero."""
    return split(np.flatnonzero(x), x.shape[1])


def split(at: IntArray, width: int) -> tuple[IntArray, IntArray]:
    """divmod(at, width) of flat positions in rows of `width`: by a shift and a mask where the width is a power of
    two (integer division is many times slower)."""
    if width > 0 and width & (width - 1) == 0:
        return at >> (width.bit_length() - 1), at & (width - 1)
    rows, columns = np.divmod(at, width)
    return rows, columns
