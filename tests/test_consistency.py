"""Roll, odds and simulate cannot disagree (docs/architecture.md, "The one idea"; issue #2 §6).

For every bundled example of every registered system, 200,000 sampled attacks per target — with both
samplers — must agree with the exact odds on the result and on the damage distribution (chi-square at a
fixed seed, significance 1e-6), and the faces `roll` draws must follow each role's exact support.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from tohit.cli.demo import scenario_files
from tohit.engine.odds import odds
from tohit.engine.scenario import load
from tohit.engine.simulate import Method, simulate

SAMPLES = 200_000
Z_CRIT = 4.753  # one-sided normal quantile for p = 1e-6


def chi_square_critical(dof: int) -> float:
    """Wilson–Hilferty approximation of the chi-square quantile at p = 1e-6."""
    k = max(dof, 1)
    return k * (1 - 2 / (9 * k) + Z_CRIT * math.sqrt(2 / (9 * k))) ** 3


def chi_square(
    expected: dict[object, Fraction], observed: Counter[object] | dict[object, int], n: int
) -> tuple[float, int]:
    """Statistic and degrees of freedom, pooling cells expected below 5 into one."""
    stat, dof, pool_e, pool_o = 0.0, -1, 0.0, 0
    for key, p in expected.items():
        e = float(p) * n
        if e < 5:
            pool_e, pool_o = pool_e + e, pool_o + observed.get(key, 0)
            continue
        stat += (observed.get(key, 0) - e) ** 2 / e
        dof += 1
    unexpected = sum(c for k, c in observed.items() if k not in expected)
    pool_o += unexpected
    if pool_e >= 5:
        stat += (pool_o - pool_e) ** 2 / pool_e
        dof += 1
    elif pool_o > max(10, 20 * pool_e):  # far more than the rare cells allow
        stat += float("inf")
    return stat, max(dof, 1)


def example_files() -> list[Path]:
    return scenario_files(EXAMPLES)


@pytest.mark.parametrize("method", ["table", "direct"])
@pytest.mark.parametrize("path", example_files(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_sampled_attacks_agree_with_exact_odds(path: Path, method: Method) -> None:
    loaded = load(path)
    exact = odds(loaded)
    sim = simulate(loaded, SAMPLES, seed=20261121, method=method)
    for t_exact, t_sim in zip(exact.targets, sim.targets, strict=True):
        for field in ("result", "damage"):
            expected = {v: p for v, p in t_exact.distribution(field) if p}
            observed = dict(t_sim.histograms[field].items(t_sim.outcome))
            stat, dof = chi_square(expected, observed, SAMPLES)  # type: ignore[arg-type]
            assert stat < chi_square_critical(dof), f"{t_exact.name} {field}: chi2 {stat:.1f} on {dof} dof"


@pytest.mark.parametrize("path", example_files(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_rolled_faces_follow_each_roles_exact_support(path: Path) -> None:
    """`draw` then `read` (the roll path) against `support` (the odds path), role by role."""
    loaded = load(path)
    rng = np.random.default_rng(5)
    draws = 4000
    for target in loaded.scenario.targets[:1]:
        for name, role in loaded.system.roles(loaded.scenario, target).items():
            support = role.support(depth=3)
            keys = list(zip(*(support.columns[c].tolist() for c in role.columns), strict=True))
            expected = {k: Fraction(int(w), support.total) for k, w in zip(keys, support.weights, strict=True)}
            seen: Counter[object] = Counter()
            for _ in range(draws):
                cols = role.read(role.draw(rng))
                key = tuple(int(cols[c][0]) for c in role.columns)
                seen[key if key in expected else "beyond"] += 1
            if support.remainder:
                expected["beyond"] = Fraction(support.remainder, support.total)  # type: ignore[index]
            stat, dof = chi_square(expected, seen, draws)  # type: ignore[arg-type]
            assert stat < chi_square_critical(dof), f"role {name}: chi2 {stat:.1f} on {dof} dof"
