"""Sampled vs exact: chi-square agreement of simulate (both samplers) with the exact odds (docs/architecture.md,
"Tests").

200,000 attacks per scenario and sampler, fixed seeds. The statistic is turned into a z-score with the
Wilson-Hilferty approximation (no scipy); z above 4 (p about 3e-5) fails. A control checks the test can
fail: the same samples against a slightly wrong distribution are rejected.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from tests.conftest import scenario
from tests.wsswnn.helpers import make
from tests.wsswnn.test_wsswnn_oracle import HOLD, JUMP, JUMP_LOW_GUARD, MELEE
from tohit.engine.odds import target_odds
from tohit.engine.simulate import Method, simulate

N = 200_000
Z_LIMIT = 4.0
FIELDS = ("result", "damage", "guard_damage", "falling_lethal", "brace_result", "attack_roll")

BALLOON = make(attacker={"attack_die": "d12", "maneuver_die": "d6", "weapon": {"guard_damage": 2}})
BALLOON["attack"] = {"kind": "jump", "heights": 1}
BALLOON["targets"] = [{"name": "Balloon", "materials": ["cloth", "wicker"], "structure": 16}]

GRAPPLE = make(
    attacker={"attack_die": "d6", "brace_die": "d10", "maneuver_die": "d6", "penalty": {"brace": 1}},
    attack={"kind": "brace", "brace": "grapple", "advantage": "maneuver"},
    target={"stamina": 5, "strength": 2, "held": True, "unflinching": 0},
)

SCENARIOS: dict[str, dict[str, Any]] = {
    "melee": MELEE,
    "jump": JUMP,
    "jump_guard_below_agility": JUMP_LOW_GUARD,
    "take_hold": HOLD,
    "object_jump": BALLOON,
    "grapple_brace": GRAPPLE,
}


def chi_square_z(counts: dict[Any, int], probs: dict[Any, Fraction], n: int) -> float:
    """Pearson's statistic over the categories (those expecting fewer than 5 pooled), as a Wilson-Hilferty z."""
    assert set(counts) <= set(probs), f"sampled values never seen in the exact odds: {set(counts) - set(probs)}"
    stat, k, pooled_obs, pooled_exp = 0.0, 0, 0, 0.0
    for value, p in probs.items():
        expected = n * float(p)
        observed = counts.get(value, 0)
        if expected < 5:
            pooled_obs += observed
            pooled_exp += expected
            continue
        stat += (observed - expected) ** 2 / expected
        k += 1
    if pooled_exp >= 5:
        stat += (pooled_obs - pooled_exp) ** 2 / pooled_exp
        k += 1
    df = k - 1
    if df < 1:
        return 0.0
    return ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))


def _exact_and_sampled(name: str, method: Method, seed: int) -> tuple[Any, Any]:
    loaded = scenario(SCENARIOS[name])
    target = loaded.scenario.targets[0]
    exact = target_odds(loaded, target)
    sampled = simulate(loaded, N, seed=seed, method=method).targets[0]
    return exact, sampled


@pytest.mark.parametrize("method", ["table", "direct"])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_wsswnn_simulation_agrees_with_exact_odds_chi_square(name: str, method: Method) -> None:
    """simulate (table and direct samplers) agrees with the exact odds on every listed field."""
    exact, sampled = _exact_and_sampled(name, method, seed=20240607)
    for field in FIELDS:
        probs = {v: p for v, p in exact.distribution(field) if p}
        counts = {v: c for v, c in sampled.histograms[field].items(sampled.outcome) if c}
        assert sum(counts.values()) == N
        z = chi_square_z(counts, probs, N)
        assert z < Z_LIMIT, (name, method, field, z)


def test_wsswnn_chi_square_rejects_a_wrong_distribution() -> None:
    """Control: the samples of the d10/d8 melee against a distribution 1% off are rejected."""
    exact, sampled = _exact_and_sampled("melee", "table", seed=7)
    probs = {v: p for v, p in exact.distribution("result") if p}
    shifted = dict(probs)
    shifted["hit"] += Fraction(1, 100)
    shifted["miss"] -= Fraction(1, 100)
    counts = {v: c for v, c in sampled.histograms["result"].items(sampled.outcome) if c}
    assert chi_square_z(counts, probs, N) < Z_LIMIT
    assert chi_square_z(counts, shifted, N) > Z_LIMIT
