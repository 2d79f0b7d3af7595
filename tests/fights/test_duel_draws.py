"""A duel's draws and picks made cheaper (issue 42, fourth round), their answers unchanged: a resolve whose rows are
all in one situation (every step of a one-on-one duel) reads its table's own outcome matrix (`table._one_table`),
with no offset into the fight's stack per row and, for a table with no row beyond its depth, no look at which rows
fell beyond, and its one group's values are the columns' minimums (`_Groups.values`); a `first`/`weakest` pick
where every row has a pair marks no row -1 (`policy._first_or_weakest`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchmarks.fight_cases import fullplate_fights

from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tests.spies import first_arguments
from tohit.engine.fight import policy
from tohit.engine.fight.caches import alias_tables, caches
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes import TableSample, table
from tohit.engine.fight.run import initial_state, simulate_fights
from tohit.engine.fight.situation import packed

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "fights"


def test_a_duels_every_resolve_draws_from_its_one_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step of a one-on-one duel resolves rows of one situation: every draw reads that table's own matrix,
    none goes through the groups' path over the fight's stack."""
    fight = fullplate_fights()[0]

    def no_groups(*args: object) -> None:
        raise AssertionError("a duel's resolve took the groups' path")

    monkeypatch.setattr(TableSample, "_draw_groups", no_groups)
    seen = first_arguments(monkeypatch, table, "_one_table")
    simulate_fights(fight, 500, seed=3)
    assert len(seen) > 5


@pytest.mark.parametrize("example", ["kaiser-duel.yaml", None])  # None: the bench's FullPlate duel
def test_one_table_reads_what_the_stack_reads_at_the_tables_offset(example: str | None) -> None:
    """`_one_table` gives each field's value the fight's stack gives at the table's offset plus the row's joint row,
    for every row of every table the fight drew from (Kaiser's duel: tables with rows beyond the depth), over the
    whole batch and over some rows of it (the rows left out read 0)."""
    fight = load_fight(EXAMPLES / example) if example else fullplate_fights()[0]
    simulate_fights(fight, 300, seed=5)
    stack = alias_tables(fight).stack
    samplers = list(caches(fight).sampler.values())
    assert samplers
    rng = np.random.default_rng(7)
    n = 400
    for sm in samplers:
        local = rng.integers(0, sm.size, n).astype(np.int32)
        fields = sm.fields[::-1]  # any fields asked for, in the order asked
        whole = table._one_table(stack, sm, local, n, np.arange(n), fields)
        for f in fields:
            assert np.array_equal(whole[f], stack.read(f, sm.offset + local.astype(np.int64)))
        rows = np.flatnonzero(rng.random(n) < 0.5)
        some = table._one_table(stack, sm, local[rows], n, rows, fields)
        for f in fields:
            expected = np.zeros(n, dtype=np.int64)
            expected[rows] = whole[f][rows]
            assert np.array_equal(some[f], expected)


def test_a_pick_where_every_row_has_a_pair_marks_no_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """`first`/`weakest` where every row has an attack and a foe (a duel's step): the general path's picks, with
    no row marked -1 and no pass to mark them (np.copyto unused); one row with no pair still reads -1."""
    two = {"attacks": [{"name": "sword", "attack": {"range": "hand_to_hand"}}, {"name": "axe"}]}
    for attacks in ({}, two):
        data = kaiser_fight(
            [kaiser_combatant("A", **attacks)], [kaiser_combatant("B", **attacks), kaiser_combatant("C")]
        )
        data["sides"][1]["policy"] = "weakest"
        fight = load(data)
        n, size, na = 1_000, fight.roster.size, fight.max_attacks
        rng = np.random.default_rng(na)
        state = initial_state(fight, n)
        health = rng.integers(1, 4, (n, size))
        ctx = TableSample(fight, type(state)({**state.per, fight.rules.health: health}, dict(state.fight)), rng)
        actor = rng.integers(0, size, n)
        options = (
            (rng.random((n, na, size)) < 0.5)
            & fight.roster.foes()[actor][:, None, :]
            & fight.has_attack[actor][:, :, None]
        )
        first = np.argmax(fight.roster.foes()[actor], axis=1)
        options[np.arange(n), 0, first] = True  # every row has a pair
        acting = np.ones(n, dtype=bool)
        marks = first_arguments(monkeypatch, np, "copyto")
        fast = policy.choose_actions(ctx, acting, actor, options)
        assert marks == []
        monkeypatch.undo()
        with monkeypatch.context() as m:
            m.setattr(policy, "_plain", lambda fight: False)
            general = policy.choose_actions(ctx, acting, actor, options)
        assert np.array_equal(fast[1], general[1]) and np.array_equal(fast[2], general[2])
        assert (fast[1] >= 0).all() and (fast[2] >= 0).all()
        options[0] = False
        again = policy.choose_actions(ctx, acting, actor, options)
        assert again[1][0] == -1 and again[2][0] == -1 and np.array_equal(again[2][1:], fast[2][1:])


def test_one_groups_values_are_the_columns_minimums(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows of one situation: the group's values are each column's one value, read from `packed`'s minimums with
    no gather of a first row (np.stack unused); several groups still read their values from the rows."""
    columns = [np.full(50, 3, dtype=np.int64), np.full(50, 0, dtype=np.int64), np.full(50, -2, dtype=np.int64)]
    codes = packed(columns)
    stacked = first_arguments(monkeypatch, np, "stack")
    assert table._Groups(codes.code, codes.radix).values(codes, columns) == [[3, 0, -2]]
    assert stacked == []
    columns[2] = np.arange(50, dtype=np.int64) * 100_000  # too wide a span for the table of codes: ranked
    codes = packed(columns)
    found = table._Groups(codes.code, codes.radix).values(codes, columns)
    assert found == [[3, 0, v] for v in range(0, 5_000_000, 100_000)]
