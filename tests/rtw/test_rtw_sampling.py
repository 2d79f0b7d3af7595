"""Sampled vs exact: chi-square agreement for both samplers; one resolve for the three feeds."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from tests.conftest import scenario
from tests.rtw.helpers import SWORD
from tohit.engine.odds import TargetOdds, odds
from tohit.engine.roll import roll
from tohit.engine.simulate import Method, TargetSim, simulate

N = 200_000
SEED = 20240603
#: Upper 0.1% point of the standard normal, for the Wilson-Hilferty chi-square critical value.
Z_999 = 3.0902

SCENARIO: dict[str, Any] = {
    "system": "rtw",
    "attacker": {"accuracy": 2, "combat": 3, "willpower": 2, "weapon": {**SWORD, "crit_range": 2}},
    "attack": {
        "kind": "basic",
        "damage": {"trait": "combat", "multiplier": 2},
        "effect": {"name": "Off-Balance", "against": "vitality"},
    },
    "targets": [
        {"name": "Bokoblin", "evasion": 12, "vitality": 13, "defense": 2, "health": 14, "hearts": 4},
        {"name": "Keese", "evasion": 13, "vitality": 9, "hard_to_hit": "hard", "vulnerable": ["sharp"], "defense": 9},
        {"name": "Knight", "evasion": 9, "vitality": 14, "defense": 5, "reaction": "deflect", "health": 6, "hearts": 2},
    ],
}
FIELDS = ("result", "damage", "critical", "effect_landed", "peril", "falls")


def critical_value(df: int, z: float = Z_999) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi_square(observed: dict[Any, int], expected: dict[Any, Fraction], n: int) -> tuple[float, int]:
    """Pearson's statistic with bins of expected count < 5 pooled; returns (statistic, degrees of freedom)."""
    bins: list[tuple[float, int]] = []
    pooled_e, pooled_o = 0.0, 0
    for value, p in expected.items():
        e = float(p) * n
        o = observed.get(value, 0)
        if e < 5:
            pooled_e, pooled_o = pooled_e + e, pooled_o + o
        else:
            bins.append((e, o))
    if pooled_e > 0:
        bins.append((pooled_e, pooled_o))
    extra = sum(c for v, c in observed.items() if v not in expected)
    assert extra == 0, "the sampler produced a value the exact odds give probability 0"
    stat = sum((o - e) ** 2 / e for e, o in bins)
    return stat, max(1, len(bins) - 1)


def agree(sim: TargetSim, exact: TargetOdds, field: str) -> tuple[float, float]:
    observed = {v: c for v, c in sim.histograms[field].items(sim.outcome)}
    expected = {v: p for v, p in exact.distribution(field) if p}
    stat, df = chi_square(observed, expected, sim.n)
    return stat, critical_value(df)


@pytest.mark.parametrize("method", ["table", "direct"])
def test_rtw_sampled_frequencies_agree_with_exact_odds(method: Method) -> None:
    """docs/architecture.md, "The one idea": roll, odds and simulate share `resolve`, so sampled frequencies match the
    exact odds (chi-square, 200,000 attacks per target, fixed seed), with both samplers."""
    loaded = scenario(SCENARIO)
    exact = odds(loaded)
    sim = simulate(loaded, N, seed=SEED, method=method)
    for target in exact.targets:
        for field in FIELDS:
            stat, limit = agree(sim.target(target.name), target, field)
            assert stat < limit, (method, target.name, field, stat, limit)


def test_rtw_chi_square_rejects_a_wrong_distribution() -> None:
    """The agreement test has power: samples of one target do not pass against another target's odds."""
    loaded = scenario(SCENARIO)
    exact = odds(loaded)
    sim = simulate(loaded, N, seed=SEED)
    stat, limit = agree(sim.target("Bokoblin"), exact.target("Knight"), "result")
    assert stat > limit


def test_rtw_one_resolve_feeds_roll_and_odds_alike() -> None:
    """Every face pair rolled once (n = 1, traced) gives the same outcome as the batch `resolve` of the exact
    odds: the trace branches never change a result."""
    loaded = scenario(SCENARIO)
    exact = odds(loaded)
    for target in SCENARIO["targets"]:
        seen: dict[tuple[Any, ...], int] = {}
        for a, b, c, d in product(range(1, 7), repeat=4):
            data = {**SCENARIO, "targets": [{**target, "dice": {"to_hit": [a, b], "effect": [c, d]}}]}
            row = roll(scenario(data)).targets[0].row
            key = tuple(row[f] for f in FIELDS)
            seen[key] = seen.get(key, 0) + 1
        ours = exact.target(target["name"])
        for index, field in enumerate(FIELDS):
            marginal: dict[Any, Fraction] = {}
            for key, count in seen.items():
                marginal[key[index]] = marginal.get(key[index], Fraction(0)) + Fraction(count, 6**4)
            assert {v: p for v, p in ours.distribution(field) if p} == marginal, (target["name"], field)


BATCH_CASES: dict[str, dict[str, Any]] = {
    "effect-and-health": SCENARIO,
    "burning-frozen-spell": {
        "system": "rtw",
        "attacker": {"accuracy": 1, "combat": 2, "weapon": {**SWORD, "burning": True, "damage_type": "blunt"}},
        "attack": {"kind": "spell", "normally_able_to_miss": True, "effect": {"name": "Soaked", "against": "vitality"}},
        "targets": [{"name": "Ice Keese", "evasion": 12, "vitality": 9, "frozen": True, "hard_to_hit": "hard"}],
    },
    "helpless-alone": {
        "system": "rtw",
        "attacker": {"accuracy": 0, "combat": 1, "blinded": True},
        "attack": {"kind": "basic", "range": "projectile", "cost": {"stamina": 2}},
        "options": {"natural_crit_always_hits": True},
        "targets": [{"name": "Fallen", "evasion": 12, "health": 0, "hearts": 2, "helpless": True}],
    },
}


@pytest.mark.parametrize("key", list(BATCH_CASES))
def test_rtw_batch_trace_rows_equal_single_rolls(key: str) -> None:
    """`batch_trace`: each of `roll --times N` rows (one vectorised resolve) equals a single roll of its faces,
    trace included."""
    from tohit.engine.roll import roll_many

    data = BATCH_CASES[key]
    batch = roll_many(scenario(data), 200, seed=5)
    for result in batch:
        faces = {t.name: t.faces for t in result.targets}
        forced = {**data, "targets": [{**t, "dice": faces[t["name"]]} for t in data["targets"]]}
        single = roll(scenario(forced))
        for t in result.targets:
            one = single.target(t.name)
            assert one.row == t.row
            assert [(s.text, s.clause) for s in one.steps] == [(s.text, s.clause) for s in t.steps]
