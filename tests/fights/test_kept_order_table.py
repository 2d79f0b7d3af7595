"""Whose turn comes next in a fight that keeps its own order (each combatant's `turn` stat its place: core/fight/
order.py), read through a table of the orders met (`kept_places`, issue 42): the same place, found or not, and
combatant as the place-by-place search gives, from any cursor, for any order and whoever is able, the round's first
place too."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.fights.test_next_turn_bits import _fighter
from tohit.core.fight import order, rounds
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import State
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.load import fight_from_dict


def _fight(sizes: tuple[int, int]) -> LoadedFight:
    data = {
        "system": "fullplate",
        "sides": [
            {"name": side, "combatants": [_fighter(f"{side} {i}") for i in range(count)]}
            for side, count in zip(("Red", "Blue"), sizes, strict=True)
        ],
    }
    return fight_from_dict(data, source="kept turns")


def _state(fight: LoadedFight, n: int, rng: np.random.Generator, orders: int) -> State:
    """`n` fights, each keeping one of `orders` random orders, at a random cursor (past the last place too)."""
    size = fight.roster.size
    base = initial_state(fight, n)
    places = np.stack([rng.permutation(size) for _ in range(orders)]).astype(np.int64)
    turn = places[rng.integers(0, orders, size=n)]
    return State({**base.per, order.TURN: turn}, {**base.fight, "cursor": rng.integers(0, size + 2, size=n)})


def _both(monkeypatch: pytest.MonkeyPatch, fight: LoadedFight, state: State, able: Any) -> tuple[Any, Any]:
    rules: Any = fight.rules
    found = rules._next_at(fight, state, able, with_first=True)
    with monkeypatch.context() as patch:
        patch.setattr(rounds, "packed_rows", lambda x: None)  # the place-by-place search
        searched = rules._next_at(fight, state, able, with_first=True)
    return [*found[:3], *found[3][:3]], [*searched[:3], *searched[3][:3]]


@pytest.mark.parametrize("sizes", [(1, 1), (3, 1), (2, 2), (4, 4), (5, 3), (2, 1)])
def test_the_next_turn_of_a_kept_order_by_the_table_is_the_place_by_place_search(
    monkeypatch: pytest.MonkeyPatch, sizes: tuple[int, int]
) -> None:
    """Random orders, cursors and a random mix of who is able: the table's answer is the search's, and the table
    was read (fights of 3 or 6 combatants are searched either way)."""
    fight = _fight(sizes)
    size = fight.roster.size
    rng = np.random.default_rng(size)
    for orders in (1, 2, 40):
        state = _state(fight, 3_000, rng, orders)
        able = rng.random((3_000, size)) < 0.6
        got, want = _both(monkeypatch, fight, state, able)
        for a, b in zip(got, want, strict=True):
            assert a.tolist() == b.tolist()
        if size in (2, 4, 8):
            assert order.kept_places(fight, state.per[order.TURN]) is not None


def test_a_batch_with_orders_the_table_has_not_met_grows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch that keeps orders the table has not met (a later batch, or the same fights' orders after a delay)
    grows the table; the earlier orders still read their own answers."""
    fight = _fight((2, 2))
    rng = np.random.default_rng(7)
    for orders in (2, 5, 24, 3):
        state = _state(fight, 2_000, rng, orders)
        assert order.kept_places(fight, state.per[order.TURN]) is not None
        able = rng.random((2_000, 4)) < 0.5
        got, want = _both(monkeypatch, fight, state, able)
        for a, b in zip(got, want, strict=True):
            assert a.tolist() == b.tolist()


def test_a_turn_stat_that_is_no_order_is_searched_place_by_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row of `turn` with a place twice is no order: no table, the search's answer."""
    fight = _fight((1, 1))
    base = initial_state(fight, 3)
    turn = np.asarray([[0, 1], [1, 0], [0, 0]], dtype=np.int64)
    state = State({**base.per, order.TURN: turn}, {**base.fight, "cursor": np.zeros(3, dtype=np.int64)})
    assert order.kept_places(fight, turn[:2]) is not None
    assert order.kept_places(fight, turn) is None
    assert order.kept_places(fight, np.asarray([[0, 1], [2, 0]], dtype=np.int64)) is None  # a key as [0, 1]'s
    able = np.ones((3, 2), dtype=bool)
    got, want = _both(monkeypatch, fight, state, able)
    for a, b in zip(got, want, strict=True):
        assert a.tolist() == b.tolist()


def test_too_many_orders_take_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Orders past the table's limit: no table, the search's answer."""
    fight = _fight((4, 4))
    monkeypatch.setattr(order, "KEPT_TABLE_LIMIT", 10 * 9 * 256)
    rng = np.random.default_rng(3)
    state = _state(fight, 500, rng, 40)
    assert order.kept_places(fight, state.per[order.TURN]) is None
    able = rng.random((500, 8)) < 0.5
    got, want = _both(monkeypatch, fight, state, able)
    for a, b in zip(got, want, strict=True):
        assert a.tolist() == b.tolist()


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("size", [1, 2, 3, 4, 8, 10, 12])
def test_an_orders_key_is_its_turn_row_read_in_base_combatants(size: int, dtype: type[np.signedinteger[Any]]) -> None:
    """`order_keys`: each row's places as the digits of one number, the first combatant's the lowest; in int64
    where `turn` is a batch's narrow int32 too (10 ** 10 is past int32)."""
    rng = np.random.default_rng(size)
    turn = np.stack([rng.permutation(size) for _ in range(200)]).astype(dtype)
    want = [sum(int(p) * size**c for c, p in enumerate(row)) for row in turn.tolist()]
    assert order.order_keys(turn).tolist() == want


def test_the_offsets_read_from_one_entry_per_key_are_the_searched_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where an order's key takes few values (`KEYS_DIRECT`), each fight's offset is read from a table of one entry per
    key: the same offsets as the binary search of the orders met, batch after batch (orders met before and new)."""
    rng = np.random.default_rng(11)
    states = [_state(_fight((2, 2)), 1_000, rng, orders) for orders in (2, 5, 24, 3, 24)]
    offsets = []
    for direct in (order.KEYS_DIRECT, 0):
        monkeypatch.setattr(order, "KEYS_DIRECT", direct)
        fight = _fight((2, 2))  # its own memo: a table of its own
        found = [order.kept_places(fight, state.per[order.TURN]) for state in states]
        assert all(f is not None for f in found)
        offsets.append([f[1].tolist() for f in found if f is not None])
        assert (fight.memo("kept_places", order.KeptPlaces).offsets is not None) == (direct > 0)
    assert offsets[0] == offsets[1]
