"""Bounded memory (issue #9): past KEEP_FIGHTS a Monte Carlo keeps running totals only, with the same summary."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES
from tohit.engine.fight import run
from tohit.engine.fight.load import load_fight


@pytest.mark.parametrize("workers", [1, 2])
def test_large_runs_keep_totals_only_and_summarise_the_same(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    fight = load_fight(EXAMPLES / "fights" / "kaiser-duel.yaml")
    kept = run.simulate_fights(fight, 3000, seed=5, workers=workers, batch=700)
    assert kept.winner is not None and kept.winner.size == 3000
    monkeypatch.setattr(run, "KEEP_FIGHTS", 1000)
    totals = run.simulate_fights(fight, 3000, seed=5, workers=workers, batch=700)
    assert totals.winner is None and totals.health is None
    assert totals.to_json() == kept.to_json()
