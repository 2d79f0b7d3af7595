"""A change over every row of a batch is one whole-array write (issue 42, round 2): the same state as a write
through the row index, the shared rows read-only, the step's input never written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tohit.core.fight.rows import read_cells, stat_cells
from tohit.core.fight.state import Change, Event, State, apply, apply_owned, change, every_row
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes import TableSample
from tohit.engine.fight.run import initial_state


def _state(n: int) -> State:
    return State({"hp": np.arange(2 * n, dtype=np.int64).reshape(n, 2)}, {"cursor": np.zeros(n, dtype=np.int64)})


def test_every_row_is_one_read_only_object_per_size() -> None:
    rows = every_row(5)
    assert rows is every_row(5)
    assert rows.tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        rows[0] = 1


def test_change_keeps_a_one_dimensional_index_as_it_is() -> None:
    assert change("cursor", every_row(4), 1).rows is every_row(4)


@pytest.mark.parametrize(
    "rows",
    [every_row(4), np.arange(4, dtype=np.int64)],
    ids=["shared", "equal"],
)
def test_a_change_over_every_row_writes_the_whole_column(rows: np.ndarray) -> None:
    state = _state(4)
    to = np.asarray([3, 1, 4, 1], dtype=np.int64)
    after = apply(state, [Event("turn", (change("cursor", rows, to),))])
    assert after.fight["cursor"].tolist() == [3, 1, 4, 1]
    assert state.fight["cursor"].tolist() == [0, 0, 0, 0]  # the input is never written


@pytest.mark.parametrize(
    "rows",
    [[3, 2, 1, 0], [0, 0, 2, 3], [0, 2, 2, 3], [0, 1, 2]],
    ids=["reversed", "repeated-first", "repeated-middle", "short"],
)
def test_other_rows_are_written_through_the_index(rows: list[int]) -> None:
    """Rows that are not 0..n-1 in order (ends alike, middle not; repeats) are written row by row, as before."""
    state = _state(4)
    index = np.asarray(rows, dtype=np.int64)
    to = np.asarray([5, 6, 7, 8][: index.size], dtype=np.int64)
    expected = np.zeros(4, dtype=np.int64)
    expected[index] = to
    after = apply_owned(state, [Event("turn", (Change("cursor", index, to),))], set())
    assert after.fight["cursor"].tolist() == expected.tolist()


def test_one_value_over_every_row_is_written_owned() -> None:
    state = _state(3)
    column = state.fight["cursor"]
    after = apply_owned(state, [Event("round", (change("cursor", every_row(3), 7),))], {(False, "cursor")})
    assert after.fight["cursor"] is column  # owned: written in place
    assert column.tolist() == [7, 7, 7]


def _batch(n: int) -> TableSample:
    fight = load_fight(Path(__file__).resolve().parents[2] / "examples" / "fights" / "fullplate-skirmish.yaml")
    return TableSample(fight, initial_state(fight, n), np.random.default_rng(1))


def test_a_mask_true_everywhere_sets_every_row() -> None:
    """`set` of a mask true on every fight hands the shared `every_row` (a whole-array write); a step's `parent`
    is it too (read-only: an expansion replaces it)."""
    ctx = _batch(4)
    assert ctx.parent is every_row(4)
    assert ctx.set("cursor", np.ones(4, dtype=bool), 2).rows is every_row(4)
    part = ctx.set("cursor", np.asarray([True, False, True, True]), np.asarray([5, 6, 7, 8]))
    assert part.rows.tolist() == [0, 2, 3] and part.to.tolist() == [5, 7, 8]


def test_a_change_given_its_cells_writes_what_one_made_from_its_rows_and_combatants_writes() -> None:
    """`Change.cells` (the cells a step read a stat at, `stat_cells`): written through as they are, the same state as
    the change of the same rows and combatants without them; cells that are not one per row are refused."""
    rng = np.random.default_rng(5)
    n = 40
    rows = np.flatnonzero(rng.random(n) < 0.5)
    who = rng.integers(0, 2, rows.size)
    to = rng.integers(-9, 9, rows.size)
    at = stat_cells(_state(n).per, rows, who)
    assert np.array_equal(read_cells(_state(n).per, ("hp",), at)["hp"], _state(n).per["hp"][rows, who])
    plain = apply(_state(n), [Event("hit", (change("hp", rows, to, who),))])
    given = apply(_state(n), [Event("hit", (change("hp", rows, to, who, at),))])
    assert np.array_equal(given.per["hp"], plain.per["hp"])
    assert not np.array_equal(plain.per["hp"], _state(n).per["hp"])
    other = stat_cells(_state(n).per, rows, 1 - who)  # the cells are what is written: those of the other combatant
    written = apply(_state(n), [Event("hit", (change("hp", rows, to, who, other),))]).per["hp"]
    assert np.array_equal(written[rows, 1 - who], to)
    assert np.array_equal(written[rows, who], _state(n).per["hp"][rows, who])
    with pytest.raises(ValueError, match="cells of hp"):
        change("hp", rows, to, who, at[1:])
    with pytest.raises(ValueError, match="cells of hp"):
        change("hp", rows, to, None, at)


def test_one_value_for_every_row_of_a_change_is_one_shared_read_only_view() -> None:
    """A change to one value (a Python int or a one-element array) holds it as a read-only stride-0 view, one object
    per value and row count: changes only read it, so two changes share it."""
    a = change("hp", np.arange(5), 3)
    b = change("ap", np.arange(2, 7), np.asarray([3]), 1)
    assert a.to is b.to and not a.to.flags.writeable and a.to.strides == (0,) and a.to.tolist() == [3] * 5
    assert b.who is not None and b.who.tolist() == [1] * 5
    assert change("hp", np.arange(4), 3).to.tolist() == [3] * 4
    with pytest.raises(ValueError):
        a.to[0] = 4
