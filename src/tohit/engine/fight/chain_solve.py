"""The exact chain solved in rationals (GMP's integers through gmpy2): its strongly connected components, each with its
level (`chain_components`: the longest path from it to an absorbing outcome, counted in components), solved a level
at a time, the lowest first. Used by `exact` (the duel's chain).

The chain comes in integer weights (`Weighted`): each state's edges and its rounds are integers over one
denominator of its own (its step's probabilities, as the step enumerates them), so that a state's equation reads
D v = R + sum of w_t v_t, with no fraction in it. A state's values are held over one denominator (numerators and
their least common denominator, reduced; `vector.Vector` reads one back).

A level's components of up to SMALL states (nearly all of a duel's: a state, or a pair that hands the turn back
and forth) are solved together by whole-array operations on the numerators (numpy's arrays of Python objects: one
loop in C per operation, not one Python call per state): per component, the values its states lead to outside it
over one common denominator M (the level's least common multiple when it is not much longer than the values'
denominators, they mostly divide one another; else the component's own), X = R M + sum of w_t N_t (M / d_t); then
its equations (D_a - w_aa) v_a - sum of w_ab v_b = X_a / M: for one state v = X / (M (D - w_aa)), for two by Cramer's
rule, for more by fraction-free elimination (`chain_components.Equations`), a level's components of one size at
once. Each state's vector is then reduced by one greatest common divisor. A larger component is solved through a
feedback set (`chain_components.solve_component`); one no edge leaves never ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import lcm as int_lcm

import numpy as np
import numpy.typing as npt
from gmpy2 import gcd, lcm, mpz

from tohit.core.fight.state import IntArray
from tohit.engine.fight.chain_components import SMALL, Components, Equations, components
from tohit.engine.fight.vector import Rational, Vector

#: A check that may only refuse (raise): the exact duel's time and memory caps, called as the solve goes.
Check = Callable[[], None]
ObjectArray = npt.NDArray[np.object_]
#: A level's values are brought over one common denominator when it is at most this many bits longer than the
#: longest of theirs (else over one per component: `_common`).
SLACK_BITS = 64

__all__ = ["Check", "Rational", "Values", "Vector", "Weighted", "solve", "solve_weighted", "weighted"]


@dataclass
class Weighted:
    """The chain in integer weights: edge e goes from state src[e] to dst[e] (an absorbing outcome when negative:
    -1 - s the s-th side's win, then a draw, then beyond the depth) with probability weight[e] / total[src[e]]; a
    state's expected rounds of its own step are rounds[s] / total[s]. Each (src, dst) pair once."""

    src: IntArray
    dst: IntArray
    weight: ObjectArray
    total: ObjectArray
    rounds: ObjectArray


def weighted(edges: list[dict[int, Rational]], reward: list[Rational]) -> Weighted:
    """The chain given as each state's edges (target: probability) and rounds, in integer weights: each state's over
    the least common denominator of its probabilities and its rounds."""
    src: list[int] = []
    dst: list[int] = []
    weight: list[int] = []
    total: list[int] = []
    rounds: list[int] = []
    for s, (row, r) in enumerate(zip(edges, reward, strict=True)):
        den = int_lcm(int(r.denominator), *[int(p.denominator) for p in row.values()])
        for t, p in row.items():
            src.append(s)
            dst.append(t)
            weight.append(int(p.numerator) * (den // int(p.denominator)))
        total.append(den)
        rounds.append(int(r.numerator) * (den // int(r.denominator)))
    objects = [np.asarray(x, dtype=object) for x in (weight, total, rounds)]
    return Weighted(np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64), *objects)


def solve(
    edges: list[dict[int, Rational]],
    reward: list[Rational],
    sides: int,
    check: Check,
    solving: Callable[[int], None] | None = None,
) -> Values:
    """Per transient state: [P(win side 0..), P(draw), P(beyond), P(never ends), E(round increments)]."""
    return solve_weighted(weighted(edges, reward), sides, check, solving)


class Values:
    """Every state's values as the solve leaves them: numerators (`nums`, one row per state, then one per absorbing
    outcome), denominators (`den`), and whether a state's expected rounds are unknown (`unknown`: its fight may never
    end). `values[s]` reads state s's as a `Vector`; `put` writes one."""

    def __init__(self, n: int, sides: int) -> None:
        k = sides + 4
        self.n, self.k = n, k
        self.nums: ObjectArray = np.zeros((n + sides + 2, k), dtype=object)
        self.den: ObjectArray = np.full(n + sides + 2, mpz(1), dtype=object)
        self.unknown = np.zeros(n + sides + 2, dtype=bool)
        for j in range(sides + 2):  # an absorbing outcome's values: 1 at its own, no rounds to come
            self.nums[n + j, j] = mpz(1)
        #: Each row's denominator numbered among the distinct ones (`dens`): few, however many the states.
        self.den_id = np.zeros(n + sides + 2, dtype=np.int64)
        self.dens: list[mpz] = [mpz(1)]
        self._ids: dict[mpz, int] = {mpz(1): 0}

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, s: int) -> Vector:
        nums: list[mpz | None] = [mpz(x) for x in self.nums[s].tolist()]
        if self.unknown[s]:
            nums[-1] = None
        return Vector(nums, mpz(self.den[s]))

    def put(
        self, rows: IntArray, columns: list[int], nums: ObjectArray, den: ObjectArray, unknown: npt.ArrayLike
    ) -> None:
        """The values of `rows`: their numerators in `columns` (the rest stay 0), denominators, unknown rounds."""
        self.nums[np.ix_(rows, np.asarray(columns, dtype=np.int64))] = nums
        self.den[rows] = den
        self.unknown[rows] = unknown
        ids, dens = self._ids, self.dens
        numbered = []
        for d in den.tolist():
            i = ids.get(d)
            if i is None:
                i = ids[d] = len(dens)
                dens.append(d)
            numbered.append(i)
        self.den_id[rows] = numbered


def solve_weighted(chain: Weighted, sides: int, check: Check, solving: Callable[[int], None] | None = None) -> Values:
    """Every state's values (module docstring), a level at a time. Before a level with a component of more than one
    state, `solving` is told how many states are solved (it may refuse); else `check` is called."""
    n = len(chain.total)
    comps = components(n, chain.src, chain.dst)
    values = Values(n, sides)
    target = np.where(chain.dst >= 0, chain.dst, n - 1 - chain.dst)  # an absorbing outcome's row follows the states
    state_level = comps.level[comps.of]
    order = np.lexsort((np.arange(n), comps.of, state_level))  # by level, then component
    where = np.empty(n, dtype=np.int64)
    where[order] = np.arange(n)
    by_src = np.argsort(where[chain.src], kind="stable")
    edge_level = state_level[chain.src[by_src]]
    levels = np.flatnonzero(np.r_[True, np.diff(state_level[order]) != 0, True])
    edge_cuts = [*np.searchsorted(edge_level, state_level[order[levels[:-1]]]).tolist(), by_src.size]
    columns = _columns(chain, comps, sides)
    solved = 0
    for i in range(levels.size - 1):
        states = order[levels[i] : levels[i + 1]]
        if solving is not None and bool((comps.size[comps.of[states]] > 1).any()):
            solving(solved)
        else:
            check()
        edges = by_src[edge_cuts[i] : edge_cuts[i + 1]]
        _Level(chain, comps, values, columns).solve(states, edges, target, check)
        solved += states.size
    return values


def _columns(chain: Weighted, comps: Components, sides: int) -> list[int]:
    """The entries of the values that can be other than 0: the absorbing outcomes some edge leads to, the fight never
    ending when some component is closed, the rounds when some step counts them."""
    reached = set((-1 - np.unique(chain.dst[chain.dst < 0])).tolist())
    out = [j for j in range(sides + 2) if j in reached]
    if comps.closed.any():
        out.append(sides + 2)
    if any(chain.rounds.tolist()):
        out.append(sides + 3)
    return out


class _Level:
    """One level's components solved (module docstring): `solve` takes its states (by component) and their edges (by
    state, in the same order)."""

    def __init__(self, chain: Weighted, comps: Components, values: Values, columns: list[int]) -> None:
        self.chain, self.comps, self.values, self.columns = chain, comps, values, columns

    def solve(self, states: IntArray, edges: IntArray, target: IntArray, check: Check) -> None:
        closed = self.comps.closed[self.comps.of[states]]
        if closed.any():
            self._never(states[closed])
            keep = np.isin(self.chain.src[edges], states[closed], kind="table", invert=True)
            states, edges = states[~closed], edges[keep]
        if states.size:
            self._open(states, edges, target, check)

    def _never(self, states: IntArray) -> None:
        """States of a closed class: the fight never ends from there (a draw), its rounds unknown."""
        values = self.values
        never = values.k - 2
        nums = np.zeros((states.size, 1), dtype=object)
        nums[:] = mpz(1)
        values.put(states, [never], nums, np.full(states.size, mpz(1), dtype=object), True)

    def _open(self, states: IntArray, edges: IntArray, target: IntArray, check: Check) -> None:
        """The level's components that lead out of themselves: the values each state leads to outside its component
        (X over M, all at once), then each component's own equations, by its size (module docstring)."""
        chain, values, columns = self.chain, self.values, self.columns
        n = values.n
        comp = self.comps.of[states]
        new_comp = np.r_[True, comp[1:] != comp[:-1]]
        group = np.cumsum(new_comp) - 1  # each state's component among these
        first = np.flatnonzero(new_comp)
        local = np.full(n, -1, dtype=np.int64)
        local[states] = np.arange(states.size)
        src, dst, weight = local[chain.src[edges]], target[edges], chain.weight[edges]
        inside = (dst < n) & (self.comps.of[np.minimum(dst, n - 1)] == comp[src])
        out = ~inside
        common, nums = self._outside(group, src[out], dst[out], weight[out])
        if columns and columns[-1] == values.k - 1:  # the rounds of the state's own step, over M
            nums[:, -1] += chain.rounds[states] * common[group]
        unknown = np.zeros(states.size, dtype=bool)
        unknown[src[out][values.unknown[dst[out]]]] = True
        unknown = (np.bincount(group, weights=unknown) > 0)[group]  # a component's states reach one another
        equations = Equations(chain.total[states], first[group], src[inside], local[dst[inside]], weight[inside])
        den = np.empty(states.size, dtype=object)
        reduced = np.zeros(states.size, dtype=bool)  # the values through a feedback set are reduced already
        size = np.diff(np.r_[first, states.size])
        for m in np.unique(size).tolist():
            at = first[size == m]
            rows = (at[:, None] + np.arange(m)).reshape(-1)
            if m <= SMALL:
                nums[rows], det = equations.solved(at, m, nums[rows])
                den[rows] = np.repeat(det, m) * common[group[rows]]
                continue
            for a in at.tolist():  # through a feedback set, one at a time
                root = int(local[self.comps.root[comp[a]]])
                v = equations.feedback(a, root, nums[a : a + m], common[group[a]], unknown[a], columns, values.k, check)
                nums[a : a + m], den[a : a + m] = v
                reduced[a : a + m] = True
        if columns and columns[-1] == values.k - 1:
            nums[unknown, -1] = 0
        if reduced.any():
            rest = np.flatnonzero(~reduced)
            nums[rest], den[rest] = _reduced(nums[rest], den[rest])
        else:
            nums, den = _reduced(nums, den)
        values.put(states, columns, nums, den, unknown)

    def _outside(
        self, group: IntArray, src: IntArray, dst: IntArray, weight: ObjectArray
    ) -> tuple[ObjectArray, ObjectArray]:
        """Per component, M: a common denominator of the values its states lead to outside it; per state, the
        numerators of those values over M, summed with their weights (module docstring: X less the rounds)."""
        values, columns = self.values, self.columns
        common, scale = _common(values.dens, int(group[-1]) + 1, group[src], values.den_id[dst])
        nums = np.zeros((group.size, len(columns)), dtype=object)
        if src.size:
            terms = values.nums[np.ix_(dst, np.asarray(columns, dtype=np.int64))] * (weight * scale)[:, None]
            starts = np.flatnonzero(np.r_[True, src[1:] != src[:-1]])
            nums[src[starts]] = np.add.reduceat(terms, starts, axis=0)
        return common, nums


def _common(dens: list[mpz], groups: int, group: IntArray, den_id: IntArray) -> tuple[ObjectArray, ObjectArray]:
    """A common denominator per group (of `groups`; `group`: each term's) of the terms' denominators (`den_id`: each
    term's, among `dens`), and per term the factor that brings it there. The whole level's least common multiple when
    it is not much longer than its longest denominator (the chain's denominators mostly divide one another: a few
    least common multiples in all); else each group's own (one least common multiple per group and distinct
    denominator)."""
    present, term_of = np.unique(den_id, return_inverse=True)
    met = [dens[d] for d in present.tolist()]
    whole = lcm(mpz(1), mpz(1), *met)
    if whole.bit_length() <= max([d.bit_length() for d in met], default=0) + SLACK_BITS:
        scale = _objects([whole // d for d in met])
        return np.full(groups, whole, dtype=object), scale[term_of.reshape(-1)]
    kinds = len(dens)
    pairs, pair_of = np.unique(group * kinds + den_id, return_inverse=True)
    which, den_of = (pairs // kinds).tolist(), (pairs % kinds).tolist()
    common = [mpz(1)] * groups
    for g, d in zip(which, den_of, strict=True):
        common[g] = lcm(common[g], dens[d])
    scale = _objects([common[g] // dens[d] for g, d in zip(which, den_of, strict=True)])
    return _objects(common), scale[pair_of.reshape(-1)]


def _reduced(nums: ObjectArray, den: ObjectArray) -> tuple[ObjectArray, ObjectArray]:
    """Each row of numerators and its denominator divided by their greatest common divisor."""
    g = [gcd(*row) for row in zip(den.tolist(), *nums.T.tolist(), strict=True)]
    if all(x == 1 for x in g):
        return nums, den
    divisor = _objects(g)
    return nums // divisor[:, None], den // divisor


def _objects(items: list[mpz]) -> ObjectArray:
    """A list as an array of Python objects (`np.asarray` looks into each of gmpy2's numbers for an array of its own,
    some fifty times slower)."""
    return np.fromiter(items, dtype=object, count=len(items))
