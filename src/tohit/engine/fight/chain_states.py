"""The exact chain's states as it finds them (`exact`): each state one row of integers (`layout.Layout.matrix`),
numbered in the order found. A batch of rows is numbered at once: the rows' bytes looked up by one binary search
(`np.searchsorted`) in a sorted index of the states found so far, the new ones numbered next in the batch's order;
no state is a Python object of its own."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tohit.core.fight.state import IntArray


class FoundStates:
    """The states found so far: their rows in the order found (`len`, slices) and their numbers by their rows."""

    def __init__(self, first: npt.NDArray[np.int64]) -> None:
        first = np.ascontiguousarray(first, dtype=np.int64).reshape(1, -1)
        self._rows = first.copy()
        self._count = 1
        self._key = np.dtype((np.void, max(first.shape[1], 1) * 8))
        self._index = self._keys(first)  # the rows' bytes, sorted
        self._numbers = np.zeros(1, dtype=np.int64)  # the state number of each entry of the index

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, where: slice) -> npt.NDArray[np.int64]:
        """The rows of the states numbered in `where` (a slice)."""
        return self._rows[: self._count][where]

    def _keys(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.void]:
        """Each row's bytes as one value (a row of no columns: one zero)."""
        if rows.shape[1] == 0:
            rows = np.zeros((rows.shape[0], 1), dtype=np.int64)
        keys: npt.NDArray[np.void] = np.ascontiguousarray(rows, dtype=np.int64).view(self._key).ravel()
        return keys

    def lookup(self, rows: npt.NDArray[np.int64]) -> IntArray:
        """Each row's state number, -1 for a state not found yet."""
        keys = self._keys(rows)
        at = np.searchsorted(self._index, keys)
        inside = at < self._index.size
        found = np.zeros(keys.size, dtype=bool)
        found[inside] = self._index[at[inside]] == keys[inside]
        out = np.full(keys.size, -1, dtype=np.int64)
        out[found] = self._numbers[at[found]]
        return out

    def add(self, rows: npt.NDArray[np.int64]) -> IntArray:
        """Number the rows (distinct states not found yet) next, in their order; their numbers."""
        numbers = np.arange(self._count, self._count + rows.shape[0], dtype=np.int64)
        if self._count + rows.shape[0] > self._rows.shape[0]:
            grown = np.empty((2 * (self._count + rows.shape[0]), self._rows.shape[1]), dtype=np.int64)
            grown[: self._count] = self._rows[: self._count]
            self._rows = grown
        self._rows[self._count : self._count + rows.shape[0]] = rows
        self._count += rows.shape[0]
        keys = self._keys(rows)
        order = np.argsort(keys, kind="stable")  # inserted in sorted order: equal places keep the index sorted
        at = np.searchsorted(self._index, keys[order])
        self._index = np.insert(self._index, at, keys[order])
        self._numbers = np.insert(self._numbers, at, numbers[order])
        return numbers
