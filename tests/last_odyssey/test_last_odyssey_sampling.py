"""Last Odyssey: simulated frequencies agree with the exact odds (chi-square, both samplers, fixed seeds)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.last_odyssey.helpers import load
from tests.last_odyssey.test_last_odyssey_oracle import SCENARIOS
from tohit.engine.odds import odds
from tohit.engine.simulate import simulate

N = 200_000
#: Upper 0.1% point of the standard normal, for the Wilson-Hilferty chi-square quantile.
Z_999 = 3.090232306167813


def chi_square_limit(df: int) -> float:
    """The chi-square value exceeded with probability 0.001 (Wilson-Hilferty approximation)."""
    k = 2 / (9 * df)
    return float(df * (1 - k + Z_999 * math.sqrt(k)) ** 3)


def chi_square(counts: dict[Any, int], probabilities: dict[Any, Any], n: int) -> tuple[float, int]:
    """Pearson's statistic over the support of the exact distribution; counts outside it fail at once."""
    assert set(counts) <= {v for v, p in probabilities.items() if p}, set(counts) - set(probabilities)
    cells = [(counts.get(v, 0), n * float(p)) for v, p in probabilities.items() if p]
    statistic = sum((seen - expected) ** 2 / expected for seen, expected in cells)
    return statistic, len(cells) - 1


@pytest.mark.parametrize("method", ["table", "direct"])
@pytest.mark.parametrize("name", ["multi physical on 5 targets", "status with every element threshold"])
def test_last_odyssey_simulation_agrees_with_exact_odds(name: str, method: str) -> None:
    """Sampled result and damage frequencies of each target match the exact odds (200,000 attacks, seed 6)."""
    loaded = load(SCENARIOS[name])
    exact = odds(loaded)
    sampled = simulate(loaded, N, seed=6, method=method)  # type: ignore[arg-type]
    for target in exact.targets:
        sim = sampled.target(target.name)
        for field in ("result", "damage"):
            probabilities = dict(target.distribution(field))
            counts = {v: c for v, c in sim.histograms[field].items(sim.outcome) if c}
            statistic, df = chi_square(counts, probabilities, N)
            if df == 0:
                assert counts == {next(v for v, p in probabilities.items() if p): N}
                continue
            assert statistic < chi_square_limit(df), (target.name, field, statistic, df)


def test_last_odyssey_chi_square_detects_a_wrong_distribution() -> None:
    """The check above can fail: a fair d10 tested against a loaded one is rejected."""
    fair = {face: N // 10 for face in range(1, 11)}
    loaded = {face: (0.12 if face == 1 else 0.88 / 9) for face in range(1, 11)}
    statistic, df = chi_square(fair, loaded, N)
    assert statistic > chi_square_limit(df)
