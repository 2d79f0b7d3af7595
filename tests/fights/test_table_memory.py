"""Issue 42, "peak memory for 10,000,000 fights": what a fight keeps of each situation it met, for the "table"
sampler. A Kaiser 4-v-4 with open rolls meets thousands of situations; each one's table was held four times over
(its resolve's outcome, the dice it was fed, the sampler's columns and matrix, then the stack), and 10,000,000 of
those fights peaked at 1.8 GB. A sampler now keeps one copy of its outcome fields (the stack's), and of its joint
table what drawing reads later; a large stack holds each field in the narrowest integer type its values fit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.fights.test_fight_example_digests import DIGESTS, digest
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import NARROW_LIMIT
from tohit.engine import joint
from tohit.engine.fight import columns
from tohit.engine.fight import stack as stacks
from tohit.engine.fight.caches import alias_tables, caches
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes.sample import TABLE_DEPTH
from tohit.engine.fight.run import simulate_fights
from tohit.engine.fight.situation import Situation, situation_blocks

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "fights"
PARTY = EXAMPLES / "kaiser-party-vs-bandits.yaml"


def test_a_sampler_keeps_no_copy_of_its_outcome_nor_of_the_dice_its_table_was_resolved_on() -> None:
    """After a run, each sampler's outcome fields are the stack's alone (its own matrix empty), its joint table
    holds no outcome and no dice columns, and the samplers of one layout share one weights array and key, and the
    layout's first table's index grids and rows within the depth where theirs are the same."""
    fight = load_fight(PARTY)
    simulate_fights(fight, 300, seed=2)
    tables = alias_tables(fight)
    samplers = list(caches(fight).sampler.values())
    assert len(samplers) > 5
    for sm in samplers:
        assert sm.matrix.size == 0
        assert sm.table.finite_columns is None and not sm.table.outcome.values
        assert sm.table.weights is tables.firsts[sm.layout].weights and sm.weights_key is tables.keys[sm.layout]
        first = tables.firsts[sm.layout]  # its index grids and rows within the depth too, where the same
        keys = list(sm.table.index) == list(first.index)
        same_index = keys and all(np.array_equal(sm.table.index[k], first.index[k]) for k in first.index)
        assert (sm.table.index is first.index) == same_index
        assert (sm.table.finite is first.finite) == np.array_equal(sm.table.finite, first.finite)
        own = np.arange(sm.size)
        for f in sm.fields:
            assert np.array_equal(tables.stack.read(f, own, sm), tables.stack.read(f, sm.offset + own))
    assert len({id(sm.table.finite) for sm in samplers}) < len(samplers)  # some are shared


@pytest.mark.parametrize(
    "example",
    [
        "kaiser-party-vs-bandits",
        "wsswnn-grapple-and-archer",
        "rtw-lizalfos-ambush",
        "last-odyssey-cops",
        "fullplate-skirmish",
    ],
)
def test_a_sampler_keeps_its_situations_key_not_its_blocks_and_the_blocks_made_again_give_its_table(
    example: str,
) -> None:
    """A sampler keeps neither the scenario nor the target block its table was built on, only its situation's key
    (the cache's own tuple); the blocks made again from the key give the very table the stack holds (one example
    of each game: their keys hold stats, groups, overrides and codes)."""
    fight = load_fight(EXAMPLES / f"{example}.yaml")
    simulate_fights(fight, 300, seed=2)
    stack = alias_tables(fight).stack
    held = caches(fight).sampler
    assert held  # the fight was drawn from tables
    for key, sm in held.items():
        assert sm.situation is key and not hasattr(sm, "scenario") and not hasattr(sm, "target")
        again = Situation.from_ident(key)
        assert again.ident == key
        table = joint.build(fight.system, *situation_blocks(fight, again), TABLE_DEPTH)
        assert table.weights.tolist() == sm.table.weights.tolist()
        finite = np.flatnonzero(table.finite)
        assert finite.tolist() == np.flatnonzero(sm.table.finite).tolist()
        for f in sm.fields:
            assert stack.read(f, finite, sm).tolist() == np.asarray(table.outcome[f]).tolist()


def _samplers_rows(fight: LoadedFight) -> list[dict[str, list[int]]]:
    """Each sampler's outcome fields, read from its place in the stack, in the order the samplers were added."""
    stack = alias_tables(fight).stack
    samplers = sorted(caches(fight).sampler.values(), key=lambda sm: sm.number)
    return [{f: stack.read(f, np.arange(sm.size), sm).tolist() for f in sm.fields} for sm in samplers]


def test_tables_of_the_very_same_rows_share_one_place_in_the_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    """The party's samplers: fewer places than tables, fewer rows than theirs summed, and each sampler reads the very
    values it reads from a stack that gives every table a place of its own; the same bytes (the digest)."""
    fight = load_fight(PARTY)
    result = simulate_fights(fight, 2_000, seed=1).to_json()
    samplers = list(caches(fight).sampler.values())
    stack = alias_tables(fight).stack
    assert len({sm.offset for sm in samplers}) < len(samplers)
    assert stack.used - 1 < sum(sm.size for sm in samplers)
    assert sorted(sm.number for sm in samplers) == list(range(len(samplers)))
    assert digest(result) == DIGESTS[PARTY.stem][0]
    shared = _samplers_rows(fight)
    places = iter(range(10**9))
    monkeypatch.setattr(stacks, "_place_key", lambda sm: next(places).to_bytes(8, "little"))
    alone = load_fight(PARTY)
    assert digest(simulate_fights(alone, 2_000, seed=1).to_json()) == DIGESTS[PARTY.stem][0]
    assert alias_tables(alone).stack.used - 1 == sum(sm.size for sm in caches(alone).sampler.values())
    assert _samplers_rows(alone) == shared


