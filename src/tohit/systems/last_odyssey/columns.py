"""An outcome column of one value (`Outcome.set` copies it), for the attack's steps (rules.py)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tohit.core.fight.state import IntArray


def constant(n: int, value: int) -> IntArray:
    """n copies of `value` (Outcome.set copies it); small ones (exact odds, rolls) are made once."""
    return _small_constant(n, value) if n <= 64 else np.full(n, value, dtype=np.int64)


@lru_cache(maxsize=512)
def _small_constant(n: int, value: int) -> IntArray:
    array = np.full(n, value, dtype=np.int64)
    array.flags.writeable = False
    return array
