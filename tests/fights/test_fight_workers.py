"""`tohit fight FILE -n N --workers W` (issue 9): the fights shared among W processes, each task with its own
stream spawned from the seed; the same seed and worker count give the same result, merged exactly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import duel, kaiser_combatant, kaiser_fight, load
from tohit.cli.app import app
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import simulate_fights


def test_fight_workers_same_seed_and_workers_give_identical_results() -> None:
    fight = load(kaiser_fight([kaiser_combatant("A", target={"lp": 20})], [kaiser_combatant("B", target={"lp": 20})]))
    one = simulate_fights(fight, 6_001, seed=7, workers=2)
    two = simulate_fights(fight, 6_001, seed=7, workers=2)
    assert one.n == 6_001 and one.winner.size == 6_001
    for name in ("winner", "rounds", "health", "standing", "dealt"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
    assert one.to_json() == two.to_json()
    # Three workers: three other streams (tasks depend only on N and W), the same fights' distribution.
    three = simulate_fights(fight, 6_001, seed=7, workers=3)
    assert not np.array_equal(one.winner, three.winner)


def test_fight_workers_merge_every_fight_and_agree_with_the_exact_chain() -> None:
    """Each worker's share, merged in task order: the counts add up to N and the win rate agrees with the
    exact duel within 4 standard errors."""
    fight = load(kaiser_fight([kaiser_combatant("A", target={"lp": 20})], [kaiser_combatant("B", target={"lp": 20})]))
    p = float(exact_duel(fight).wins[0])
    n = 60_000
    seen: list[int] = []
    sim = simulate_fights(fight, n, seed=3, workers=2, progress=seen.append)
    assert sum(seen) == n
    assert sim.wins(0) + sim.wins(1) + sim.draws == n
    assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_fight_workers_cli_is_repeatable_and_refused_without_n(tmp_path: Path) -> None:
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(duel()))
    args = ["fight", str(path), "-n", "4000", "--seed", "5", "--json", "--workers", "2"]
    first = CliRunner().invoke(app, args)
    second = CliRunner().invoke(app, args)
    assert first.exit_code == 0 and second.exit_code == 0
    assert json.loads(first.output) == json.loads(second.output)
    refused = CliRunner().invoke(app, ["fight", str(path), "--workers", "2"])
    assert refused.exit_code == 2 and "--workers" in " ".join(refused.output.split())
