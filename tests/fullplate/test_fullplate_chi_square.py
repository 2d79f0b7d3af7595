"""Sampled vs exact: both samplers ("table" and "direct") agree with FullPlate's exact odds (chi-square, 200,000
attacks, fixed seed), on the fields a player reads: result, damage, critical, severity and creature hit."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from tests.fullplate.helpers import exact, load, make
from tohit.engine.simulate import simulate

N = 200_000
#: Upper 0.1% point of the standard normal, for the Wilson-Hilferty chi-square quantile.
Z_999 = 3.090232306167813

SCENARIO = make(
    attacker={"thac0": 14, "damage_bonus": 1, "ammunition": {"enhancement": 1}},
    weapon={"damage": "1d8", "enhancement": 1, "kind": "bow_like", "critical_range": 19},
    attack={"called": True},
    target={
        "name": "knight",
        "ac": 2,
        "engaged_with": [{"name": "orc"}, {"name": "ogre", "size": "large"}],
        "special_defence": 2,
        "resistance_pct": 25,
    },
)
#: Issue 15: stray shots judged against the creature's own AC, Special Defence and Resistance
#: (docs/fullplate.md#silent-firing-into-melee).
STRAY = make(
    attacker={"thac0": 15, "damage_bonus": 1},
    weapon={"damage": "1d8", "kind": "bow_like", "critical_range": 19},
    attack={"circumstances": ["target_cover_50", "visibility_75"]},
    target={
        "name": "knight",
        "ac": 2,
        "engaged_with": [
            {"name": "orc", "ac": 7, "vulnerability_pct": 50, "armour": "none"},
            {"name": "ogre", "size": "large", "ac": 5, "special_defence": 1},
            {"name": "wisp", "size": "tiny", "ac": -19, "resistance_pct": 50},
        ],
    },
)
HALVING = make(attacker={"thac0": 20}, weapon={"damage": "2d6"}, target={"ac": -13}, attack={"automatic_hit": False})


def critical_value(dof: int) -> float:
    """Chi-square quantile at 1 - 0.001 (Wilson-Hilferty; accurate to a few % for dof >= 1)."""
    a = 2 / (9 * dof)
    return float(dof * (1 - a + Z_999 * math.sqrt(a)) ** 3)


def chi_square(expected: dict[Any, Fraction], observed: dict[Any, int], n: int) -> tuple[float, int]:
    """Pearson's statistic, pooling cells expected below 5 into one."""
    stat, dof = 0.0, -1
    pooled_e, pooled_o = 0.0, 0
    for value, prob in expected.items():
        e = float(prob) * n
        o = observed.get(value, 0)
        if e < 5:
            pooled_e, pooled_o = pooled_e + e, pooled_o + o
            continue
        stat += (o - e) ** 2 / e
        dof += 1
    if pooled_e > 0:
        stat += (pooled_o - pooled_e) ** 2 / max(pooled_e, 1e-12)
        dof += 1
    assert set(observed) <= set(expected), "sampled an outcome the exact odds say is impossible"
    return stat, max(dof, 1)


@pytest.mark.parametrize("method", ["table", "direct"])
@pytest.mark.parametrize(
    "data", [SCENARIO, HALVING, STRAY], ids=["into_melee_called", "natural_20_halving", "stray_shots_own_stats"]
)
def test_fullplate_simulation_agrees_with_exact_odds(method: str, data: dict[str, Any]) -> None:
    """Both samplers draw the distribution the exact odds give (p > 0.001 on every field)."""
    odds = exact(data)
    sim = simulate(load(data), N, seed=20260511, method=method).targets[0]  # type: ignore[arg-type]
    for field in ("result", "damage", "critical", "severity", "creature_hit", "halvings"):
        expected = {v: pr for v, pr in odds.distribution(field) if pr}
        observed = {v: c for v, c in sim.histograms[field].items(sim.outcome) if c}
        stat, dof = chi_square(expected, observed, N)
        assert stat < critical_value(dof), (field, stat, dof)
        assert sum(observed.values()) == N


def test_fullplate_chi_square_detects_a_wrong_distribution() -> None:
    """The test can fail: a 1-in-20 shift in the hit rate is far beyond the critical value at this N."""
    expected = {"hit": Fraction(1, 2), "miss": Fraction(1, 2)}
    stat, dof = chi_square(expected, {"hit": N // 2 + N // 40, "miss": N // 2 - N // 40}, N)
    assert stat > critical_value(dof)
    assert np.isclose(critical_value(1), 10.83, rtol=0.05)
