"""Issue 42, round 5: the rows a table sampler draws past its table's depth (Kaiser's open rolls) read their outcomes
from a deeper table of their situation (`modes/deep.py`), built once, instead of a `resolve` of their own each
resolve: what `resolve` gives on their dice, the dice drawn as before (the same results for the same seed:
tests/fights/test_fight_example_digests.py)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tohit.core.fight.rows import dense_rank
from tohit.core.fight.state import NARROW_LIMIT
from tohit.core.outcome import NULL_INT
from tohit.core.steps import Silent
from tohit.core.support import Support
from tohit.core.system import Dice
from tohit.engine import joint
from tohit.engine.fight import columns
from tohit.engine.fight.caches import caches
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes.deep import DEEP_DEPTH, DeepTables, _LayoutRows, _SupportRows
from tohit.engine.fight.modes.sample import TABLE_DEPTH
from tohit.engine.fight.modes.table import _put, _ranked
from tohit.engine.fight.run import simulate_fights
from tohit.engine.fight.situation import Situation, pack, situation_blocks

DUEL = Path(__file__).resolve().parents[2] / "examples" / "fights" / "kaiser-duel.yaml"


def _beyond_dice(sm: Any, rng: np.random.Generator, repeat: int) -> dict[tuple[str, str], np.ndarray]:
    """Every joint row of the sampler's table that lies past its depth, `repeat` times, its tails drawn."""
    table = sm.table
    rows = np.tile(np.flatnonzero(~table.finite), repeat)
    return {(name, c): v for name, cols in table.columns(rows, rng).items() for c, v in cols.items()}


def test_rows_past_the_depth_read_what_resolve_gives() -> None:
    """Each row past depth 1, its tail dice drawn: the deeper table's outcome is `resolve`'s on those dice in the
    sampler's situation, for every situation a batch of the duel met; a row is read unless its dice pass the deeper
    table's depth too."""
    fight = load_fight(DUEL)
    simulate_fights(fight, 2000, seed=3)
    samplers = list(caches(fight).sampler.values())
    assert len(samplers) > 10
    deep = DeepTables(fight.rules.outcome_fields)
    rng = np.random.default_rng(1)
    fields = list(fight.rules.outcome_fields)
    for sm in samplers:
        dice = _beyond_dice(sm, rng, 20)
        size = next(iter(dice.values())).size
        found, read = deep.read(fight, [sm], np.zeros(size, dtype=np.int64), dice, fields)
        columns: dict[str, dict[str, np.ndarray]] = {}
        for (name, c), v in dice.items():
            columns.setdefault(name, {})[c] = v
        scenario, target = situation_blocks(fight, Situation.from_ident(sm.situation))
        outcome = fight.system.resolve(scenario, target, Dice(columns), Silent())
        past = np.zeros(size, dtype=bool)
        for name in ("offense", "defense"):
            past |= dice[name, "dice"] > 12 + 6 * (DEEP_DEPTH - 1) + 5
        assert (found == ~past).all()
        for f in fields:
            assert (read[f][found] == outcome[f][found]).all(), (scenario.attacker.name, f)


def test_narrow_deeper_tables_read_what_int64_ones_read(monkeypatch: Any) -> None:
    """Past NARROW_ROWS rows the deeper tables hold each field in the narrowest type its values so far fit
    (`counter_bonus`, which holds "none" as the null integer, stays int64) and read back the very values columns
    of their own type give below it (int32, as a batch's narrow stats, but `counter_bonus`: int64), for every
    situation a batch of the duel met."""
    fight = load_fight(DUEL)
    simulate_fights(fight, 2000, seed=3)
    samplers = list(caches(fight).sampler.values())
    fields = list(fight.rules.outcome_fields)
    rng = np.random.default_rng(4)
    dice_of = [_beyond_dice(sm, rng, 3) for sm in samplers]

    def reads(deep: DeepTables) -> list[tuple[np.ndarray, dict[str, np.ndarray]]]:
        out = []
        for sm, dice in zip(samplers, dice_of, strict=True):
            size = next(iter(dice.values())).size
            out.append(deep.read(fight, [sm], np.zeros(size, dtype=np.int64), dice, fields))
        return out

    monkeypatch.setattr(columns, "NARROW_ROWS", 1 << 40)
    int64 = DeepTables(fight.rules.outcome_fields)
    before = reads(int64)
    below = {f: int64.held.columns[i].dtype for i, f in enumerate(int64.held.fields)}
    assert below == {f: np.int64 if f == "counter_bonus" else np.int32 for f in fields}
    monkeypatch.setattr(columns, "NARROW_ROWS", 1_500)  # narrow as its buffer grows past 1,024 rows, rows held
    narrow = DeepTables(fight.rules.outcome_fields)
    after = reads(narrow)
    kinds = {f: narrow.held.columns[i].dtype for i, f in enumerate(narrow.held.fields)}
    assert kinds["result"] == np.int8 and kinds["counter_bonus"] == np.int64
    assert narrow.held.used == int64.held.used > 1_500
    for (found, read), (found_narrow, read_narrow) in zip(before, after, strict=True):
        assert (found == found_narrow).all() and found.any()
        for f in fields:
            assert read_narrow[f].dtype == read[f].dtype == below[f] and (read_narrow[f] == read[f]).all()


