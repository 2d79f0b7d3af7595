"""The table sampler's grouping of a resolve's rows (issue 42): through a table of one entry per packed code while
the codes are few, by a dense rank beyond; the same groups, in the same (increasing code) order, either way; and
the batch's tally of rounds, by one count per round or by sorting, the same."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.core.fight.rows import dense_rank
from tohit.engine.fight import tally
from tohit.engine.fight.modes.table import _Groups


@pytest.mark.parametrize("radix", [1, 7, 5_000, 1 << 30])
def test_groups_are_the_dense_ranks_of_the_codes(radix: int) -> None:
    """Each row's group is its code's dense rank, and each group's first row is where its code first comes."""
    rng = np.random.default_rng(radix)
    code = rng.integers(0, radix, size=2_000).astype(np.int64)
    groups = _Groups(code, radix)
    count, rank = dense_rank(code)
    assert groups.first.size == count
    assert np.array_equal(groups.each(list(range(count))), rank)
    firsts = [int(np.flatnonzero(rank == g)[0]) for g in range(count)]
    assert groups.first.tolist() == firsts
    assert (groups.by_code is None) == (radix == 1 or radix > 8 * code.size + 4096)


def test_the_tally_counts_rounds_alike_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rounds' counts, by `np.bincount` below ROUND_COUNTS and by sorting above it: the same dict, in the same
    order."""
    rng = np.random.default_rng(1)
    parts = [rng.integers(1, 40, size=500) for _ in range(3)]

    def tallied() -> dict[int, int]:
        totals = tally.FightTally.empty(2, 2)
        for rounds in parts:
            n = rounds.size
            zeros = np.zeros((n, 2), dtype=np.int64)
            totals.add((np.zeros(n, dtype=np.int64), rounds, zeros, zeros.astype(bool), zeros))
        return totals.rounds

    counted = tallied()
    monkeypatch.setattr(tally, "ROUND_COUNTS", 0)
    sorted_ = tallied()
    assert list(counted.items()) == list(sorted_.items())
    assert sum(counted.values()) == 1_500
