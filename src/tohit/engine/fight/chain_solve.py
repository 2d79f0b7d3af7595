"""The exact chain solved in rationals (gmpy2's `mpq`: GMP's arithmetic, several times faster than `Fraction` on
the thousand-digit values a chain reaches): strongly connected components in reverse topological order; inside a
component, the values are written in terms of a small feedback set (the targets of the back edges of a
depth-first search) and that small system is solved by Gaussian elimination. Used by `exact` (the duel's chain).
"""

from __future__ import annotations

from collections.abc import Callable

from gmpy2 import mpq

#: A check that may only refuse (raise): the exact duel's time and memory caps, called as the solve goes.
Check = Callable[[], None]

Vec = list[mpq | None]


def solve(
    edges: list[dict[int, mpq]],
    reward: list[mpq],
    sides: int,
    check: Check,
    solving: Callable[[int], None] | None = None,
) -> list[Vec]:
    """Per transient state: [P(win side 0..), P(draw), P(beyond), P(never ends), E(round increments)]."""
    n = len(edges)
    k = sides + 4
    absorbing: dict[int, Vec] = {}
    for s in range(sides):
        absorbing[-1 - s] = _unit(k, s)
    absorbing[-1 - sides] = _unit(k, sides)
    absorbing[-2 - sides] = _unit(k, sides + 1)
    values: list[Vec | None] = [None] * n
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
            for s in comp:
                values[s] = [*[mpq(0)] * (sides + 2), mpq(1), None]
            continue
        if len(comp) == 1 and comp[0] not in edges[comp[0]]:
            s = comp[0]
            values[s] = _combine(edges[s], reward[s], values, absorbing, k)
            continue
        _solve_component(comp, members, edges, reward, values, absorbing, k, check)
    return [v if v is not None else [None] * k for v in values]


def _unit(k: int, i: int) -> Vec:
    out: Vec = [*[mpq(0)] * k]
    out[i] = mpq(1)
    out[k - 1] = mpq(0)
    return out


def _combine(row: dict[int, mpq], r: mpq, values: list[Vec | None], absorbing: dict[int, Vec], k: int) -> Vec:
    acc: Vec = [*[mpq(0)] * (k - 1), r]
    for t, p in row.items():
        v = absorbing[t] if t < 0 else values[t]
        assert v is not None
        _add_scaled(acc, v, p)
    return acc


def _add_scaled(acc: Vec, v: Vec, p: mpq) -> None:
    for i, x in enumerate(v):
        if x is None or acc[i] is None:
            acc[i] = None
        elif x:
            acc[i] = acc[i] + p * x


def _solve_component(
    comp: list[int],
    members: set[int],
    edges: list[dict[int, mpq]],
    reward: list[mpq],
    values: list[Vec | None],
    absorbing: dict[int, Vec],
    k: int,
    check: Check,
) -> None:
    """Values inside one strongly connected component, through a feedback set (module docstring)."""
    feedback = _back_edge_targets(comp, members, edges)
    order = _postorder(comp, members, edges, feedback)
    fb_index = {f: i for i, f in enumerate(feedback)}
    m = len(feedback)
    # expr[s] = (constant vector, coefficients on the feedback values)
    consts: dict[int, Vec] = {}
    coefs: dict[int, list[mpq]] = {}
    for s in order:
        check()
        const: Vec = [*[mpq(0)] * (k - 1), reward[s]]
        coef = [mpq(0)] * m
        for t, p in edges[s].items():
            if t >= 0 and t in members:
                if t in fb_index:
                    coef[fb_index[t]] += p
                else:
                    _add_scaled(const, consts[t], p)
                    for i, x in enumerate(coefs[t]):
                        if x:
                            coef[i] += p * x
            else:
                v = absorbing[t] if t < 0 else values[t]
                assert v is not None
                _add_scaled(const, v, p)
        consts[s], coefs[s] = const, coef
    # Feedback values: v_f = const_f + sum_g coef_f[g] v_g, i.e. (I - A) v = b, per component of the vector.
    unknown = [k_i for k_i in range(k) if all(consts[f][k_i] is not None for f in feedback)]
    a = [[(mpq(int(i == j)) - coefs[f][j]) for j in range(m)] for i, f in enumerate(feedback)]
    b = [[_known(consts[f][ki]) for ki in unknown] for f in feedback]
    solved = _gauss(a, b, check)
    fb_values: list[Vec] = []
    for i in range(m):
        vec: Vec = [None] * k
        for col, ki in enumerate(unknown):
            vec[ki] = solved[i][col]
        fb_values.append(vec)
    for s in comp:
        check()
        out: Vec = list(consts[s])
        for i, x in enumerate(coefs[s]):
            if x:
                _add_scaled(out, fb_values[i], x)
        values[s] = out


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
