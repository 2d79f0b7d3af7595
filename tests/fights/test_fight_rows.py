"""The row-wise reductions the step code uses (core/fight/rows.py) equal numpy's own, for every width."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.core.fight.rows import (
    and_rows,
    any_rows,
    count_rows,
    first_rows,
    gather_stats,
    min_rows,
    pair_rows,
    rows_of,
    select,
    take_rows,
)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 4, 5, 8, 16, 17, 40])
def test_fight_rows_reductions_equal_numpy(k: int) -> None:
    rng = np.random.default_rng(k)
    x = rng.random((500, k)) < 0.3
    x[:7] = False  # rows with no True at all
    for arr in (x, x[:, ::-1], np.asfortranarray(x)):  # contiguous, strided, column-major
        assert np.array_equal(any_rows(arr), arr.any(axis=1))
        assert np.array_equal(count_rows(arr), arr.sum(axis=1))
        if k:
            assert np.array_equal(first_rows(arr), np.argmax(arr, axis=1))
        mask = rng.random(500) < 0.5
        assert np.array_equal(and_rows(arr, mask), arr & mask[:, None])
        assert all(
            np.array_equal(got, want)
            for got, want in zip(select(mask, arr, arr[:, :1]), (arr[mask], arr[mask, :1]), strict=True)
        )
    if k:
        ints = rng.integers(-5, 9, (500, k))
        assert np.array_equal(rows_of(ints, np.arange(500) % k), ints[np.arange(500) % k])
        assert np.array_equal(min_rows(ints), ints.min(axis=1))
        values = rng.integers(0, 9, (500, k, 3))
        who = rng.integers(0, k, 500)
        assert np.array_equal(take_rows(values, who), values[np.arange(500), who])


@pytest.mark.parametrize("attacks", [1, 2, 3])
def test_fight_rows_pairs_equal_numpy(attacks: int) -> None:
    """`pair_rows`: each attack's pairs with a foe, from the foes of each row or from each attack's own."""
    rng = np.random.default_rng(attacks)
    usable = rng.random((300, attacks)) < 0.6
    foes = rng.random((300, 8)) < 0.4
    reach = rng.random((300, attacks, 8)) < 0.4
    assert np.array_equal(pair_rows(usable, foes), usable[:, :, None] & foes[:, None, :])
    assert np.array_equal(pair_rows(usable, reach), usable[:, :, None] & reach)


def test_fight_rows_gather_stats_equal_numpy() -> None:
    """`gather_stats`: each stat's entry at (row, combatant), one flat index for them all."""
    rng = np.random.default_rng(3)
    per = {s: rng.integers(-9, 9, (200, 6)) for s in ("life", "guard")}
    rows, who = np.arange(0, 200, 3), rng.integers(0, 6, 67)
    got = gather_stats(per, ("life", "guard"), rows, who)
    assert all(np.array_equal(got[s], per[s][rows, who]) for s in per)
    assert gather_stats(per, (), rows, who) == {}
