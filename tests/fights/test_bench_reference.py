"""The fights bench measures the engine against a plain Python loop over the same rules (benchmarks/
fight_reference.py): for each of the bench's fights, the loop's wins and rounds agree with the engine's, so the
bench's ratio to the plain loop compares the same fights (issue 42). A loop that left out a rule the engine plays
(Kaiser's Multiple Defense Penalty, on by default, lengthened its fights by a third) fails here."""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks.bench_fights import SYSTEMS

from tohit.engine.fight.run import simulate_fights

Z = 4.0  # agreement within 4 standard errors (fixed seeds: deterministic)
ENGINE_N = 20_000
LOOP_N = 2_000


@pytest.mark.parametrize("which", [0, 1], ids=["1v1", "4v4"])
@pytest.mark.parametrize("game", list(SYSTEMS))
def test_the_benchs_plain_loop_plays_the_engines_fight(game: str, which: int) -> None:
    make, play = SYSTEMS[game]
    fight = make()[which]
    sim = simulate_fights(fight, ENGINE_N, seed=3)
    rng = random.Random(2)
    played: list[tuple[int, Any]] = [play(fight, rng) for _ in range(LOOP_N)]
    p, q = sim.wins(0) / ENGINE_N, sum(1 for won, _ in played if won == 0) / LOOP_N
    assert abs(p - q) < Z * (p * (1 - p) * (1 / ENGINE_N + 1 / LOOP_N)) ** 0.5 + 1e-9
    rounds = [float(r) for _, r in played]
    mean = sum(rounds) / LOOP_N
    spread = (sum((r - mean) ** 2 for r in rounds) / (LOOP_N - 1)) ** 0.5
    engine_mean, engine_spread = float(sim.rounds.mean()), float(sim.rounds.std())
    error = (spread**2 / LOOP_N + engine_spread**2 / ENGINE_N) ** 0.5
    assert abs(mean - engine_mean) < Z * error
