"""The exact chain's states numbered a batch at a time (issue 42, item 3): one binary search per batch in a sorted
index of the rows found so far, the new ones numbered next in their order, the rows read back by number."""

from __future__ import annotations

import numpy as np

from tohit.engine.fight.chain_states import FoundStates


def test_states_are_numbered_in_the_order_found_and_found_again_by_their_rows() -> None:
    found = FoundStates(np.asarray([[5, 1, 0]]))
    batch = np.asarray([[9, 9, 9], [5, 1, 0], [0, 0, 7], [-3, 2, 1]])
    numbers = found.lookup(batch)
    assert numbers.tolist() == [-1, 0, -1, -1]
    assert found.add(batch[numbers < 0]).tolist() == [1, 2, 3]
    assert len(found) == 4
    assert found.lookup(np.asarray([[0, 0, 7], [-3, 2, 1], [9, 9, 9], [5, 1, 0], [5, 1, 1]])).tolist() == [
        2,
        3,
        1,
        0,
        -1,
    ]
    assert found[1:3].tolist() == [[9, 9, 9], [0, 0, 7]]


def test_many_batches_grow_the_rows_and_keep_every_number() -> None:
    rng = np.random.default_rng(7)
    rows = np.unique(rng.integers(-50, 50, size=(3000, 4)), axis=0)
    rows = rows[rng.permutation(len(rows))]
    found = FoundStates(rows[:1])
    for start in range(1, len(rows), 97):
        batch = rows[start : start + 97]
        assert (found.lookup(batch) == -1).all()
        found.add(batch)
    assert len(found) == len(rows)
    assert found.lookup(rows).tolist() == list(range(len(rows)))
    assert (found[0 : len(rows)] == rows).all()


def test_a_state_of_no_columns_is_one_state() -> None:
    found = FoundStates(np.zeros((1, 0), dtype=np.int64))
    assert found.lookup(np.zeros((3, 0), dtype=np.int64)).tolist() == [0, 0, 0]
