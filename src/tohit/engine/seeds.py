"""A fresh seed for a run given none, in a module of its own: a single roll draws one without loading the
simulation engine (`tohit roll FILE` as a process)."""

from __future__ import annotations

import numpy as np


def fresh_seed() -> int:
    """A new seed, reported in the output so the run can be repeated."""
    return int(np.random.SeedSequence().entropy % (1 << 63))  # type: ignore[operator]
