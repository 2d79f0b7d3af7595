"""The exact chain solved in rationals (GMP's arithmetic through gmpy2, several times faster than `Fraction` on the
thousand-digit values a chain reaches): strongly connected components in reverse topological order; inside a
component, the values are written in terms of a small feedback set (the targets of the back edges of a depth-first
search) and that small system is solved by Gaussian elimination. Used by `exact` (the duel's chain).

A state's values are held over one denominator (`Vector`: integer numerators and their least common denominator),
so a state's value, the sum over its edges of probability times the next state's values, costs one least common
multiple per edge and plain integer products, where a sum of reduced rationals costs a greatest common divisor per
entry per edge. Each vector is reduced once made, so its entries read back as the same reduced fractions.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypeAlias

from gmpy2 import gcd, lcm, mpq, mpz

#: A check that may only refuse (raise): the exact duel's time and memory caps, called as the solve goes.
Check = Callable[[], None]

#: A probability of the chain's edges (gmpy2's `mpq` from `exact`; a `Fraction` does as well).
Rational: TypeAlias = "mpq | Fraction"


class Vector:
    """A state's values over one denominator: entry i is nums[i] / den, None where unknown (the expected rounds
    from a state whose fight may never end). Indexing reads an entry as a reduced rational (`mpq`) or None."""

    __slots__ = ("den", "nums")

    def __init__(self, nums: list[mpz | None], den: mpz) -> None:
        self.nums, self.den = nums, den

    def __getitem__(self, i: int) -> mpq | None:
        x = self.nums[i]
        return None if x is None else mpq(x, self.den)

    def __len__(self) -> int:
        return len(self.nums)


#: One term of a state's value: an edge's probability and the values it leads to.
Term = tuple[Rational, Vector]


def solve(
    edges: list[dict[int, Rational]],
    reward: list[Rational],
    sides: int,
    check: Check,
    solving: Callable[[int], None] | None = None,
) -> list[Vector]:
    """Per transient state: [P(win side 0..), P(draw), P(beyond), P(never ends), E(round increments)]."""
    n = len(edges)
    k = sides + 4
    absorbing: dict[int, Vector] = {}
    for s in range(sides):
        absorbing[-1 - s] = _unit(k, s)
    absorbing[-1 - sides] = _unit(k, sides)
    absorbing[-2 - sides] = _unit(k, sides + 1)
    values: list[Vector | None] = [None] * n
    solved = 0
    for comp in _sccs(edges):
        if solving is not None and len(comp) > 1:
            solving(solved)
        else:
            check()
        solved += len(comp)
        members = set(comp)
        exits = any(t < 0 or t not in members for s in comp for t in edges[s])
        if not exits:  # a closed class: the fight never ends from here
            never = Vector([*[mpz(0)] * (sides + 2), mpz(1), None], mpz(1))
            for s in comp:
                values[s] = never
            continue
        if len(comp) == 1 and comp[0] not in edges[comp[0]]:
            s = comp[0]
            values[s] = _mix(_terms(edges[s], reward[s], values, absorbing, k), k)
        elif len(comp) <= 2:
            _solve_small(comp, edges, reward, values, absorbing, k)
        else:
            _solve_component(comp, members, edges, reward, values, absorbing, k, check)
    return [v if v is not None else Vector([None] * k, mpz(1)) for v in values]


def _unit(k: int, i: int) -> Vector:
    """An absorbing outcome's values: 1 at `i`, no rounds to come."""
    nums: list[mpz | None] = [mpz(0)] * k
    nums[i] = mpz(1)
    return Vector(nums, mpz(1))


def _terms(
    row: dict[int, Rational],
    r: Rational,
    values: list[Vector | None],
    absorbing: dict[int, Vector],
    k: int,
    inside: tuple[int, ...] = (),
) -> list[Term]:
    """A state's value as terms: its rounds `r`, then each edge's probability and the values it leads to (the
    edges into `inside` left out)."""
    terms: list[Term] = [(r, _unit(k, k - 1))] if r else []
    for t, p in row.items():
        if t in inside:
            continue
        v = absorbing[t] if t < 0 else values[t]
        assert v is not None
        terms.append((p, v))
    return terms


def _solve_small(
    comp: list[int],
    edges: list[dict[int, Rational]],
    reward: list[Rational],
    values: list[Vector | None],
    absorbing: dict[int, Vector],
    k: int,
) -> None:
    """Values of a component of one state with a loop or of two states, in closed form: with c the values a state
    leads to outside the component and p the edges inside, v = c / (1 - p_aa) for one state; for two, Cramer's rule
    on (1 - p_aa) v_a - p_ab v_b = c_a, -p_ba v_a + (1 - p_bb) v_b = c_b."""
    inside = tuple(comp)
    outside = [_mix(_terms(edges[s], reward[s], values, absorbing, k, inside), k) for s in comp]
    one, zero = mpq(1), mpq(0)
    if len(comp) == 1:
        values[comp[0]] = _mix([(one / (one - edges[comp[0]][comp[0]]), outside[0])], k)
        return
    a, b = comp
    stay_a, stay_b = one - edges[a].get(a, zero), one - edges[b].get(b, zero)
    a_to_b, b_to_a = edges[a].get(b, zero), edges[b].get(a, zero)
    det = stay_a * stay_b - a_to_b * b_to_a
    values[a] = _mix([(stay_b / det, outside[0]), (a_to_b / det, outside[1])], k)
    values[b] = _mix([(b_to_a / det, outside[0]), (stay_a / det, outside[1])], k)


