"""`resolve_at`: an attack resolved on a few of the batch's rows alone (a Kaiser Counterattack), everything given
and returned at those rows. The table mode's own path gives the fields that the generic path gives (`resolve` over
the whole batch, the fields read back at the rows), from the same dice drawn in the same order, rows past the
table's depth included."""

from __future__ import annotations

import numpy as np
import pytest
from benchmarks.fight_cases import kaiser_fights

from tohit.core.fight.contract import ALL
from tohit.core.fight.state import State
from tohit.engine.fight.modes import TableSample
from tohit.engine.fight.modes.base import StepContext
from tohit.engine.fight.run import initial_state
from tohit.systems.kaiser.fight import CONSEQUENCES


def test_resolve_at_on_the_rows_alone_gives_what_resolve_over_the_batch_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    fight = kaiser_fights()[0]
    n = 20_000
    rng = np.random.default_rng(5)
    start = initial_state(fight, n)
    per = {
        **start.per,
        "lp": rng.integers(1, 41, (n, 2)),  # the damage clipped at the LP left: many situations
        "def_mod": rng.integers(-4, 1, (n, 2)),
    }
    state = State(per, dict(start.fight))
    rows = np.flatnonzero(rng.random(n) < 0.3)
    actor = rng.integers(0, 2, rows.size)
    target = 1 - actor
    attack = np.zeros(rows.size, dtype=np.int64)
    bonus = {"modifiers": rng.integers(-3, 4, rows.size)}
    beyond: list[int] = []
    resolve_beyond = TableSample._resolve_beyond

    def counted(self: TableSample, b: np.ndarray, *args: object) -> None:
        beyond.append(b.size)
        resolve_beyond(self, b, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(TableSample, "_resolve_beyond", counted)
    own = TableSample(fight, state, np.random.default_rng(9))
    idx, at, out = own.resolve_at(rows, actor, attack, target, bonus, kind="counter", fields=CONSEQUENCES)
    generic = TableSample(fight, state, np.random.default_rng(9))
    g_idx, g_at, g_out = StepContext.resolve_at(
        generic, rows, actor, attack, target, bonus, kind="counter", fields=CONSEQUENCES
    )
    assert idx is ALL and g_idx is ALL
    assert np.array_equal(at, rows) and np.array_equal(g_at, rows)
    assert all(out[f].shape == rows.shape and np.array_equal(out[f], g_out[f]) for f in CONSEQUENCES)
    assert own.rng.bit_generator.state == generic.rng.bit_generator.state  # the same dice, no more, no fewer
    assert len(beyond) == 2 and beyond[0] == beyond[1] > 0  # each path resolved rows past the table's depth
    assert len(np.unique(out["damage"])) > 5  # outcomes of many situations
