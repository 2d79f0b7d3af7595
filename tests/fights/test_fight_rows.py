"""The row-wise reductions the step code uses (core/fight/rows.py) equal numpy's own, for every width."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.core.fight.rows import (
    and_rows,
    any_rows,
    cells,
    count_rows,
    first_rows,
    gather_stats,
    lowest_rows,
    min_rows,
    pair_rows,
    rows_after,
    rows_of,
    select,
    spread,
    take_at,
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


@pytest.mark.parametrize("k", [1, 2, 3, 8, 17])
def test_fight_rows_lowest_rows_is_numpys_argmin_of_the_masked_values(k: int) -> None:
    """The weakest foe's column: the lowest value where the mask is set, ties to the first, for any int64 (the
    extremes included, where a sum of the mask and the value would overflow)."""
    rng = np.random.default_rng(k)
    top, bottom = np.iinfo(np.int64).max, np.iinfo(np.int64).min
    values = rng.integers(-3, 4, (600, k))
    values[:100] = rng.choice([bottom, bottom + 1, -1, 0, 1, top - 1, top], (100, k))
    mask = rng.random((600, k)) < 0.5
    mask[:7] = False  # rows with nothing to pick
    for arr, vals in ((mask, values), (mask[:, ::-1], values[:, ::-1]), (np.asfortranarray(mask), values)):
        want = np.argmin(np.where(arr, vals, top), axis=1)
        assert np.array_equal(lowest_rows(arr, vals), want)


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


def test_fight_rows_take_at_gives_takes_entries_for_every_index_in_range() -> None:
    """`take_at` (take's "wrap" mode) reads what the default `take` reads at every index in range, the negative ones
    counted from the end as numpy counts them, on 1-D tables and along the rows of a 2-D array."""
    rng = np.random.default_rng(3)
    table = rng.integers(-50, 50, 37)
    at = rng.integers(-37, 37, 1_000)  # every index in range, negatives included
    assert (at < 0).any()
    assert np.array_equal(take_at(table, at), table.take(at))
    grid = rng.integers(0, 9, (37, 3))
    assert np.array_equal(take_at(grid, at, axis=0), grid.take(at, axis=0))
    assert take_at(table, at).dtype == table.dtype


def test_fight_rows_cells_are_each_rows_flat_index_whatever_the_shapes() -> None:
    """`cells(rows, width, who)` is rows * width + who: with one combatant for every row, with one row and many
    combatants, and with rows and combatants of the same shape (added in place)."""
    rows, who = np.array([0, 3, 4]), np.array([1, 0, 2])
    assert cells(rows, 3, who).tolist() == [1, 9, 14]
    assert cells(rows, 3, 2).tolist() == [2, 11, 14]
    assert cells(2, 3, who).tolist() == [7, 6, 8]
    assert cells(rows, 3, [1, 0, 2]).tolist() == [1, 9, 14]  # a list of combatants, a numpy number
    assert cells(rows, 3, np.int64(1)).tolist() == [1, 10, 13]
    grid = np.arange(15).reshape(5, 3)
    assert np.array_equal(grid.reshape(-1).take(cells(rows, 3, who)), grid[rows, who])


def test_fight_rows_spread_puts_each_rows_value_at_its_row_and_0_elsewhere() -> None:
    rows = np.asarray([1, 4, 5])
    assert spread(np.asarray([7, -2, 3]), rows, 7).tolist() == [0, 7, 0, 0, -2, 3, 0]
    assert spread(np.asarray([], dtype=np.int64), rows[:0], 3).tolist() == [0, 0, 0]


def test_fight_rows_rows_after_follows_rows_through_an_expansion() -> None:
    """Rows 1 and 3 of a batch of 4, row 1 expanded in three (the exact chain's idx): the new rows whose parent is
    one of them, and where each parent is among them."""
    idx = np.asarray([0, 1, 1, 1, 2, 3])
    new, read = rows_after(np.asarray([1, 3]), idx, 4)
    assert new.tolist() == [1, 2, 3, 5] and read.tolist() == [0, 0, 0, 1]
    rng = np.random.default_rng(3)
    at = np.flatnonzero(rng.random(50) < 0.4)
    idx = np.sort(rng.integers(0, 50, 120))
    mask = np.zeros(50, dtype=bool)
    mask[at] = True
    new, read = rows_after(at, idx, 50)
    assert np.array_equal(new, np.flatnonzero(mask[idx])) and np.array_equal(at[read], idx[new])
