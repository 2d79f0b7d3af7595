"""The distinct rows of a batch (`rows.distinct`, issue 42 item 3: the exact chain's states numbered a batch at a time,
the Monte Carlo loop's situations grouped): the columns read as the digits of one integer key, ranked once, with
np.unique's answers (first occurrences, rows in lexicographic order, each row's group) on any columns."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.core.fight import rows
from tohit.core.fight.rows import dense_rank, distinct, first_of_each


def _unique(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(axis=0)'s first occurrences and inverse of the rows the columns make (the reference)."""
    _, first, inverse = np.unique(np.stack(columns, axis=1), axis=0, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


@pytest.mark.parametrize("seed", range(12))
def test_distinct_rows_are_np_uniques_whatever_the_columns_span(seed: int) -> None:
    """Columns of a few values, of negative values, of values far apart (a column spanning 2**31 or more is ranked
    first), and so many wide columns that the key would pass 62 bits (it is ranked on the way): the same first
    occurrences, order and groups as np.unique."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3000))
    spans = rng.choice([1, 2, 5, 40, 1000, 1 << 20, 1 << 33, 1 << 62], size=int(rng.integers(1, 12)))
    columns = [rng.integers(-(int(s) // 2), int(s) - int(s) // 2, size=n) for s in spans]
    columns = [c if rng.random() < 0.5 else c[rng.integers(0, max(1, n // 4), size=n)] for c in columns]  # repeats
    first, inverse = distinct(columns)
    want_first, want_inverse = _unique(columns)
    assert first.tolist() == want_first.tolist() and inverse.tolist() == want_inverse.tolist()


def test_distinct_of_no_rows_is_empty() -> None:
    first, inverse = distinct([np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)])
    assert first.size == 0 and inverse.size == 0


def test_distinct_ranks_one_key_not_every_column(monkeypatch: pytest.MonkeyPatch) -> None:
    """Columns whose spans multiply to fewer than 2**62 make one key, ranked once (each rank costs a table or a sort
    as long as the batch): twenty columns of a health, a status and a turn, one rank."""
    calls: list[int] = []
    real = rows.dense_rank

    def counted(values: np.ndarray) -> tuple[int, np.ndarray]:
        calls.append(values.size)
        return real(values)

    monkeypatch.setattr(rows, "dense_rank", counted)
    rng = np.random.default_rng(5)
    columns = [rng.integers(0, 8, size=5000) for _ in range(20)]
    first, inverse = distinct(columns)
    assert calls == [5000]
    want_first, want_inverse = _unique(columns)
    assert first.tolist() == want_first.tolist() and inverse.tolist() == want_inverse.tolist()


@pytest.mark.parametrize(("n", "span"), [(1, 1), (50, 10), (5000, 4000), (5000, 200_000), (100, 1 << 40)])
def test_dense_rank_is_np_uniques_inverse_by_table_or_by_sort(n: int, span: int) -> None:
    """Values of a small span are ranked through a table of one entry per value, others by sorting: either way the
    count of distinct values and each value's rank are np.unique's."""
    values = np.random.default_rng(n).integers(-span // 2, span - span // 2, size=n)
    count, rank = dense_rank(values)
    uniq, inverse = np.unique(values, return_inverse=True)
    assert count == uniq.size and rank.tolist() == inverse.reshape(-1).tolist()


@pytest.mark.parametrize(("n", "groups"), [(0, 3), (1, 1), (7, 3), (5000, 16), (5000, 4000)])
def test_each_group_s_first_row_is_its_least_row_however_often_it_repeats(n: int, groups: int) -> None:
    """`first_of_each`: each group's first row, whatever the order numpy would write repeated indices in (a minimum
    per group, not the last of a reversed write); a group no row is in gets `n`."""
    group = np.random.default_rng(n).integers(0, groups, size=n)
    want = np.full(groups, n)
    present, first = np.unique(group, return_index=True)  # each value's first index (numpy's own reference)
    want[present] = first
    assert first_of_each(group, groups).tolist() == want.tolist()
