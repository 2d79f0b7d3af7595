"""The exact chain's strongly connected components and their levels (`chain_solve`): Tarjan's algorithm over the
chain's edges, each component with its level, the longest path from it to an absorbing outcome counted in
components (0: it leads only to absorbing outcomes, or nowhere), so that the components of one level lead only to
levels below it and are solved together, a level at a time. A component no edge leaves (a closed class: the fight
never ends from there) is marked closed.

Also the solve of a component of more than two states, through a small feedback set (the targets of the back edges
of a depth-first search inside it): the values of its states written in terms of the feedback values, and that
small system solved by Gaussian elimination.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from gmpy2 import lcm, mpq, mpz

from tohit.core.fight.state import BoolArray, IntArray
from tohit.engine.fight.vector import Vector, mix

#: A check that may only refuse (raise): the exact duel's time and memory caps, called as the solve goes.
Check = Callable[[], None]
ObjectArray = npt.NDArray[np.object_]
#: Components of up to this many states are solved together, a level's of one size at once, by fraction-free
#: elimination (whole-array operations: some m**3 per component); larger ones one at a time through a feedback set.
SMALL = 8


@dataclass
class Components:
    """Per state its component (`of`), per component its level, whether it is closed, its size and its root (the
    state the search entered it by)."""

    of: IntArray
    level: IntArray
    closed: BoolArray
    size: IntArray
    root: IntArray


def components(n: int, src: IntArray, dst: IntArray) -> Components:
    """The strongly connected components of the chain of `n` states whose edges go from `src` to `dst` (an
    absorbing outcome when negative), with their levels (module docstring). Iterative Tarjan over flat lists: each
    state's targets one slice of `targets`; `exit_level` is the highest level a state's component must stand above,
    merged into the component's root as the search returns (-1: no edge leaves it yet)."""
    order = np.argsort(src, kind="stable")
    targets: list[int] = dst[order].tolist()
    start: list[int] = np.r_[0, np.cumsum(np.bincount(src, minlength=n))].tolist()
    index, low, exit_level = [-1] * n, [0] * n, [-1] * n
    on_stack = [False] * n
    comp_of = [-1] * n
    levels: list[int] = []
    closed: list[bool] = []
    roots: list[int] = []
    stack: list[int] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work, at = [root], [start[root]]
        while work:
            node = work[-1]
            i, end = at[-1], start[node + 1]
            while i < end:
                t = targets[i]
                i += 1
                if t < 0:
                    exit_level[node] = max(exit_level[node], 0)
                elif index[t] < 0:
                    break
                elif on_stack[t]:
                    low[node] = min(low[node], index[t])
                else:
                    exit_level[node] = max(exit_level[node], levels[comp_of[t]] + 1)
            else:
                t = -1
            if t >= 0 and index[t] < 0:  # into a state not seen yet
                at[-1] = i
                index[t] = low[t] = counter
                counter += 1
                stack.append(t)
                on_stack[t] = True
                work.append(t)
                at.append(start[t])
                continue
            work.pop()
            at.pop()
            if low[node] == index[node]:
                level = exit_level[node]
                while True:
                    x = stack.pop()
                    on_stack[x] = False
                    comp_of[x] = len(levels)
                    if x == node:
                        break
                levels.append(max(level, 0))
                closed.append(level < 0)
                roots.append(node)
            if work:
                parent = work[-1]
                low[parent] = min(low[parent], low[node])
                up = exit_level[node] if on_stack[node] else levels[comp_of[node]] + 1
                exit_level[parent] = max(exit_level[parent], up)
    of = np.asarray(comp_of, dtype=np.int64)
    size = np.bincount(of, minlength=len(levels)).astype(np.int64)
    found = (np.asarray(levels, dtype=np.int64), np.asarray(closed, dtype=bool), size, np.asarray(roots, np.int64))
    return Components(of, *found)