def _mix(terms: list[Term], k: int) -> Vector:
    """The sum of p·v over the terms, over the least common denominator of its terms, reduced. An entry unknown
    (None) in any term is unknown in the sum."""
    den = mpz(1)
    scaled: list[tuple[mpz, mpz, Vector]] = []
    for p, v in terms:
        d = p.denominator * v.den
        den = lcm(den, d)
        scaled.append((p.numerator, d, v))
    nums: list[mpz | None] = [mpz(0)] * k
    for a, d, v in scaled:
        f = a * (den // d)
        for i, x in enumerate(v.nums):
            if x is None:
                nums[i] = None
            elif x:
                acc = nums[i]
                if acc is not None:
                    nums[i] = acc + f * x
    g = gcd(den, *[x for x in nums if x])
    if g != 1:
        den //= g
        nums = [None if x is None else x // g for x in nums]
    return Vector(nums, den)


def _vector(entries: list[mpq | None]) -> Vector:
    """Reduced rationals (None: unknown) as one vector over their least common denominator."""
    den = mpz(1)
    for x in entries:
        if x is not None:
            den = lcm(den, x.denominator)
    return Vector([None if x is None else x.numerator * (den // x.denominator) for x in entries], den)


def _solve_component(
    comp: list[int],
    members: set[int],
    edges: list[dict[int, Rational]],
    reward: list[Rational],
    values: list[Vector | None],
    absorbing: dict[int, Vector],
    k: int,
    check: Check,
) -> None:
    """Values inside one strongly connected component, through a feedback set (module docstring)."""
    feedback = _back_edge_targets(comp, members, edges)
    order = _postorder(comp, members, edges, feedback)
    fb_index = {f: i for i, f in enumerate(feedback)}
    m = len(feedback)
    # expr[s] = (constant vector, coefficients on the feedback values)
    consts: dict[int, Vector] = {}
    coefs: dict[int, list[mpq]] = {}
    for s in order:
        check()
        terms: list[Term] = [(reward[s], _unit(k, k - 1))] if reward[s] else []
        coef = [mpq(0)] * m
        for t, p in edges[s].items():
            if t >= 0 and t in members:
                if t in fb_index:
                    coef[fb_index[t]] += p
                else:
                    terms.append((p, consts[t]))
                    for i, x in enumerate(coefs[t]):
                        if x:
                            coef[i] += p * x
            else:
                v = absorbing[t] if t < 0 else values[t]
                assert v is not None
                terms.append((p, v))
        consts[s], coefs[s] = _mix(terms, k), coef
    # Feedback values: v_f = const_f + sum_g coef_f[g] v_g, i.e. (I - A) v = b, per component of the vector.
    unknown = [k_i for k_i in range(k) if all(consts[f].nums[k_i] is not None for f in feedback)]
    a = [[(mpq(int(i == j)) - coefs[f][j]) for j in range(m)] for i, f in enumerate(feedback)]
    b = [[_known(consts[f][ki]) for ki in unknown] for f in feedback]
    solved = _gauss(a, b, check)
    fb_values: list[Vector] = []
    for i in range(m):
        entries: list[mpq | None] = [None] * k
        for col, ki in enumerate(unknown):
            entries[ki] = solved[i][col]
        fb_values.append(_vector(entries))
    one = mpq(1)
    for s in comp:
        check()
        values[s] = _mix([(one, consts[s]), *[(x, fb_values[i]) for i, x in enumerate(coefs[s]) if x]], k)


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


def _sccs(edges: list[dict[int, mpq]]) -> list[list[int]]:
    """Tarjan's strongly connected components (iterative), in reverse topological order."""
    n = len(edges)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, iter([t for t in edges[root] if t >= 0]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, children = work[-1]
            advanced = False
            for t in children:
                if index[t] < 0:
                    index[t] = low[t] = counter
                    counter += 1
                    stack.append(t)
                    on_stack[t] = True
                    work.append((t, iter([x for x in edges[t] if x >= 0])))
                    advanced = True
                    break
                if on_stack[t]:
                    low[node] = min(low[node], index[t])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack[x] = False
                    comp.append(x)
                    if x == node:
                        break
                out.append(comp)
    return out


def _back_edge_targets(comp: list[int], members: set[int], edges: list[dict[int, mpq]]) -> list[int]:
    """Targets of the back edges of a depth-first search inside the component (a feedback vertex set)."""
    seen: set[int] = set()
    on_path: set[int] = set()
    targets: list[int] = []
    found: set[int] = set()
    start = comp[-1]
    work = [(start, iter([t for t in edges[start] if t in members]))]
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
                work.append((t, iter([x for x in edges[t] if x in members])))
                advanced = True
                break
        if not advanced:
            work.pop()
            on_path.discard(node)
    return targets


def _postorder(comp: list[int], members: set[int], edges: list[dict[int, mpq]], feedback: list[int]) -> list[int]:
    """Component nodes, each after every non-feedback node it leads to (edges into feedback nodes cut)."""
    fb = set(feedback)
    seen: set[int] = set()
    out: list[int] = []
    for root in comp:
        if root in seen:
            continue
        seen.add(root)
        work = [(root, iter([t for t in edges[root] if t in members and t not in fb]))]
        while work:
            node, children = work[-1]
            advanced = False
            for t in children:
                if t not in seen:
                    seen.add(t)
                    work.append((t, iter([x for x in edges[t] if x in members and x not in fb])))
                    advanced = True
                    break
            if not advanced:
                work.pop()
                out.append(node)
    return out
