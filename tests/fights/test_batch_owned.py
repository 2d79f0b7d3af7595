"""A Monte Carlo batch's step owns its input state (issue 42): the play loop made the state and reads none of it
after the step, so events write its arrays in place instead of copying each on its first change. Every other caller
(the exact chain, the stalemate check, `apply`) keeps its input as it was; the `turn` stat is always copied on
change, since the round's order is kept while that array is the same object (core/fight/order.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from tohit.core.fight.order import TURN, order_rows
from tohit.core.fight.state import State
from tohit.engine.fight import play
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes.table import TableSample
from tohit.engine.fight.run import simulate_fights

FIGHTS = EXAMPLES / "fights"


def _stepped(name: str, own: bool) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], TableSample]:
    """A batch of 64 fights of an example, stepped once: (its input arrays, copies of them before, the context)."""
    fight = load_fight(FIGHTS / name)
    state = initial_state(fight, 64)
    ctx = TableSample(fight, state, np.random.default_rng(3), max_rounds=fight.max_rounds)
    if own:
        ctx.own_input()
    before = {k: v.copy() for k, v in state.per.items()}
    play.step(ctx)
    return dict(state.per), before, ctx


def test_a_batch_step_writes_the_loops_arrays_in_place() -> None:
    """Owned: a stat the step changes is the very array it was given, now holding the new values."""
    given, before, ctx = _stepped("kaiser-duel.yaml", own=True)
    assert not np.array_equal(ctx.state.per["ap"], before["ap"])  # the first attack spent AP
    assert ctx.state.per["ap"] is given["ap"]


def test_a_step_that_does_not_own_its_input_leaves_it_as_it_was() -> None:
    """Not owned (the exact chain's and the stalemate check's steps): every changed stat is a new array and the
    input's arrays keep their values."""
    given, before, ctx = _stepped("kaiser-duel.yaml", own=False)
    assert ctx.state.per["ap"] is not given["ap"]
    for k, v in given.items():
        assert np.array_equal(v, before[k]), k


def test_the_turn_stat_is_copied_on_change_even_when_owned() -> None:
    """WSSWNN rolls each fight's initiative on its first step (the `turn` stat): owned or not, the new order is a
    new array, so the order kept by the array's identity is read anew."""
    given, before, ctx = _stepped("wsswnn-kulu-brute.yaml", own=True)
    fight = ctx.fight
    assert ctx.state.per[TURN] is not given[TURN]
    assert np.array_equal(given[TURN], before[TURN])
    order = order_rows(fight, ctx.state.per[TURN])
    assert np.array_equal(
        np.take_along_axis(ctx.state.per[TURN], order, axis=1), np.arange(fight.roster.size)[None, :].repeat(64, axis=0)
    )


def test_an_owned_batch_gives_the_results_of_copies() -> None:
    """The same fights, the same seed: a batch whose steps own their state ends as one whose steps copy."""
    fight = load_fight(FIGHTS / "wsswnn-kulu-brute.yaml")
    owned = simulate_fights(fight, 2_000, seed=5)
    original = TableSample.own_input
    TableSample.own_input = lambda self: None  # type: ignore[method-assign]
    try:
        copied = simulate_fights(fight, 2_000, seed=5)
    finally:
        TableSample.own_input = original  # type: ignore[method-assign]
    assert owned.to_json() == copied.to_json()


def test_a_drop_keeps_the_first_rows_of_the_stats_no_event_has_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch starts as copies of one fight, so a stat no event has written since holds the same row in every fight:
    a drop of finished fights keeps its first rows (a view of the array it had) and copies the rows kept of every
    stat an event wrote. The results are those of a drop that copies every stat."""
    fight = load_fight(FIGHTS / "rtw-keese-swarm.yaml")
    drops: list[tuple[set[str], bool]] = []  # per drop: the stats kept as views, and whether each holds one row
    real = State.take

    def recorded(self: State, rows: Any, same: Any = None, alike: Any = ()) -> State:
        taken = real(self, rows, same, alike)
        if same is not None:  # the play loop's drop (a stalemate check takes its fights too)
            shared = {k for k in self.per if np.shares_memory(self.per[k], taken.per[k])}
            drops.append((shared, all((self.per[k] == self.per[k][:1]).all() for k in shared)))
        return taken

    monkeypatch.setattr(State, "take", recorded)
    kept = simulate_fights(fight, 2_000, seed=5)
    assert drops and all(shared and alike for shared, alike in drops)
    assert not any({"health", "dealt"} & shared for shared, _ in drops)  # written by the hits
    assert len({frozenset(shared) for shared, _ in drops}) > 1  # fewer as the fight writes more of them
    monkeypatch.setattr(State, "take", lambda self, rows, same=None, alike=(): real(self, rows, same))
    assert simulate_fights(fight, 2_000, seed=5).to_json() == kept.to_json()