def test_dice_past_the_deeper_depth_are_not_read() -> None:
    """An open roll with more sixes than the deeper table follows is left to `resolve`, as are the rows of a sampler
    beyond the budget of rows (none here)."""
    fight = load_fight(DUEL)
    simulate_fights(fight, 500, seed=3)
    sm = next(iter(caches(fight).sampler.values()))
    deep = DeepTables(fight.rules.outcome_fields)
    dice = _beyond_dice(sm, np.random.default_rng(2), 1)
    size = dice["offense", "dice"].size
    dice["offense", "dice"] = np.full(size, 12 + 6 * DEEP_DEPTH + 1)
    dice["offense", "open"] = np.ones(size, dtype=np.int64)
    dice["offense", "fumble"] = np.zeros(size, dtype=np.int64)
    found, _ = deep.read(fight, [sm], np.zeros(size, dtype=np.int64), dice, ["result"])
    assert not found.any()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_batch_resolves_no_row_past_the_depth_once_its_tables_are_built(seed: int, monkeypatch: Any) -> None:
    """A batch whose situations all have their tables (the same batch again) calls the game's `resolve` for none of
    its rows past the depth: they read the deeper tables (a work count, not a clock)."""
    fight = load_fight(DUEL)
    first = simulate_fights(fight, 3000, seed=seed)
    system = type(fight.system)
    calls: list[int] = []
    original = system.resolve

    def counted(self: Any, *args: Any) -> Any:
        calls.append(1)
        return original(self, *args)

    monkeypatch.setattr(system, "resolve", counted)
    again = simulate_fights(fight, 3000, seed=seed)
    assert again.to_json() == first.to_json()
    assert calls == []


@pytest.mark.parametrize("seed", range(20))
def test_rows_past_the_depth_group_by_their_samplers_as_by_their_own_columns(seed: int) -> None:
    """The groups the tails are drawn in (by attacker, attack and target) read from the rows' samplers are those
    ranked from the rows' own columns: the same draws in the same order."""
    rng = np.random.default_rng(seed)
    keys = [tuple(int(x) for x in rng.integers(0, 3, size=3)) for _ in range(1 + seed % 9)]
    owner = rng.integers(0, len(keys), size=1 + 7 * seed)
    drawn = np.flatnonzero(np.bincount(owner, minlength=len(keys))).tolist()
    cols = [np.asarray([keys[i][k] for i in owner.tolist()], dtype=np.int64) for k in range(3)]
    count, inv = _ranked(keys, drawn, owner)
    expected_count, expected = dense_rank(pack(cols)[0])
    assert count == expected_count
    assert inv.tolist() == expected.tolist()


def test_a_layouts_rows_are_each_roles_support_row_read_one_by_one() -> None:
    """`_LayoutRows` (every role's support row at once) finds, for columns in, below and above each span, what
    looking each role's columns up in its support, row by row, finds: the joint row where every role has one."""
    rng = np.random.default_rng(4)
    supports = {
        "offense": Support(
            {"dice": np.asarray([2, 3, 7, 12]), "open": np.asarray([0, 0, 0, 1])}, np.ones(4, np.int64), 4
        ),
        "defense": Support({"dice": np.asarray([-5, 0, 4])}, np.ones(3, np.int64), 3),
    }
    parts = [(name, _SupportRows(sup), stride) for (name, sup), stride in zip(supports.items(), (3, 1), strict=True)]
    reader = _LayoutRows(parts)
    n = 400
    dice = {
        ("offense", "dice"): rng.integers(0, 15, n),
        ("offense", "open"): rng.integers(-1, 3, n),
        ("defense", "dice"): rng.integers(-7, 6, n),
    }
    found, joint = reader.rows(dice, None)
    for i in range(n):
        rows = []
        for name, sup in supports.items():
            hit = [r for r in range(sup.size) if all(sup.columns[c][r] == dice[name, c][i] for c in sup.columns)]
            rows.append(hit[0] if hit else -1)
        assert bool(found[i]) == (min(rows) >= 0)
        if found[i]:
            assert joint[i] == rows[0] * 3 + rows[1]
    assert found.any() and not found.all()
    sel = np.arange(0, n, 7)
    assert all(np.array_equal(a, b[sel]) for a, b in zip(reader.rows(dice, sel), (found, joint), strict=True))


