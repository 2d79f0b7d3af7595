"""Engine internals that the three feeds rely on: exact tallies, the alias sampler, detail roles."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import EXAMPLES
from tohit.cli.demo import scenario_files
from tohit.core.outcome import NULL_INT, Field, Outcome
from tohit.core.steps import Silent
from tohit.core.system import Dice
from tohit.engine import joint
from tohit.engine.alias import Alias
from tohit.engine.scenario import load
from tohit.engine.tally import group_sum, histograms


def slow_group_sum(values: list[int], weights: list[int]) -> dict[int, int]:
    out: Counter[int] = Counter()
    for v, w in zip(values, weights, strict=True):
        out[v] += w
    return dict(out)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-50, 50) | st.just(NULL_INT), st.integers(1, 2**62 // 4096)), min_size=1, max_size=300
    )
)
def test_group_sum_is_exact_for_large_weights(pairs: list[tuple[int, int]]) -> None:
    values = np.asarray([v for v, _ in pairs], dtype=np.int64)
    weights = np.asarray([w for _, w in pairs], dtype=np.int64)
    assert group_sum(values, weights) == slow_group_sum(values.tolist(), weights.tolist())


def test_group_sum_with_python_int_weights() -> None:
    values = np.asarray([1, 2, 1], dtype=np.int64)
    weights = np.asarray([2**70, 1, 3], dtype=object)
    assert group_sum(values, weights) == {1: 2**70 + 3, 2: 1}


@pytest.mark.parametrize("weights", [[1, 2, 3, 4], [10**12, 1, 7 * 10**11, 3], [5], [1] * 300 + [10**9]])
def test_alias_sampler_is_exact_in_law(weights: list[int]) -> None:
    """Each index is drawn with probability weight / total: the integer thresholds account for all mass."""
    sampler = Alias(weights)
    total, k = sum(weights), len(weights)
    if sampler.atoms is not None:
        mass = Counter(sampler.atoms.tolist())
        assert all(mass[i] == w for i, w in enumerate(weights))
        return
    mass = Counter[int]()
    thr = sampler.thr.astype(object)
    for c in range(k):
        mass[c] += int(thr[c])
        mass[c + int(sampler.delta[c])] += total - int(thr[c])
    assert all(Fraction(mass[i], k * total) == Fraction(w, total) for i, w in enumerate(weights))


def test_alias_sampler_draws_agree_with_weights() -> None:
    weights = [10**10, 3 * 10**10, 6 * 10**10]
    draws = Alias(weights).sample(np.random.default_rng(1), 300_000)
    freq = np.bincount(draws, minlength=3) / 300_000
    assert np.allclose(freq, [0.1, 0.3, 0.6], atol=0.005)


@pytest.mark.parametrize("path", scenario_files(EXAMPLES), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_detail_roles_feed_only_fields_that_odds_do_not_report(path: object) -> None:
    """A system's `detail_roles` are held at one value in odds; every reported field must not depend on them."""
    loaded = load(path)  # type: ignore[arg-type]
    system = loaded.system
    for target in loaded.scenario.targets:
        table = joint.build(system, loaded.scenario, target)
        rows = np.flatnonzero(table.finite)
        base = Dice(table.columns(rows))
        for name in system.detail_roles:
            support = system.roles(loaded.scenario, target)[name].support(0)
            for i in range(support.size):
                cols = {role: dict(c) for role, c in ((r, base[r]) for r in table.roles)}
                cols[name] = {c: np.full(len(rows), v[i]) for c, v in support.columns.items()}
                varied = system.resolve(loaded.scenario, target, Dice(cols), Silent())
                for f in system.fields:
                    if f.in_odds:
                        assert (varied[f.name] == table.outcome[f.name]).all(), f"{name} changes {f.name}"


@pytest.mark.parametrize("rows", [10, 257, 5000])
def test_group_sum_paths_agree_small_and_large(rows: int) -> None:
    """The plain-dict path (small tables) and the sliced-bincount path (large ones) give the same sums."""
    rng = np.random.default_rng(rows)
    values = rng.integers(-30, 30, size=rows).astype(np.int64)
    values[::7] = NULL_INT
    weights = rng.integers(1, 2**62 // rows, size=rows, dtype=np.int64)  # int64 weights sum below 2^62
    assert group_sum(values, weights) == slow_group_sum(values.tolist(), weights.tolist())


@settings(max_examples=150, deadline=None)
@given(
    st.integers(25, 200).flatmap(
        lambda rows: st.tuples(
            st.lists(st.integers(1, 2**40), min_size=rows, max_size=rows),
            st.lists(
                st.lists(st.integers(-20, 60) | st.just(NULL_INT), min_size=rows, max_size=rows),
                min_size=2,
                max_size=6,
            ),
        )
    )
)
def test_histograms_of_several_fields_at_once_agree_with_each_field_alone(
    case: tuple[list[int], list[list[int]]],
) -> None:
    """The one-bincount path over every field (tables past SMALL rows, weights below 2^53) counts each
    field, its nulls included, exactly as `group_sum` does field by field."""
    weights, columns = case
    fields = tuple(Field(f"f{i}", "int", "a field", nullable=True) for i in range(len(columns)))
    outcome = Outcome(len(weights))
    for f, col in zip(fields, columns, strict=True):
        outcome.set(f.name, np.asarray(col, dtype=np.int64))
    w = np.asarray(weights, dtype=np.int64)
    got = histograms(fields, outcome, w)
    for f, col in zip(fields, columns, strict=True):
        assert got[f.name].counts == slow_group_sum(col, weights), f.name


def test_outcome_columns_decode_labels_flags_and_nulls_as_rows_do() -> None:
    """`Outcome.column` (a whole field at once) gives what `decode` gives code by code, nulls included."""
    fields = (
        Field("result", "label", "a label", labels=("hit", "miss", "critical"), nullable=True),
        Field("landed", "flag", "a flag", nullable=True),
        Field("damage", "int", "an int", nullable=True),
    )
    outcome = Outcome(5)
    outcome.set("result", np.asarray([0, 2, -1, 1, 0]))
    outcome.set("landed", np.asarray([1, 0, -1, 1, 0]))
    outcome.set("damage", np.asarray([3, NULL_INT, 0, 7, NULL_INT]))
    assert outcome.rows(fields) == [outcome.row(fields, i) for i in range(5)]
    assert outcome.column(fields[0]) == ["hit", "critical", None, "miss", "hit"]
    assert outcome.column(fields[1]) == [True, False, None, True, False]
