"""The situation key (engine/fight/situation.py): one order of columns, decoded back by name; packing keeps the
lexicographic order of the columns."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tests.fights.helpers import duel, load
from tohit.engine.fight.run import initial_state
from tohit.engine.fight.situation import SituationKey, pack


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
