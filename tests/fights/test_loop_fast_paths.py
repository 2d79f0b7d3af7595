"""The engine's share of a batch's step, made cheaper (issue 42, third round), and its answers unchanged: each side's
standing read from the packed rows (`rows.any_groups`), the next turn looked up by bits where a round starts
(`RoundRules._advance_by_bits`), a change's one value as a view, an event's stats written at their own combatants,
and each row's own column read from kept row offsets (`rows.take_rows`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.fights.test_next_turn_bits import _fighter
from tohit.core.fight import rounds
from tohit.core.fight.rows import any_groups, row_offsets, take_rows
from tohit.core.fight.state import Event, State, apply, change
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.modes import sampler


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 8, 9])
def test_any_groups_is_any_over_each_group_of_columns(width: int) -> None:
    """Each group's answer is numpy's `any` over its columns, for packed widths (1, 2, 4, 8) and others."""
    rng = np.random.default_rng(width)
    x = rng.random((500, width)) < 0.3
    groups = [tuple(range(0, width, 2)), tuple(range(1, width, 2)), (width - 1,)]
    groups = [g for g in groups if g]
    for got, g in zip(any_groups(x, groups), groups, strict=True):
        assert got.dtype == np.bool_
        assert np.array_equal(got, x[:, list(g)].any(axis=1))


def test_any_groups_of_a_strided_array_reads_its_columns() -> None:
    """A strided array (no packed rows) is read column by column, the same answers."""
    x = np.random.default_rng(0).random((200, 8)) < 0.2
    view = x[:, ::2]
    for got, g in zip(any_groups(view, [(0, 1), (2, 3)]), [(0, 1), (2, 3)], strict=True):
        assert np.array_equal(got, view[:, list(g)].any(axis=1))


def _side(name: str, count: int) -> dict[str, Any]:
    return {"name": name, "combatants": [_fighter(f"{name} {i}") for i in range(count)]}


@pytest.mark.parametrize("sizes", [(1, 1), (2, 2), (4, 4), (3, 2)])
def test_the_next_turn_by_bits_is_the_general_advance(monkeypatch: pytest.MonkeyPatch, sizes: tuple[int, int]) -> None:
    """`RoundRules._advance` read by bits (`_advance_by_bits`: a round's first place looked up where a round starts)
    gives the place, found and combatant the general path gives, and the same state after (the new rounds, the round
    limit), from any cursor, round and standing (fights of 5 combatants take the general path either way)."""
    fight = fight_from_dict(
        {"system": "fullplate", "sides": [_side("Red", sizes[0]), _side("Blue", sizes[1])]}, source="turns"
    )
    size, n = fight.roster.size, 3_000
    rng = np.random.default_rng(size)
    base = initial_state(fight, n)
    cursor = rng.integers(0, size + 2, size=n)
    rounds_now = rng.integers(fight.max_rounds - 2, fight.max_rounds + 1, size=n)
    hp = np.where(rng.random((n, size)) < 0.7, 5, 0)
    state = State({**base.per, "hp": hp}, {**base.fight, "cursor": cursor, "round": rounds_now})
    rules: Any = fight.rules

    def advanced() -> tuple[list[list[int]], State]:
        ctx = sampler("table")(fight, state, np.random.default_rng(0), max_rounds=fight.max_rounds)
        return [a.tolist() for a in rules._advance(ctx)], ctx.state

    by_bits, after_bits = advanced()
    monkeypatch.setattr(rounds, "packed_rows", lambda x: None)  # the general path
    general, after = advanced()
    assert by_bits == general
    for key in after.fight:
        assert after_bits.fight[key].tolist() == after.fight[key].tolist(), key


def test_a_change_of_one_value_is_a_read_only_view_of_it() -> None:
    """`change` of one value for many rows: every row reads it, nothing copies it, nobody can write it."""
    made = change("hp", np.arange(5), 7, 1)
    assert made.to.tolist() == [7] * 5 and made.who is not None and made.who.tolist() == [1] * 5
    assert not made.to.flags.writeable and made.to.strides == (0,)
    assert change("hp", np.arange(0), np.asarray([3])).to.shape == (0,)


def test_events_sharing_rows_write_each_stat_at_its_own_combatant() -> None:
    """Two changes of one event on the same rows, at different combatants (the rows' offsets made once): each cell
    written where its own combatant says."""
    rows = np.asarray([0, 2], dtype=np.int64)
    state = State({"hp": np.zeros((3, 2), dtype=np.int64), "dealt": np.zeros((3, 3), dtype=np.int64)}, {})
    state = State(state.per, {"round": np.zeros(3, dtype=np.int64)})
    event = Event("hit", (change("hp", rows, [5, 6], [1, 0]), change("dealt", rows, 9, [2, 1])))
    after = apply(state, [event])
    assert after.per["hp"].tolist() == [[0, 5], [0, 0], [6, 0]]
    assert after.per["dealt"].tolist() == [[0, 0, 9], [0, 0, 0], [0, 9, 0]]
    assert state.per["hp"].sum() == 0  # `apply` leaves its input as it was


def test_take_rows_reads_each_rows_own_column_from_the_kept_offsets() -> None:
    """`take_rows` gives arr[i, who[i]] for every row, twice on the same offsets (`row_offsets`: one read-only array
    per shape, which no caller can write)."""
    arr = np.random.default_rng(1).integers(0, 9, (50, 3))
    who = np.random.default_rng(2).integers(0, 3, 50)
    for _ in range(2):
        assert take_rows(arr, who).tolist() == arr[np.arange(50), who].tolist()
    assert row_offsets(50, 3) is row_offsets(50, 3) and not row_offsets(50, 3).flags.writeable
