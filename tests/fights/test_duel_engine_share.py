"""The engine's share of a one-on-one fight (issue 42, round 5): a duel's end check read from its packed standing
rows, the next turn found from the table's `acting` alone, one value written as a scalar, the alias draw as the
index the outcomes are taken by. Each the same state, the same winner, the same dice as before."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from benchmarks.fight_cases import _fullplate

from tohit.core.fight.order import NextPlaces
from tohit.core.fight.state import Event, State, apply, change
from tohit.engine.fight import play
from tohit.engine.fight.load import fight_from_dict


def _duel() -> Any:
    sides = [
        {"name": "Knight", "combatants": [_fullplate("Knight", 15, "1d8", 3)]},
        {"name": "Ogre", "combatants": [_fullplate("Ogre", 13, "2d6", 6)]},
    ]
    return fight_from_dict({"system": "fullplate", "sides": sides}, source="duel")


def test_a_duels_end_check_reads_its_packed_standing_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody standing: a draw; one standing: that one's side wins; both: not over. Read from the packed rows
    alone (the sides' general reading is never asked)."""
    fight = _duel()
    standing = np.asarray([[False, False], [True, False], [False, True], [True, True]])
    state = State({"hp": standing.astype(np.int64)}, {"round": np.ones(4, np.int64), "cut": np.zeros(4, np.int64)})

    def general(*args: Any) -> Any:
        raise AssertionError("a duel's end check reads its packed rows")

    monkeypatch.setattr(play, "any_groups", general)
    done, winner = play.decided(fight, state, 10, standing)
    assert done.tolist() == [True, True, True, False]
    assert winner[:3].tolist() == [-1, 0, 1]
    assert winner[3] == 0  # not over: what the sides' general reading gives there, never read


def test_a_duels_end_check_past_the_round_limit_is_a_draw() -> None:
    fight = _duel()
    standing = np.asarray([[True, True], [True, False]])
    state = State({"hp": standing.astype(np.int64)}, {"round": np.full(2, 11, np.int64), "cut": np.zeros(2, np.int64)})
    done, winner = play.decided(fight, state, 10, standing)
    assert done.tolist() == [True, True] and winner.tolist() == [-1, 0]


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_the_next_place_is_found_exactly_where_someone_acts(size: int) -> None:
    """`_advance_by_bits` reads `found` from `acting`: -1 exactly where no place is found, else who is there."""
    orders = np.asarray([list(range(size)), list(range(size))[::-1]], dtype=np.int64)
    table = NextPlaces.of_orders(orders)
    assert np.array_equal(table.found, table.acting >= 0)
    assert np.array_equal(table.acting[table.found], table.who[table.found])


def test_one_value_for_every_row_is_written_through_the_index() -> None:
    state = State({"hp": np.zeros((3, 2), np.int64)}, {"round": np.ones(3, np.int64)})
    rows = np.asarray([0, 2])
    after = apply(state, [Event("round", (change("round", rows, 4), change("hp", rows, 9, 1)))])
    assert after.fight["round"].tolist() == [4, 1, 4]
    assert after.per["hp"].tolist() == [[0, 9], [0, 0], [0, 9]]


@pytest.mark.parametrize("weights", [[1] * 10, [1, 2, 3], [1] * 70_000, [5, 0, 1]])
def test_an_alias_draw_is_the_index_the_outcomes_are_taken_by(weights: list[int]) -> None:
    """int64 from every path (an index narrower would be widened by each `take` of the outcomes); one atom per index
    (a fair die) hands the draws over widened, the same indices as a lookup of them gives."""
    from tohit.engine.alias import Alias

    sampler = Alias(weights)
    drawn = sampler.sample(np.random.default_rng(7), 1000)
    assert drawn.dtype == np.int64
    if sampler.atoms is not None:
        dtype = np.uint16 if sampler.total <= 1 << 16 else np.uint32
        raw = np.random.default_rng(7).integers(0, sampler.total, size=1000, dtype=dtype)
        assert np.array_equal(drawn, sampler.atoms.take(raw))
        assert sampler.one_each == (len(weights) == sum(weights))


def test_a_drop_fills_the_values_every_fight_it_keeps_holds() -> None:
    """`State.take(rows, same=...)`: the values named are filled, the rest read at the rows."""
    state = State(
        {"hp": np.arange(6, dtype=np.int64).reshape(3, 2)},
        {"round": np.asarray([1, 2, 3]), "winner": np.asarray([0, -1, -1])},
    )
    kept = state.take(np.asarray([1, 2]), same={"winner": -1})
    assert kept.per["hp"].tolist() == [[2, 3], [4, 5]]
    assert kept.fight["round"].tolist() == [2, 3] and kept.fight["winner"].tolist() == [-1, -1]
    assert kept.fight["winner"].dtype == np.int64


@pytest.mark.parametrize("size", [2, 3], ids=["by-table", "place-by-place"])
def test_the_next_turn_names_nobody_where_no_place_is_left(size: int) -> None:
    """`_next_at` hands over who acts as -1 where no place is left in the round (the loop's `actor`), by the table
    (2 combatants) and place by place (3: no packed row)."""
    from tohit.engine.fight.ending import initial_state

    knights = [_fullplate(f"Knight {i}", 15, "1d8", 3) for i in range(size - 1)]
    fight = fight_from_dict(
        {
            "system": "fullplate",
            "sides": [
                {"name": "Knights", "combatants": knights},
                {"name": "Ogre", "combatants": [_fullplate("Ogre", 13, "2d6", 6)]},
            ],
        },
        source="next turn",
    )
    state = initial_state(fight, 3)
    cursor = np.asarray([0, 1, size], dtype=np.int64)  # the first place, the second, past the last
    state = State(state.per, {**state.fight, "cursor": cursor})
    able = np.ones((3, size), dtype=bool)
    _, found, who, _ = fight.rules._next_at(fight, state, able)
    assert found.tolist() == [True, True, False]
    assert who[2] == -1 and (who[:2] >= 0).all()
    assert who[:2].tolist() == [fight.file_order[0], fight.file_order[1]]
