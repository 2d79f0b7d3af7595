"""The engine fast paths added for Last Odyssey's speed targets give the same exact answers as before.

(`Outcome.set` on a ready array, `group_sum` on a few rows, `Alias.counts` for the table sampler.)
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.last_odyssey.test_last_odyssey_sampling import chi_square, chi_square_limit
from tohit.core.outcome import Outcome
from tohit.engine import tally
from tohit.engine.alias import Alias


def _sorted_group_sum(values: np.ndarray, weights: np.ndarray) -> dict[int, int]:
    out: dict[int, int] = {}
    for v, w in zip(values.tolist(), weights.tolist(), strict=True):
        out[v] = out.get(v, 0) + int(w)
    return out


def test_last_odyssey_group_sum_small_and_sorted_paths_agree() -> None:
    """Exact sums per value, whichever path runs (int64 and Python-int weights)."""
    rng = np.random.default_rng(3)
    for n in (1, 5, tally.SMALL, tally.SMALL + 1, 1000):
        values = rng.integers(-5, 6, size=n).astype(np.int64)
        weights = rng.integers(1, 1 << 40, size=n).astype(np.int64)
        assert tally.group_sum(values, weights) == _sorted_group_sum(values, weights)
        big = np.asarray([int(w) << 30 for w in weights], dtype=object)
        assert tally.group_sum(values, big) == _sorted_group_sum(values, big)
        assert list(tally.group_sum(values, weights)) == sorted(set(values.tolist()))


def test_last_odyssey_outcome_set_broadcasts_to_int64() -> None:
    """`Outcome.set` stores int64 arrays of n: arrays, booleans and scalars."""
    out = Outcome(3)
    out.set("a", np.asarray([1, 2, 3], dtype=np.int64))
    out.set("b", np.asarray([True, False, True]))
    out.set("c", 7)
    out.set("d", np.int64(-2))
    out.set("e", [4])
    assert (out["a"].tolist(), out["b"].tolist(), out["c"].tolist(), out["d"].tolist(), out["e"].tolist()) == (
        [1, 2, 3],
        [1, 0, 1],
        [7, 7, 7],
        [-2, -2, -2],
        [4, 4, 4],
    )
    assert all(out[k].dtype == np.int64 for k in "abcde")


def test_last_odyssey_alias_counts_follow_the_weights() -> None:
    """`Alias.counts` (atom table and alias table) sums to n, never picks a zero weight, and matches the
    weights (chi-square, fixed seed)."""
    for weights in ([1] * 10, [3, 0, 5, 2], [1, 70_000, 3, 0, 9]):
        sampler = Alias(weights)
        n = 300_000
        counts = sampler.counts(np.random.default_rng(11), n)
        assert counts.dtype == np.int64 and int(counts.sum()) == n
        assert all(int(c) == 0 for c, w in zip(counts, weights, strict=True) if w == 0)
        total = sum(weights)
        probabilities = {i: w / total for i, w in enumerate(weights) if w}
        observed = {i: int(c) for i, c in enumerate(counts) if c}
        statistic, df = chi_square(observed, probabilities, n)
        assert statistic < chi_square_limit(df), (weights, statistic)


def test_last_odyssey_simulation_shares_the_hit_die_across_targets() -> None:
    """One hit die per simulated attack serves every target (table sampler); per target otherwise."""
    from tests.last_odyssey.helpers import load, scenario
    from tohit.engine.simulate import _simulate_shared

    multi = load(scenario({}, {"evasion": 9}, attack={"kind": "physical", "type": "multi"}))
    shared = _simulate_shared(multi, 1000, np.random.default_rng(1), None)
    assert shared is not None and [t.n for t in shared] == [1000, 1000]
    # Both targets read the same 1000 d10s: the one set of counts the sampler draws from this seed.
    faces = Alias([1] * 10).counts(np.random.default_rng(1), 1000)
    easy, hard = (t.frequency("result", "hit") for t in shared)
    assert easy == int(faces[:8].sum())  # 2 - 3 + d <= 7: faces 1-8
    assert hard == int(faces[0])  # 9 - 3 + d <= 7: face 1 only
    assert _simulate_shared(load(scenario({})), 1000, np.random.default_rng(1), None) is None


def test_last_odyssey_odds_share_the_table_of_the_hit_die() -> None:
    """`odds` tables the shared hit die once and reuses it for every target: same numbers as one table per
    target (`target_odds`), and the rows are the template's."""
    from tests.last_odyssey.helpers import load
    from tests.last_odyssey.test_last_odyssey_oracle import SCENARIOS
    from tohit.engine import joint
    from tohit.engine.odds import odds, target_odds

    loaded = load(SCENARIOS["multi physical on 5 targets"])
    shared = odds(loaded)
    for target in loaded.scenario.targets:
        alone = target_odds(loaded, target)
        mine = shared.target(target.name)
        assert {k: h.counts for k, h in mine.histograms.items()} == {k: h.counts for k, h in alone.histograms.items()}
        assert mine.total == alone.total == 10
    first = joint.build(loaded.system, loaded.scenario, loaded.scenario.targets[0])
    second = joint.build(loaded.system, loaded.scenario, loaded.scenario.targets[1], template=first)
    assert second.weights is first.weights and second.index is first.index


def test_last_odyssey_histograms_small_and_large_paths_agree() -> None:
    """`histograms` on a few rows (plain loop) equals the sorted path on the same values."""
    from tohit.core.outcome import Field

    rng = np.random.default_rng(5)
    fields = (Field("a", "int", "a"), Field("b", "flag", "b"))
    for n in (3, tally.SMALL, tally.SMALL + 7):
        out = Outcome(n)
        out.set("a", rng.integers(-3, 9, size=n))
        out.set("b", rng.integers(0, 2, size=n))
        weights = rng.integers(1, 1 << 30, size=n).astype(np.int64)
        got = tally.histograms(fields, out, weights)
        for f in fields:
            assert got[f.name].counts == _sorted_group_sum(out[f.name], weights)


def test_last_odyssey_odds_fields_not_reported_are_counted_on_demand() -> None:
    """`odds` counts result, damage and the `in_odds` fields at once; the others (accuracy value) when
    asked for, with the same exact numbers; the JSON still reports only the `in_odds` ones."""
    from fractions import Fraction

    from tests.last_odyssey.helpers import load, scenario
    from tohit.engine.odds import odds

    target = odds(load(scenario({}))).targets[0]
    assert "accuracy_value" not in target.to_json()["fields"]
    assert target.distribution("accuracy_value") == [(face - 3, Fraction(1, 10)) for face in range(1, 11)]
    assert target.probability("hit_value", 0) == Fraction(1, 10)
    assert target.beyond_depth == 0
    with pytest.raises(KeyError):
        target.histograms["no_such_field"]
