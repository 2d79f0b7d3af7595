"""Exact sampling from integer weights: Walker's alias method in integer arithmetic.

Each of the K columns holds capacity `total`; column c keeps outcome c with threshold thr[c] and gives
the rest to alias[c]. Drawing c uniform in [0, K) and r uniform in [0, total) picks c when r < thr[c],
else alias[c]: each outcome's probability is exactly weight / total, with no float in the way.
When the total is small, a direct table of `total` atoms is used instead (one draw, one lookup).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tohit.core.fight.rows import take_at

ATOM_TABLE_MAX = 1 << 16
MAX_TOTAL = (1 << 63) - 1


class Alias:
    def __init__(self, weights: Sequence[int]) -> None:
        k = len(weights)
        total = sum(int(w) for w in weights)
        if k == 0 or total <= 0:
            raise ValueError("need at least one positive weight")
        if total > MAX_TOTAL:
            raise ValueError("total weight too large for the alias sampler")
        self.k, self.total = k, total
        self.index_dtype = np.uint16 if k <= 1 << 16 else np.uint32
        if total <= ATOM_TABLE_MAX:
            # int64: the index every caller takes its outcomes by (a narrower one is widened by each `take`)
            self.atoms: npt.NDArray[np.int64] | None = np.repeat(
                np.arange(k, dtype=np.int64), np.asarray([int(w) for w in weights], dtype=np.int64)
            )
            #: One atom per index (every weight 1, a fair die): an atom is its index, no lookup needed.
            self.one_each = total == k
            return
        self.atoms = None
        mass = [int(w) * k for w in weights]
        thr = [total] * k
        alias = list(range(k))
        small = [i for i, m in enumerate(mass) if m < total]
        large = [i for i, m in enumerate(mass) if m >= total]
        while small and large:
            s, g = small.pop(), large[-1]
            thr[s], alias[s] = mass[s], g
            mass[g] -= total - mass[s]
            if mass[g] < total:
                small.append(large.pop())
        self.r_dtype = np.uint64 if total >= 1 << 32 else np.uint32
        self.thr = np.asarray(thr, dtype=self.r_dtype)
        # Where the column gives way to its alias, the index moves by `delta` (int32 keeps the gathers small).
        self.delta = (np.asarray(alias, dtype=np.int64) - np.arange(k, dtype=np.int64)).astype(np.int32)

    def counts(self, rng: np.random.Generator, n: int) -> npt.NDArray[np.int64]:
        """How many of n independent draws pick each index (the same law as `sample`, without the draws).

        With the atom table, the atoms of one index are contiguous, so the per-atom counts are summed per
        index exactly in integers: no per-draw lookup.
        """
        if self.atoms is None:
            return np.bincount(self.sample(rng, n), minlength=self.k).astype(np.int64)
        draws = rng.integers(0, self.total, size=n, dtype=np.uint16 if self.total <= 1 << 16 else np.uint32)
        per_atom = np.bincount(draws, minlength=self.total).astype(np.int64)
        if self.total == self.k:  # one atom per index (a fair die): the counts are the answer
            return per_atom
        present = np.flatnonzero(np.bincount(self.atoms, minlength=self.k))
        out = np.zeros(self.k, dtype=np.int64)
        out[present] = np.add.reduceat(per_atom, np.searchsorted(self.atoms, present, side="left"))
        return out

    def sample(self, rng: np.random.Generator, n: int) -> npt.NDArray[np.int64]:
        """n independent indices with probability weight / total each (int64)."""
        if self.atoms is not None:
            atom_dtype = np.uint16 if self.total <= 1 << 16 else np.uint32
            drawn = rng.integers(0, self.total, size=n, dtype=atom_dtype)
            if self.one_each:  # each draw is its index: widened alone
                return drawn.astype(np.int64)
            return take_at(self.atoms, drawn)
        column = rng.integers(0, self.k, size=n, dtype=self.index_dtype)
        r = rng.integers(0, self.total, size=n, dtype=self.r_dtype)
        picked = column.astype(np.int64)  # widened once: both lookups index by it as it is
        picked += np.greater_equal(r, take_at(self.thr, picked)) * take_at(self.delta, picked)
        return picked
