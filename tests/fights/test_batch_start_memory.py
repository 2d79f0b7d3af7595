"""Issue 42, "peak memory for 10,000,000 fights": a batch's start holds each per-combatant stat as one row for every
fight (a read-only, zero-stride view), not 100,000 copies of it. A stat an event writes becomes the batch's own
array at its first write; one no event writes (a maximum, an initiative) stays one row for the batch's life, and
every read of it reads that row. The same bytes for every bundled fight (tests/fights/test_fight_example_digests.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tohit.core.fight.rows import read_flat, take_rows
from tohit.core.fight.state import State, apply_event_changes, change, gather, held_row, own_copy
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes import TableSample

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "fights"
GROUP = EXAMPLES / "last-odyssey-cops.yaml"


def test_a_batchs_start_holds_each_stat_as_one_read_only_row_for_every_fight() -> None:
    """From ONE_ROW_FROM combatants (the example has five); a duel's batch keeps arrays of its own."""
    fight = load_fight(GROUP)
    start = initial_state(fight, 1000, narrow=True)
    one = initial_state(fight, 1)
    for stat, values in start.per.items():
        assert values.shape == (1000, fight.roster.size) and values.strides[0] == 0, stat
        assert not values.flags.writeable, stat
        assert (values == one.per[stat]).all(), stat
    plain = initial_state(fight, 1000)  # not a batch's: arrays of its own, as before
    assert all(v.flags.writeable and v.strides[0] != 0 for v in plain.per.values())
    duel = initial_state(load_fight(EXAMPLES / "kaiser-duel.yaml"), 1000, narrow=True)  # under ONE_ROW_FROM
    assert all(v.flags.writeable and v.strides[0] != 0 for v in duel.per.values())


@pytest.mark.parametrize("width", [1, 3, 8])
def test_a_stat_held_as_one_row_reads_as_the_whole_array_would(width: int) -> None:
    """`read_flat`, `gather` and `take_rows` read a zero-stride stat at its row: the values of the array copied out
    whole, at any cells; `held_row` is that row, and `own_copy` the whole array, the batch's own."""
    rng = np.random.default_rng(width)
    row = rng.integers(-50, 50, width).astype(np.int32)
    held = np.broadcast_to(row, (500, width))
    whole = np.ascontiguousarray(held)
    rows, who = rng.integers(0, 500, 300), rng.integers(0, width, 300)
    flat = rows * width + who
    assert read_flat(held, flat).tolist() == read_flat(whole, flat).tolist() == whole.reshape(-1)[flat].tolist()
    assert gather(held, rows, who).tolist() == whole[rows, who].tolist()
    assert gather(held, rows, 0).tolist() == whole[rows, 0].tolist()
    one_each = rng.integers(0, width, 500)
    assert take_rows(held, one_each).tolist() == whole[np.arange(500), one_each].tolist()
    assert read_flat(held, flat).dtype == np.int32
    assert held_row(held).tolist() == [row.tolist()] and held_row(whole) is whole
    copied = own_copy(held)
    assert copied.flags.writeable and copied.flags.c_contiguous and copied.dtype == np.int32
    assert copied.tolist() == whole.tolist() and own_copy(whole) is not whole


def test_a_step_owns_the_arrays_of_its_state_but_not_a_stat_held_as_one_row() -> None:
    """A batch's step writes its state's arrays in place (`own_input`), except a stat still held as one row for
    every fight: that one is copied at its first write, so no other fight's value moves."""
    fight = load_fight(GROUP)
    start = initial_state(fight, 50, narrow=True)
    ctx = TableSample(fight, start, np.random.default_rng(1), max_rounds=fight.max_rounds)
    ctx.own_input()
    assert ctx._owned == {(False, k) for k in start.fight}


def test_a_stat_held_as_one_row_is_tiled_into_the_batchs_own_array_at_its_first_write() -> None:
    """An event's change at some fights' cells: the new state's stat is an array of its own holding the change
    there and the row everywhere else; the row the batch started from is untouched (the copy is made whether or
    not the step owns its state: a one-row stat is never owned)."""
    row = np.asarray([10, 20, 30], dtype=np.int32)
    held: Any = np.broadcast_to(row, (5, 3))  # a batch's int32 stat (typed as the state's int arrays)
    state = State({"hp": held}, {"round": np.ones(5, dtype=np.int64)})
    copied: set[tuple[bool, str]] = set()
    after = apply_event_changes(state, [change("hp", [1, 3], [7, 8], [0, 2])], copied)
    hp = after.per["hp"]
    assert hp is not held and hp.flags.writeable and hp.dtype == np.int32
    assert hp.tolist() == [[10, 20, 30], [7, 20, 30], [10, 20, 30], [10, 20, 8], [10, 20, 30]]
    assert row.tolist() == [10, 20, 30] and held.strides[0] == 0


def test_a_stat_held_as_one_row_widened_past_the_narrow_limit_is_an_int64_array_in_c_order() -> None:
    """A first write past int32's limit widens the one-row stat to int64: an array of its own in C order (a copy
    of the zero-stride view in its own order would be in Fortran order, and every later read would copy it)."""
    held: Any = np.broadcast_to(np.asarray([10, 20, 30], dtype=np.int32), (5, 3))
    state = State({"hp": held}, {"round": np.ones(5, dtype=np.int64)})
    after = apply_event_changes(state, [change("hp", [1], [2**40], [2])], set())
    hp = after.per["hp"]
    assert hp.dtype == np.int64 and hp.flags.c_contiguous and hp.flags.writeable
    assert hp.tolist() == [[10, 20, 30], [10, 20, 2**40], [10, 20, 30], [10, 20, 30], [10, 20, 30]]


def test_take_rows_of_no_fights_is_no_rows() -> None:
    """An array of no rows has zero strides too: it is read as it always was, not as a one-row stat."""
    assert take_rows(np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=np.int64)).tolist() == []
    assert read_flat(np.zeros((0, 3), dtype=np.int64), np.zeros(0, dtype=np.int64)).tolist() == []