class Equations:
    """A level's components' own equations (`chain_solve`): per state its denominator D (`total`) and the first state
    of its component (`start`), and the edges inside the components (`src`, `dst`: states numbered among the level's,
    `weight`). Component c's equations read A v = X / M, A = diag(D) - W its weights inside it."""

    def __init__(self, total: ObjectArray, start: IntArray, src: IntArray, dst: IntArray, weight: ObjectArray) -> None:
        self.total, self.start = total, start
        self.src, self.dst, self.weight = src, dst, weight

    def matrix(self, at: IntArray, m: int) -> ObjectArray:
        """A of the components of `m` states that start at `at`: shape (components, m, m)."""
        a = np.zeros((at.size, m, m), dtype=object)
        slot = np.full(self.total.size, -1, dtype=np.int64)
        slot[at] = np.arange(at.size)
        c = slot[self.start[self.src]]
        mine = np.flatnonzero(c >= 0)
        first = self.start[self.src[mine]]
        a[c[mine], self.src[mine] - first, self.dst[mine] - first] = -self.weight[mine]
        diagonal = np.arange(m)
        a[:, diagonal, diagonal] += self.total[(at[:, None] + diagonal).reshape(-1)].reshape(at.size, m)
        return a

    def solved(self, at: IntArray, m: int, x: ObjectArray) -> tuple[ObjectArray, ObjectArray]:
        """The components of `m` states (up to SMALL) that start at `at`, their right sides `x` (one row per state,
        a component's rows together): (y, det) with A v = x solved as v = y / det, per component, exactly: one state
        v = x / A; two by Cramer's rule; more by fraction-free elimination."""
        a = self.matrix(at, m)
        if m == 1:
            return x, a[:, 0, 0]
        if m == 2:
            xa, xb = x[0::2], x[1::2]
            y = np.empty_like(x)
            y[0::2] = a[:, 1, 1][:, None] * xa - a[:, 0, 1][:, None] * xb
            y[1::2] = a[:, 0, 0][:, None] * xb - a[:, 1, 0][:, None] * xa
            return y, a[:, 0, 0] * a[:, 1, 1] - a[:, 0, 1] * a[:, 1, 0]
        y, det = _fraction_free(a, x.reshape(at.size, m, -1))
        return y.reshape(x.shape), det

    def feedback(
        self,
        at: int,
        root: int,
        x: ObjectArray,
        common: mpz,
        unknown: bool,
        columns: list[int],
        k: int,
        check: Check,
    ) -> tuple[ObjectArray, ObjectArray]:
        """One component (of more than SMALL states) that starts at `at`, its right sides `x` over `common`, through a
        feedback set (`solve_component`, its search from the component's `root`): each state's numerators (in
        `columns`) and denominator."""
        m = x.shape[0]
        rows: dict[int, dict[int, mpq]] = {i: {} for i in range(m)}
        mine = np.flatnonzero(self.start[self.src] == at)
        total = self.total.tolist()
        for s, t, w in zip(self.src[mine].tolist(), self.dst[mine].tolist(), self.weight[mine].tolist(), strict=True):
            rows[s - at][t - at] = mpq(w, total[s])
        consts = []
        for i in range(m):
            full: list[mpz | None] = [mpz(0)] * k
            for c, value in zip(columns, x[i].tolist(), strict=True):
                full[c] = mpz(value)
            if unknown:
                full[k - 1] = None
            consts.append(Vector(full, common * total[at + i]))
        order = [i for i in range(m) if i != root - at] + [root - at]  # the search starts at the last
        found = solve_component(order, rows.__getitem__, consts.__getitem__, k, check)
        nums = np.zeros((m, len(columns)), dtype=object)
        den = np.empty(m, dtype=object)
        for i, v in found.items():
            nums[i] = [v.nums[c] or 0 for c in columns]
            den[i] = v.den
        return nums, den


def _fraction_free(a: ObjectArray, x: ObjectArray) -> tuple[ObjectArray, ObjectArray]:
    """Solve a v = x for a batch of integer systems (a: (batch, m, m), nonsingular with nonzero leading principal
    minors, as the chain's are: each a nonsingular M-matrix; x: (batch, m, columns)) by fraction-free Gauss-Jordan
    elimination (Bareiss): every division exact, every entry a minor of [a | x]. Returns (det(a) v, det(a)). The
    columns left of the pivot are never read again and are not updated."""
    t = np.concatenate([a, x], axis=2)
    prev = np.ones(a.shape[0], dtype=object)
    for k in range(a.shape[1]):
        pivot = t[:, k, k].copy()
        column = t[:, :, k].copy()
        row = t[:, k, k + 1 :].copy()
        t[:, :, k + 1 :] = (pivot[:, None, None] * t[:, :, k + 1 :] - column[:, :, None] * row[:, None, :]) // prev[
            :, None, None
        ]
        t[:, k, k + 1 :] = row
        prev = pivot
    return t[:, :, a.shape[1] :], prev


