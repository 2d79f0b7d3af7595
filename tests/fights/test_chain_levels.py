"""The exact chain solved a level at a time (issue 42, item 3): its strongly connected components with their levels
(each leads only to levels below its own), a level's components of one or two states solved together over one
common denominator (or one per component, when the level's would be much longer), the chain handed over in integer
weights. The answers stay the plain elimination's, to the last digit."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from tests.fights.test_chain_solve import SIDES, K, _eliminated, _random_chain, _wsswnn_duel
from tests.spies import first_arguments
from tohit.engine.fight import chain_solve, exact
from tohit.engine.fight.chain_components import components
from tohit.engine.fight.chain_solve import Values, Weighted, solve
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.load import fight_from_dict


def _reach(n: int, src: list[int], dst: list[int]) -> list[set[int]]:
    """Each state's reachable states (itself included), by closure."""
    reach = [{s} for s in range(n)]
    changed = True
    while changed:
        changed = False
        for s, t in zip(src, dst, strict=True):
            if t >= 0:
                for r in range(n):
                    if s in reach[r] and t not in reach[r]:
                        reach[r].add(t)
                        changed = True
    return reach


def _agree(values: Values, expected: list[list[Fraction | None]]) -> None:
    """Every state's every value is the plain elimination's, to the last digit."""
    for s, want in enumerate(expected):
        got = [values[s][i] for i in range(K)]
        assert [None if x is None else Fraction(int(x.numerator), int(x.denominator)) for x in got] == want, s


@pytest.mark.parametrize("seed", range(30))
def test_components_are_the_mutually_reachable_states_and_lead_only_to_lower_levels(seed: int) -> None:
    """Two states share a component exactly when each reaches the other; an edge between components goes to a lower
    level, and a level is the longest such path (0 at the bottom); a component no edge leaves is closed."""
    rng = random.Random(seed)
    n = rng.randint(1, 14)
    pairs = {(rng.randrange(n), rng.choice([*range(n), -1, -2])) for _ in range(rng.randint(0, 3 * n))}
    src, dst = [s for s, _ in sorted(pairs)], [t for _, t in sorted(pairs)]
    got = components(n, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64))
    reach = _reach(n, src, dst)
    of, level, closed = got.of.tolist(), got.level.tolist(), got.closed.tolist()
    for a in range(n):
        for b in range(n):
            assert (of[a] == of[b]) == (b in reach[a] and a in reach[b]), (a, b)
    for c in range(len(level)):
        leaving = [(s, t) for s, t in zip(src, dst, strict=True) if of[s] == c and (t < 0 or of[t] != c)]
        below = [level[of[t]] for _, t in leaving if t >= 0]
        assert closed[c] == (not leaving)
        assert level[c] == (max(below) + 1 if below else 0), (c, leaving)
    assert got.size.tolist() == [of.count(c) for c in range(len(level))]


@pytest.mark.parametrize("seed", range(20))
def test_components_over_their_own_denominators_agree_with_a_plain_elimination(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A level's values are brought over one denominator only when it is not much longer than theirs; else each
    component's own least common multiple is used. Forced to the second way, the values are the same to the last
    digit."""
    monkeypatch.setattr(chain_solve, "SLACK_BITS", -1)
    rng = random.Random(1000 + seed)
    edges, reward = _random_chain(rng, rng.randint(3, 12))
    values = solve(edges, reward, SIDES, lambda: None)
    _agree(values, _eliminated(edges, reward))


def _tangled_chain(rng: random.Random, n: int) -> tuple[list[dict[int, Fraction]], list[Fraction]]:
    """A chain whose states lead to several states near them, so that its components are of many sizes (up to a
    dozen states), each state with a small chance to end the fight."""
    edges: list[dict[int, Fraction]] = []
    for s in range(n):
        near = [t for t in range(max(0, s - 3), min(n, s + 4)) if t != s or rng.random() < 0.3]
        targets = rng.sample(near, min(len(near), rng.randint(2, 4))) + rng.sample([-1, -2, -3, -4], 1)
        weights = [rng.randint(3, 9) for _ in targets[:-1]] + [1]
        edges.append({t: Fraction(w, sum(weights)) for t, w in zip(targets, weights, strict=True)})
    return edges, [Fraction(rng.randint(0, 2)) for _ in range(n)]


@pytest.mark.parametrize("small", [2, 100])
@pytest.mark.parametrize("seed", range(15))
def test_components_of_any_size_agree_with_a_plain_elimination_either_way(
    seed: int, small: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A component of up to SMALL states is solved by fraction-free elimination, together with the level's others of
    its size; a larger one through a feedback set. Either way for every size (SMALL 2: every component of more
    than two states through its feedback set; 100: every one by elimination), the values are the same to the last
    digit."""
    monkeypatch.setattr(chain_solve, "SMALL", small)
    rng = random.Random(2000 + seed)
    edges, reward = _tangled_chain(rng, rng.randint(8, 16))
    values = solve(edges, reward, SIDES, lambda: None)
    _agree(values, _eliminated(edges, reward))


def test_a_long_chain_of_pairs_is_solved_a_level_at_a_time() -> None:
    """A ladder of pairs that hand the turn back and forth, each pair one hit from the next lower pair: one level
    per pair, each reported to the time estimate before it is solved; the top pair's odds as the elimination's."""
    half, quarter = Fraction(1, 2), Fraction(1, 4)
    rungs = 6
    edges: list[dict[int, Fraction]] = []
    for r in range(rungs):
        a, b = 2 * r, 2 * r + 1
        down_a, down_b = (a - 2, b - 2) if r else (-1, -2)
        edges.append({b: half, down_a: quarter, a: quarter})  # miss: the other's turn; hit: one rung down
        edges.append({a: half, down_b: half})
    reward = [Fraction(1)] * (2 * rungs)
    reports: list[int] = []
    values = solve(edges, reward, SIDES, lambda: None, reports.append)
    assert reports == [2 * r for r in range(rungs)]
    _agree(values, _eliminated(edges, reward))


@pytest.mark.usefixtures("exact_uncapped")  # the time cap only refuses: lifted, the test is load-independent
def test_the_duels_chain_comes_in_integer_weights_each_states_summing_to_its_denominator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The chain is handed to the solve as integers: each state's edges (each (state, next) pair once) weigh its
    step's denominator in all, and its rounds are over the same denominator."""
    seen: list[Weighted] = first_arguments(monkeypatch, exact, "solve")
    result = exact_duel(fight_from_dict(_wsswnn_duel(4)), probe=float("inf"))
    (chain,) = seen
    n = len(chain.total)
    assert n == result.states and chain.src.max() == n - 1
    sums = [0] * n
    for s, w in zip(chain.src.tolist(), chain.weight.tolist(), strict=True):
        sums[s] += w
    assert sums == chain.total.tolist()
    assert len(set(zip(chain.src.tolist(), chain.dst.tolist(), strict=True))) == chain.src.size
    assert all(isinstance(x, int) for x in [*chain.weight.tolist(), *chain.rounds.tolist()])
