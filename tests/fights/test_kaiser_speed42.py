"""Issue 42, Kaiser's fights at speed, the same results: the rows beyond a joint table's depth read their dice at once
(`_TailDice`: the same dice, the tails drawn group by group as the tables' own `columns` draw them), the next turn
read through one table of the file's order (`KaiserTurns._next_slots`: the same slot as the order read by
distance), and the set of those who can attack packed into one integer (`core/fight/rows.column_bits`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tohit.core.fight.rows import column_bits
from tohit.core.fight.state import State
from tohit.engine.fight.caches import caches
from tohit.engine.fight.modes.table import _tail_dice
from tohit.engine.fight.run import simulate_fights
from tohit.engine.fight.stack import TableSampler
from tohit.systems.kaiser.fight import RULES


@pytest.mark.parametrize("columns", range(1, 9))
def test_column_bits_are_the_true_columns(columns: int) -> None:
    """Bit c of a row's set is its column c: packed rows (1, 2, 4, 8 columns) and column by column alike."""
    can = np.random.default_rng(columns).random((500, columns)) < 0.5
    assert column_bits(can).tolist() == (can.astype(np.int64) << np.arange(columns)).sum(axis=1).tolist()


def _samplers(fight: Any) -> list[TableSampler]:
    simulate_fights(fight, 2_000, seed=1)
    return list(caches(fight).sampler.values())


def test_tail_dice_are_the_tables_own_columns() -> None:
    """Two groups of rows, each with rows beyond the depth: their dice read at once, the tails drawn group by group,
    are the dice each table's `columns` gives them, group after group, from the same generator."""
    fight = load(kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B", target={"defensive_skill": 6})]))
    first, second = _samplers(fight)[:2]
    beyond = [np.flatnonzero(~sm.table.finite) for sm in (first, second)]
    assert beyond[0].size and beyond[1].size
    local = [np.concatenate([np.arange(5), beyond[0][:4], beyond[0][:2]]), np.concatenate([beyond[1][:3], [7]])]
    rng = np.random.default_rng(7)
    expected = [first.table.columns(local[0], rng), second.table.columns(local[1], rng)]
    held = _tail_dice(fight)
    # The groups' rows interleaved, each group's in its own order.
    perm = np.random.default_rng(3).permutation(local[0].size + local[1].size)
    places = [np.sort(perm[: local[0].size]), np.sort(perm[local[0].size :])]
    at = np.empty(perm.size, dtype=np.int64)
    inv = np.empty(perm.size, dtype=np.int64)
    for g, sm in enumerate((first, second)):
        at[places[g]], inv[places[g]] = held.block(sm) + local[g], g
    dice = held.dice(at, inv, [first, second], np.random.default_rng(7))
    for role, columns in expected[0].items():
        for c in columns:
            for g in (0, 1):
                assert dice[role, c][places[g]].tolist() == expected[g][role][c].tolist()


def _random_state(fight: Any, n: int, seed: int) -> State:
    rng = np.random.default_rng(seed)
    size = fight.roster.size
    per = {k: np.full((n, size), v, dtype=np.int64) for k, v in RULES.initial(fight, 0).items()}
    per["ap"] = rng.integers(0, 7, size=(n, size))
    per["lp"] = rng.integers(0, 3, size=(n, size))
    per["flat_footed"] = (rng.random((n, size)) < 0.2).astype(np.int64)
    return State(per, {"cursor": rng.integers(0, size + 1, size=n), "round": np.ones(n, dtype=np.int64)})


@pytest.mark.parametrize("size", [2, 3, 8])
def test_next_turn_through_the_table_is_the_order_read_by_distance(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next slot and whether there is one, for every fight and for some fights alone, through the table of the
    file's order: the same as the order read by distance (the table turned off)."""
    sides = (
        [kaiser_combatant(f"A{i}") for i in range((size + 1) // 2)],
        [kaiser_combatant(f"B{i}") for i in range(size // 2)],
    )
    fight = load(kaiser_fight(*sides))
    state = _random_state(fight, 400, size)
    rows = np.arange(0, 400, 3)

    class Ctx:
        def __init__(self) -> None:
            self.fight, self.state = fight, state

        def standing(self) -> Any:
            return RULES.standing(fight, state)

    ctx: Any = Ctx()
    assert RULES._next_slots(fight) is not None
    fast = RULES._next(ctx), RULES._next(ctx, rows)
    assert 0 < int(fast[0][1].sum()) < 400  # some fights have a next turn, some none
    monkeypatch.setattr(type(RULES), "_next_slots", lambda self, fight: None)
    slow = RULES._next(ctx), RULES._next(ctx, rows)
    for got, want in zip(fast, slow, strict=True):
        assert got[0].tolist() == want[0].tolist()
        assert got[1].tolist() == want[1].tolist()


def test_every_attack_reads_the_one_critical_role() -> None:
    """The Critical level's 2d6 is one role for every attack (its exact support worked out once, not once per joint
    table a fight builds), the same dice as before: 2d6 summed, 36 ways."""
    fight = load(kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B", target={"defensive_skill": 6})]))
    first, second = fight.roles(0, 0, 1)["critical"], fight.roles(1, 0, 0)["critical"]
    assert first is second
    assert fight.roles(0, 0, 1)["offense"] is fight.roles(1, 0, 0)["offense"]  # so are the 2d6 of equal advantage
    support = first.support(1)
    assert support.columns["total"].tolist() == list(range(2, 13))
    assert [int(w) for w in support.weights] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