def solve_component(
    comp: list[int],
    row: Callable[[int], dict[int, mpq]],
    const: Callable[[int], Vector],
    k: int,
    check: Check,
) -> dict[int, Vector]:
    """Values inside one strongly connected component, through a feedback set (module docstring): v_s = const(s) +
    the sum over `row(s)` (its edges inside the component, with their probabilities) of p v_t."""
    members = set(comp)
    rows = {s: row(s) for s in comp}
    feedback = _back_edge_targets(comp, members, rows)
    order = _postorder(comp, members, rows, feedback)
    fb_index = {f: i for i, f in enumerate(feedback)}
    m = len(feedback)
    one = mpq(1)
    # expr[s] = (constant vector, coefficients on the feedback values)
    consts: dict[int, Vector] = {}
    coefs: dict[int, list[mpq]] = {}
    for s in order:
        check()
        terms: list[tuple[mpq, Vector]] = [(one, const(s))]
        coef = [mpq(0)] * m
        for t, p in rows[s].items():
            if t in fb_index:
                coef[fb_index[t]] += p
            else:
                terms.append((p, consts[t]))
                for i, x in enumerate(coefs[t]):
                    if x:
                        coef[i] += p * x
        consts[s], coefs[s] = mix(terms, k), coef
    # Feedback values: v_f = const_f + sum_g coef_f[g] v_g, i.e. (I - A) v = b, per component of the vector.
    known = [i for i in range(k) if all(consts[f].nums[i] is not None for f in feedback)]
    a = [[(mpq(int(i == j)) - coefs[f][j]) for j in range(m)] for i, f in enumerate(feedback)]
    b = [[_known(consts[f][i]) for i in known] for f in feedback]
    solved = _gauss(a, b, check)
    fb_values: list[Vector] = []
    for i in range(m):
        entries: list[mpq | None] = [None] * k
        for col, ki in enumerate(known):
            entries[ki] = solved[i][col]
        fb_values.append(_vector(entries))
    out: dict[int, Vector] = {}
    for s in comp:
        check()
        out[s] = mix([(one, consts[s]), *[(x, fb_values[i]) for i, x in enumerate(coefs[s]) if x]], k)
    return out


def _vector(entries: list[mpq | None]) -> Vector:
    """Reduced rationals (None: unknown) as one vector over their least common denominator."""
    den = mpz(1)
    for x in entries:
        if x is not None:
            den = lcm(den, x.denominator)
    return Vector([None if x is None else x.numerator * (den // x.denominator) for x in entries], den)


def _known(x: mpq | None) -> mpq:
    assert x is not None
    return x


def _gauss(a: list[list[mpq]], b: list[list[mpq]], check: Check) -> list[list[mpq]]:
    """Solve a x = b exactly (a square, nonsingular; b with several columns)."""
    m = len(a)
    rows = [a[i] + b[i] for i in range(m)]
    for col in range(m):
        check()
        pivot = next(r for r in range(col, m) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        pv = rows[col][col]
        rows[col] = [x / pv for x in rows[col]]
        for r in range(m):
            if r != col and rows[r][col] != 0:
                check()
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[m:] for row in rows]


def _back_edge_targets(comp: list[int], members: set[int], rows: dict[int, dict[int, mpq]]) -> list[int]:
    """Targets of the back edges of a depth-first search inside the component (a feedback vertex set)."""
    seen: set[int] = set()
    on_path: set[int] = set()
    targets: list[int] = []
    found: set[int] = set()
    start = comp[-1]
    work = [(start, iter([t for t in rows[start] if t in members]))]
    seen.add(start)
    on_path.add(start)
    while work:
        node, children = work[-1]
        advanced = False
        for t in children:
            if t in on_path:
                if t not in found:
                    found.add(t)
                    targets.append(t)
            elif t not in seen:
                seen.add(t)
                on_path.add(t)
                work.append((t, iter([x for x in rows[t] if x in members])))
                advanced = True
                break
        if not advanced:
            work.pop()
            on_path.discard(node)
    return targets


def _postorder(comp: list[int], members: set[int], rows: dict[int, dict[int, mpq]], feedback: list[int]) -> list[int]:
    """Component nodes, each after every non-feedback node it leads to (edges into feedback nodes cut)."""
    fb = set(feedback)
    seen: set[int] = set()
    out: list[int] = []
    for root in comp:
        if root in seen:
            continue
        seen.add(root)
        work = [(root, iter([t for t in rows[root] if t in members and t not in fb]))]
        while work:
            node, children = work[-1]
            advanced = False
            for t in children:
                if t not in seen:
                    seen.add(t)
                    work.append((t, iter([x for x in rows[t] if x in members and x not in fb])))
                    advanced = True
                    break
            if not advanced:
                work.pop()
                out.append(node)
    return out