def test_a_deeper_table_past_the_budget_is_refused_before_it_is_built(monkeypatch: Any) -> None:
    """A situation whose deeper table would take the rows past `DEEP_ROWS` gets none, and its table is never built
    (no `joint.build` at DEEP_DEPTH, no `resolve` of its rows): a group refuses most of its situations' deeper
    tables, and each one built was thrown away. One that fits is built and placed as before."""
    from tohit.engine import joint
    from tohit.engine.fight.modes import deep as deep_tables

    fight = load_fight(DUEL)
    simulate_fights(fight, 500, seed=3)
    sm = next(iter(caches(fight).sampler.values()))
    rows = joint.row_count(fight.system, *situation_blocks(fight, Situation.from_ident(sm.situation)), DEEP_DEPTH)
    built: list[int] = []
    build = joint.build

    def counted(*args: Any, **kwargs: Any) -> Any:
        table = build(*args, **kwargs)
        built.append(int(table.weights.size))
        return table

    monkeypatch.setattr(joint, "build", counted)
    monkeypatch.setattr(deep_tables, "DEEP_ROWS", rows - 1)
    assert DeepTables(fight.rules.outcome_fields).place(fight, sm) == (-1, -1) and built == []
    monkeypatch.setattr(deep_tables, "DEEP_ROWS", rows)
    assert DeepTables(fight.rules.outcome_fields).place(fight, sm)[0] == 0 and built == [rows]


def test_the_table_sampler_draws_from_joint_tables_at_depth_two_past_which_an_open_roll_goes_a_sixth_as_often() -> None:
    """Every table the duel's batch draws from is at `TABLE_DEPTH` (2): each open roll's chance of going past it is a
    sixth of its chance of going past depth 1 (one more open 6), exactly, and what the table holds within depth 1 it
    holds with the very same weight."""
    fight = load_fight(DUEL)
    simulate_fights(fight, 300, seed=2)
    samplers = list(caches(fight).sampler.values())
    assert samplers and all(sm.table.depth == TABLE_DEPTH == 2 for sm in samplers)
    for sm in samplers:
        shallow = joint.build(fight.system, *situation_blocks(fight, Situation.from_ident(sm.situation)), 1)
        opened = [name for name, sup in shallow.supports.items() if sup.remainder]
        assert opened  # Kaiser's Offensive and Defensive Rolls are open
        for name in opened:
            deep, one = sm.table.supports[name], shallow.supports[name]
            assert Fraction(deep.remainder, deep.total) * 6 == Fraction(one.remainder, one.total)
        assert Fraction(sm.table.remainder, sm.table.total) < Fraction(shallow.remainder, shallow.total) / 5


def test_a_value_past_narrow_limit_written_past_the_depth_widens_an_int32_field_not_wraps() -> None:
    """A field read as int32 (its stack's values within NARROW_LIMIT) that a row past the depth gives a value past
    the limit (a deeper table's or `resolve`'s: the null integer, a large damage) is widened to int64 first, every
    value kept; a value within the limit leaves it int32."""
    out: dict[str, Any] = {"damage": np.asarray([1, 2, 3], dtype=np.int32)}
    _put(out, "damage", np.asarray([1]), np.asarray([7], dtype=np.int32))
    assert out["damage"].dtype == np.int32 and out["damage"].tolist() == [1, 7, 3]
    _put(out, "damage", np.asarray([0, 2]), np.asarray([NULL_INT, 2**40]))
    assert out["damage"].dtype == np.int64 and out["damage"].tolist() == [NULL_INT, 7, 2**40]
    out = {"result": np.asarray([0, 0], dtype=np.int32)}
    _put(out, "result", np.asarray([1]), NARROW_LIMIT + 1)
    assert out["result"].tolist() == [0, NARROW_LIMIT + 1]