def test_tables_whose_digests_meet_but_whose_rows_differ_keep_places_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every table given one digest: only a table of the very same rows as the first shares its place (the rows
    are compared, not trusted to the digest); the same bytes."""
    monkeypatch.setattr(stacks, "_place_key", lambda sm: b"one digest")
    fight = load_fight(PARTY)
    assert digest(simulate_fights(fight, 2_000, seed=1).to_json()) == DIGESTS[PARTY.stem][0]
    samplers = sorted(caches(fight).sampler.values(), key=lambda sm: sm.number)
    rows = _samplers_rows(fight)
    assert any(values != rows[0] for values in rows[1:])
    for sm, values in zip(samplers[1:], rows[1:], strict=True):
        assert (sm.offset == samplers[0].offset) == (values == rows[0])


def test_joint_tables_of_one_radix_share_their_read_only_index_grids() -> None:
    """The index grids of two small joint tables of the same radix are one read-only array."""
    first, second = joint._grids((3, 4)), joint._grids((3, 4))
    assert first is second and not first.flags.writeable
    assert first.tolist() == np.indices((3, 4)).reshape(2, -1).tolist()


def test_a_large_stack_holds_each_field_in_the_narrowest_type_its_values_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past NARROW_ROWS rows each column is int8, int16 or int32 as its values so far need (Kaiser's
    `counter_bonus`, which holds "none" as the null integer, stays int64), widened (every value kept) when a table
    with a value past its type comes; a field reads back as int32 while its values fit NARROW_LIMIT (`counter_bonus`:
    int64), and as int64 with every value kept once a table with one past it comes."""
    monkeypatch.setattr(columns, "NARROW_ROWS", 100)
    fight = load_fight(PARTY)
    simulate_fights(fight, 300, seed=2)
    stack = alias_tables(fight).stack
    kinds = {f: stack.columns[i].dtype for i, f in enumerate(stack.fields)}
    assert kinds["result"] == np.int8 and kinds["counter_bonus"] == np.int64 and stack.beyond.size > 100
    rows = np.arange(stack.used)
    before = {f: stack.read(f, rows) for f in stack.fields}
    assert {f: values.dtype for f, values in before.items()} == {
        f: np.int64 if f == "counter_bonus" else np.int32 for f in stack.fields
    }
    big = stacks.TableSampler.__new__(stacks.TableSampler)
    big.size, big.beyond = 2, np.zeros(2, dtype=bool)
    big.matrix = np.full((len(stack.fields), 2), 2**40, dtype=np.int64)
    offset = stack.add(big)
    assert all(column.dtype == np.int64 for column in stack.columns)
    added = np.asarray([offset, offset + 1])
    for f, values in before.items():
        again = stack.read(f, rows)
        assert again.dtype == np.int64 and np.array_equal(again, values) and (stack.read(f, added) == 2**40).all()


def test_a_fight_drawn_from_narrow_columns_gives_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The party's digest with its stack's columns narrow from the first rows: the same bytes as with int64."""
    monkeypatch.setattr(columns, "NARROW_ROWS", 64)
    fight = load_fight(PARTY)
    result = simulate_fights(fight, 2_000, seed=1).to_json()
    assert alias_tables(fight).stack.columns[0].dtype == np.int8
    assert digest(result) == DIGESTS[PARTY.stem][0]


def test_column_type_is_int32_or_int64_up_to_narrow_rows_and_the_narrowest_that_holds_the_values_past_it() -> None:
    rows = columns.NARROW_ROWS
    assert columns.column_type(0, 1, rows) is np.int32
    assert columns.column_type(-NARROW_LIMIT, NARROW_LIMIT, rows) is np.int32
    assert columns.column_type(0, NARROW_LIMIT + 1, rows) is np.int64
    assert columns.column_type(-128, 127, rows + 1) is np.int8
    assert columns.column_type(0, 128, rows + 1) is np.int16
    assert columns.column_type(-(2**15) - 1, 0, rows + 1) is np.int32
    assert columns.column_type(0, 2**31, rows + 1) is np.int64


def test_the_shared_grids_hold_no_more_than_their_byte_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past SHARED_GRIDS_BYTES a new radix's grids are made for its table alone (the same values), not kept."""
    monkeypatch.setattr(joint, "_SHARED_GRIDS", {})
    monkeypatch.setattr(joint, "SHARED_GRIDS_BYTES", joint._grids((2, 3)).nbytes)
    assert joint._grids((2, 3)) is joint._grids((2, 3))
    other = joint._grids((3, 2))
    assert other is not joint._grids((3, 2)) and other.tolist() == np.indices((3, 2)).reshape(2, -1).tolist()
    assert list(joint._SHARED_GRIDS) == [(2, 3)]
