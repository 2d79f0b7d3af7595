"""The outcome fields the table sampler holds side by side (`engine/fight/columns.py`): rows taken in turn,
zeros where nothing was written, growth by half, int32 columns and reads while the values fit NARROW_LIMIT,
narrower columns past NARROW_ROWS rows, and every value kept through a growth or a widening."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.core.fight.state import NARROW_LIMIT
from tohit.engine.fight import columns
from tohit.engine.fight.columns import FieldColumns, value_range


class _Span:
    def __init__(self, offset: int, size: int) -> None:
        self.offset, self.size = offset, size


def test_rows_are_taken_in_turn_and_read_back_as_int32_with_zeros_where_nothing_was_written() -> None:
    held = FieldColumns(("a", "b"), used=1, rows=4)
    first = held.take(3, [-2, 0], [5, 9])
    second = held.take(4, [0, 0], [1, 1])
    assert (first, second, held.used) == (1, 4, 8)
    assert held.flags.size >= 8 and all(column.size == held.flags.size for column in held.columns)
    held.columns[0][first : first + 3] = [-2, 3, 5]
    held.flags[second] = True
    rows = np.arange(held.used)
    assert held.read("a", rows).tolist() == [0, -2, 3, 5, 0, 0, 0, 0]
    assert held.read("a", rows).dtype == np.int32 and not held.read("b", rows).any()
    assert held.read("a", np.asarray([0, 2]), _Span(first, 3)).tolist() == [-2, 5]
    assert held.flags_at(np.asarray([0, 1]), _Span(second, 4)).tolist() == [True, False]


def test_a_field_past_narrow_limit_is_held_and_read_as_int64_keeping_every_value() -> None:
    """A field with a value past +-NARROW_LIMIT (a null integer, a large stat) is int64, column and read, and the
    column widens from int32 keeping the values it held; the other fields stay int32."""
    held = FieldColumns(("a", "b"), used=1, rows=4)
    first = held.take(2, [0, 0], [NARROW_LIMIT, 3])
    assert [column.dtype for column in held.columns] == [np.int32, np.int32]
    held.columns[0][first : first + 2] = [NARROW_LIMIT, -7]
    second = held.take(1, [-(2**40), 0], [0, 3])
    held.columns[0][second] = -(2**40)
    assert [column.dtype for column in held.columns] == [np.int64, np.int32]
    a, b = held.read("a", np.arange(held.used)), held.read("b", np.arange(held.used))
    assert a.tolist() == [0, NARROW_LIMIT, -7, -(2**40)] and a.dtype == np.int64 and b.dtype == np.int32


def test_the_buffers_grow_by_half_when_full_and_keep_every_value() -> None:
    held = FieldColumns(("a",), rows=64)
    held.take(64, [0], [1])
    held.columns[0][:64] = np.arange(64) % 2
    held.take(1, [0], [1])
    assert held.flags.size == 96 and held.columns[0].size == 96
    assert held.read("a", np.arange(64)).tolist() == (np.arange(64) % 2).tolist()


def test_past_narrow_rows_a_column_is_the_narrowest_type_its_values_fit_and_widens_keeping_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(columns, "NARROW_ROWS", 8)
    held = FieldColumns(("small", "large"), rows=4)
    assert all(column.dtype == np.int64 for column in held.columns)
    offset = held.take(16, [-100, 0], [100, 2**40])
    assert [column.dtype for column in held.columns] == [np.int8, np.int64]
    held.columns[0][offset : offset + 16] = np.arange(-8, 8)
    more = held.take(2, [-1000, 0], [0, 0])
    assert held.columns[0].dtype == np.int16
    held.columns[0][more : more + 2] = [-1000, -999]
    assert held.read("small", np.arange(18)).tolist() == [*range(-8, 8), -1000, -999]


def test_a_column_holding_rows_turns_narrow_as_its_buffer_passes_narrow_rows_and_widens_with_no_growth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(columns, "NARROW_ROWS", 8)
    held = FieldColumns(("a",), rows=8)
    held.take(8, [-5], [5])
    assert held.columns[0].dtype == np.int32
    held.columns[0][:8] = np.arange(-4, 4)
    held.take(1, [0], [0])  # the buffer grows to 12 rows: narrow, its rows kept
    assert held.columns[0].dtype == np.int8 and held.columns[0].size == 12
    held.take(1, [0], [300])  # room for it: no growth, only wider
    assert held.columns[0].dtype == np.int16 and held.columns[0].size == 12
    held.columns[0][9] = 300
    assert held.read("a", np.arange(10)).tolist() == [*range(-4, 4), 0, 300]


def test_append_writes_each_fields_values_at_its_rows_zeros_on_the_others_and_the_flags() -> None:
    held = FieldColumns(("a", "b"), used=1, rows=4)
    first = held.append(3, np.asarray([[1, 2, 3], [4, 5, 6]]), np.asarray([True, False, True]))
    second = held.append(4, np.asarray([[7, 8], [-1, -2]]), np.ones(4, dtype=bool), at=np.asarray([0, 3]))
    assert (first, second, held.used) == (1, 4, 8)
    rows = np.arange(held.used)
    assert held.read("a", rows).tolist() == [0, 1, 2, 3, 7, 0, 0, 8]
    assert held.read("b", rows).tolist() == [0, 4, 5, 6, -1, 0, 0, -2]
    assert held.flags_at(rows).tolist() == [False, True, False, True, True, True, True, True]


def test_value_range_is_each_fields_least_and_greatest_and_zeros_for_no_rows() -> None:
    assert value_range(np.asarray([[3, -1, 2], [0, 7, 7]])) == ([-1, 0], [3, 7])
    assert value_range(np.zeros((2, 0), dtype=np.int64)) == ([0, 0], [0, 0])
