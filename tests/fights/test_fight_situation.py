"""The situation key (engine/fight/situation.py): one order of columns, decoded back by name; packing keeps the
lexicographic order of the columns."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fights.helpers import duel, kaiser_combatant, kaiser_fight, load
from tohit.engine.fight.modes import TableSample, deep
from tohit.engine.fight.run import initial_state
from tohit.engine.fight.situation import SituationKey, pack, packed, twin


def test_situation_key_columns_decode_back_by_name() -> None:
    fight = load(duel())
    rules = fight.rules
    state = initial_state(fight, 3)
    key = SituationKey(rules, stats=rules.bound.table, overrides=["modifiers"])
    actor, attack, target = np.array([0, 1, 0]), np.zeros(3, dtype=np.int64), np.array([1, 0, 1])
    cols = key.columns(state.per, np.arange(3), actor, attack, target, {"modifiers": np.array([0, 2, -1])})
    s = key.decode([col[1] for col in cols])
    assert (s.c, s.a, s.t) == (1, 0, 0)
    assert s.overrides == {"modifiers": 2}
    assert set(s.stats) == set(rules.bound.table)
    assert s.ident != key.decode([col[0] for col in cols]).ident


@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(0, 5), st.integers(-50, 50)), min_size=1, max_size=30))
def test_situation_pack_keeps_the_columns_lexicographic_order(rows: list[tuple[int, int, int]]) -> None:
    cols = [np.asarray(c, dtype=np.int64) for c in zip(*rows, strict=True)]
    code, _ = pack(cols)
    for i in range(len(rows)):
        for j in range(len(rows)):
            assert (rows[i] < rows[j]) == (code[i] < code[j])


@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(-(2**24), 2**24), st.integers(-5, 5), st.booleans()),
        min_size=1,
        max_size=30,
    )
)
def test_situation_packed_codes_are_the_columns_digits_whatever_their_dtypes(
    rows: list[tuple[int, int, int, bool]],
) -> None:
    """`packed`: each row's code is its columns' digits (each column less its minimum) in the base of their spans,
    the first column the most significant, whether a column is int64, a batch's int32 stat or bools; `unpack` gives
    the columns back."""
    values = list(zip(*rows, strict=True))
    lows = [min(v) for v in values]
    spans = [max(v) - low + 1 for v, low in zip(values, lows, strict=True)]
    want = []
    for row in rows:
        code = 0
        for x, low, span in zip(row, lows, spans, strict=True):
            code = code * span + (int(x) - low)
        want.append(code)
    for dtypes in ((np.int64, np.int64, np.int64, bool), (np.int64, np.int32, np.int32, bool)):
        cols = [np.asarray(v, dtype=dt) for v, dt in zip(values, dtypes, strict=True)]
        found = packed(cols)
        assert found.code.dtype == np.int64 and found.code.tolist() == want
        assert found.radix == int(np.prod(spans))
        assert found.unpack(found.code) == [[int(x) for x in row] for row in rows]


def test_situation_packed_takes_large_minimums_off_before_they_pass_int64() -> None:
    """`packed`: a stat near the batch's int32 limit before columns of many values (a radix of 2**41) gives the
    columns' digits, as when every minimum is taken off column by column: the minimums' own code (past 2**62 here)
    is taken off before the raw code could pass int64, not refused."""
    cols = [np.array([2**24 - 1, 2**24], np.int32)] + [np.array([0, 2**10 - 1], np.int32)] * 4
    found = packed(cols)
    assert found.radix == 2**41 and found.code.tolist() == [0, 2**41 - 1]
    assert found.unpack(found.code) == [[2**24 - 1, 0, 0, 0, 0], [2**24, 2**10 - 1, 2**10 - 1, 2**10 - 1, 2**10 - 1]]


def test_situation_twins_are_the_attacks_with_the_same_blocks_names_aside() -> None:
    """Copies of one creature (names aside) are twins, whoever attacks whom among them; another skill is not."""
    skilled = kaiser_combatant("C", attacker={"offensive_skill": 12})
    fight = load(kaiser_fight([kaiser_combatant("A"), kaiser_combatant("B"), skilled], [kaiser_combatant("D")]))
    assert twin(fight, 1, 0, 3) == twin(fight, 0, 0, 3) == twin(fight, 3, 0, 1)
    assert twin(fight, 2, 0, 3) != twin(fight, 0, 0, 3)


def test_situation_rows_beyond_the_table_of_twin_attacks_share_one_resolve(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kaiser's open rolls past the table's depth are resolved as they come: the rows of a fight's copies of one
    creature, whoever attacks whom, in one `resolve` call (nine pairs of attacker and target here). Those a deeper
    table of their situation holds read it instead (`modes/deep.py`): here none is kept, so that every row resolves."""
    monkeypatch.setattr(deep, "DEEP_ROWS", 0)
    fight = load(
        kaiser_fight([kaiser_combatant(f"A{i}") for i in range(3)], [kaiser_combatant(f"B{i}") for i in range(3)])
    )
    n = 4000
    actor, attack, target = np.arange(n) % 3, np.zeros(n, dtype=np.int64), 3 + (np.arange(n) // 3) % 3
    ctx = TableSample(fight, initial_state(fight, n), np.random.default_rng(5))
    ctx.resolve(np.ones(n, dtype=bool), actor, attack, target)  # the tables built, once
    calls: list[int] = []
    resolve = type(fight.system).resolve

    def counted(self: Any, scenario: Any, target: Any, dice: Any, steps: Any) -> Any:
        calls.append(1)
        return resolve(self, scenario, target, dice, steps)

    monkeypatch.setattr(type(fight.system), "resolve", counted)
    ctx.resolve(np.ones(n, dtype=bool), actor, attack, target)
    assert calls == [1]
