"""Cover for many pairs at once, vectorised with numpy (the same predicates as `cover.py`).

`lines_blocked(solid, p, q)` walks many corner-to-corner lines together, a block of columns per numpy
step, and drops each line as soon as it crosses a solid square (or ends): on a cluttered map most lines
are decided within a few squares. `cover_pairs` builds the lines of each pair of creatures (nearest
squares, 16 corner pairs) and decides `any_line` or `best_corner` in two rounds: first one line per
group, then the rest of the lines only for the groups the first round left open. A summed-area table
skips the pairs whose bounding box holds no solid square at all (on a map with no walls). Walls on edges
(`walls.lines_cross_walls`) are tried for the lines no solid square blocks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tohit.core.grid.board import Board
from tohit.core.grid.cover import CORNERS, LINE_ORDER, CoverRule
from tohit.core.grid.footprint import Footprint
from tohit.core.grid.walls import corner_lines, lines_cross_outline, lines_cross_walls

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FIRST_BLOCK = 8
MAX_BLOCK = 64
CHUNK = 1 << 18


def lines_blocked(solid: npt.NDArray[np.bool_], p: IntArray, q: IntArray) -> BoolArray:
    """Whether each line p[i]-q[i] between lattice points (square corners) crosses a solid square.

    The walk of `segments.squares_crossed`, for many lines at once: each line is turned so its minor
    coordinate grows (the set of squares crossed does not depend on the direction of travel). In column k
    of its longer axis (length L, minor rise d) it spans minor values v = m + k d / L .. v + d / L, so it
    crosses squares floor(v) .. ceil(v + d / L) - 1 of that column, one or two. Exactly: a value that is
    not a whole number is at least 1 / L from one, so floor(v + 1 / 2L) and floor(v + d / L - 1 / 2L)
    give those two squares even with float32's rounding (under 1e-4 on maps up to 1000 squares a side,
    against 1 / 2L >= 5e-4); indices stay below 2^24, exact in float32. Lines are walked a block of
    columns at a time and dropped as soon as they are blocked or end.
    """
    n = len(p)
    out = np.zeros(n, dtype=np.bool_)
    if n == 0:
        return out
    width = solid.shape[1]
    flat = solid.ravel()
    dx, dy = q[:, 0] - p[:, 0], q[:, 1] - p[:, 1]
    x_major = np.abs(dx) >= np.abs(dy)
    d_minor = np.where(x_major, dy, dx)
    swap = d_minor < 0
    start = np.where(swap[:, None], q, p)
    dx, dy = np.where(swap, -dx, dx), np.where(swap, -dy, dy)
    length = np.where(x_major, np.abs(dx), np.abs(dy))
    d_major = np.where(x_major, dx, dy)
    d_minor = np.abs(d_minor)
    p_major = np.where(x_major, start[:, 0], start[:, 1])
    p_minor = np.where(x_major, start[:, 1], start[:, 0])
    stride_major = np.where(x_major, 1, width)
    stride_minor = np.where(x_major, width, 1)
    # The square in column k: major index p_major + k (walking up the axis) or p_major - 1 - k (down).
    step = np.where(d_major > 0, stride_major, -stride_major)
    base = np.where(d_major > 0, p_major, p_major - 1) * stride_major
    idx = np.flatnonzero((length > 0) & (d_minor != 0))  # the others lie along grid lines: no crossing
    ln = length[idx]
    inv = (1.0 / ln).astype(np.float32)
    half = (0.5 * inv).astype(np.float32)
    rise = (d_minor[idx] * inv).astype(np.float32)
    low = (p_minor[idx] + half).astype(np.float32)
    high = (p_minor[idx] - half + rise).astype(np.float32)
    minor = stride_minor[idx].astype(np.float32)
    column0 = base[idx].astype(np.float32)
    major = step[idx].astype(np.float32)
    k0, block = 0, FIRST_BLOCK
    while idx.size:
        ks = np.minimum(np.arange(k0, k0 + block, dtype=np.float32)[None, :], (ln - 1).astype(np.float32)[:, None])
        rk = rise[:, None] * ks
        first = np.floor(low[:, None] + rk)
        last = np.floor(high[:, None] + rk)
        at = column0[:, None] + major[:, None] * ks + first * minor[:, None]
        hit = flat[at.astype(np.int32)] | flat[(at + (last - first) * minor[:, None]).astype(np.int32)]
        found = hit.any(axis=1)
        out[idx[found]] = True
        keep = ~(found | (k0 + block >= ln))
        idx, ln, rise, low, high, minor, column0, major = (
            v[keep] for v in (idx, ln, rise, low, high, minor, column0, major)
        )
        k0 += block
        block = min(block * 2, MAX_BLOCK)
    return out


def summed_area(solid: npt.NDArray[np.bool_]) -> IntArray:
    """sat[y, x] = solid squares in rows < y and columns < x."""
    height, width = solid.shape
    sat = np.zeros((height + 1, width + 1), dtype=np.int64)
    sat[1:, 1:] = solid.astype(np.int64).cumsum(0).cumsum(1)
    return sat


def any_solid_in(sat: IntArray, x0: IntArray, y0: IntArray, x1: IntArray, y1: IntArray) -> BoolArray:
    """Whether the squares x0..x1, y0..y1 (inclusive) hold a solid square."""
    total = sat[y1 + 1, x1 + 1] - sat[y0, x1 + 1] - sat[y1 + 1, x0] + sat[y0, x0]
    return total > 0


def corner_lines_blocked(board: Board, a: IntArray, t: IntArray, ci: IntArray, cj: IntArray) -> BoolArray:
    """Whether the line from corner ci[k] of square a[k] to corner cj[k] of square t[k] crosses a solid square
    or (for the lines no solid square blocks) a wall."""
    ca, ct = CORNERS[ci], CORNERS[cj]
    hit = lines_blocked(board.solid, a + ca, t + ct)
    if board.has_blockers:
        rest = np.flatnonzero(~hit)
        if rest.size:
            p, q, into_p, into_q = corner_lines(a[rest], t[rest], ca[rest], ct[rest])
            if board.has_walls:
                hit[rest] = lines_cross_walls(board.blockers, p, q, into_p, into_q)
            else:  # solid squares only: their outline meets these lines only at the square corners on them
                hit[rest] = lines_cross_outline(board.solid, board.outline, p, q, into_p, into_q)
    return hit


def _stage_blocked(board: Board, a: IntArray, t: IntArray, stage: Sequence[tuple[int, int]]) -> BoolArray:
    """For squares a[i], t[i]: whether any of the `stage` corner-to-corner lines is blocked."""
    ia = np.array([i for i, _ in stage], dtype=np.int64)
    it = np.array([j for _, j in stage], dtype=np.int64)
    if not board.has_blockers:
        p = (a[:, None, :] + CORNERS[ia][None, :, :]).reshape(-1, 2)
        q = (t[:, None, :] + CORNERS[it][None, :, :]).reshape(-1, 2)
        hit = lines_blocked(board.solid, p, q)
    else:
        aa, tt = np.repeat(a, len(stage), axis=0), np.repeat(t, len(stage), axis=0)
        hit = corner_lines_blocked(board, aa, tt, np.tile(ia, len(a)), np.tile(it, len(a)))
    return np.asarray(hit.reshape(len(a), len(stage)).any(axis=1), dtype=np.bool_)


def square_pairs_covered(
    board: Board, a: IntArray, t: IntArray, rule: CoverRule = "any_line", sat: IntArray | None = None
) -> BoolArray:
    """Cover of square t[i] from square a[i] ((n, 2) arrays), for every i, under `rule`.

    The lines are tried in the order of `cover.LINE_ORDER` (the four parallel lines first), in stages:
    a stage only walks the lines of the squares it has not decided yet.
    """
    n = len(a)
    covered = np.zeros(n, dtype=np.bool_)
    if n == 0:
        return covered
    sat = summed_area(board.solid) if sat is None else sat
    x0, x1 = np.minimum(a[:, 0], t[:, 0]), np.maximum(a[:, 0], t[:, 0])
    y0, y1 = np.minimum(a[:, 1], t[:, 1]), np.maximum(a[:, 1], t[:, 1])
    near = any_solid_in(sat, x0, y0, x1, y1)
    undecided = np.arange(n) if board.has_walls else np.flatnonzero(near)
    if rule == "any_line":
        for stage in (LINE_ORDER[:1], LINE_ORDER[1:4], LINE_ORDER[4:]):
            if not undecided.size:
                break
            hit = _stage_blocked(board, a[undecided], t[undecided], stage)
            covered[undecided[hit]] = True
            undecided = undecided[~hit]
        return covered
    # best_corner: group (square pair, attacker corner) is blocked if a line from that corner is.
    pair = np.repeat(undecided, 4)
    corner = np.tile(np.arange(4), len(undecided))
    blocked = np.zeros(len(pair), dtype=np.bool_)
    todo = np.arange(len(pair))
    for j_offset in range(4):
        if not todo.size:
            break
        ci = corner[todo]
        cj = (ci + j_offset) % 4
        if board.has_blockers:
            hit = corner_lines_blocked(board, a[pair[todo]], t[pair[todo]], ci, cj)
        else:
            hit = lines_blocked(board.solid, a[pair[todo]] + CORNERS[ci], t[pair[todo]] + CORNERS[cj])
        blocked[todo[hit]] = True
        todo = todo[~hit]
        if j_offset == 0:
            # A pair one of whose corners is already clear of its parallel line may still be covered;
            # only a corner with all four lines clear uncovers the pair, so keep walking the rest.
            continue
    covered[undecided] = blocked.reshape(-1, 4).all(axis=1)
    return covered


def count_121(dx: IntArray, dy: IntArray) -> IntArray:
    """The 1-2-1 count, elementwise (squares.count_121)."""
    ax, ay = np.abs(dx), np.abs(dy)
    return np.maximum(ax, ay) + np.minimum(ax, ay) // 2


def _nearest_mask(own: IntArray, side: int, other: IntArray, other_side: int) -> tuple[IntArray, BoolArray]:
    """Squares of footprints `own` (m, 2) of `side`, and which are nearest (1-2-1) to footprints `other`."""
    offsets = np.array([(x, y) for y in range(side) for x in range(side)], dtype=np.int64)
    squares = own[:, None, :] + offsets[None, :, :]  # (m, side^2, 2)
    lo = other[:, None, :]
    hi = lo + other_side - 1
    gap = np.maximum(0, np.maximum(lo - squares, squares - hi))
    dist = count_121(gap[..., 0], gap[..., 1])
    return squares, dist == dist.min(axis=1, keepdims=True)


def cover_arrays(
    board: Board,
    a_xy: IntArray,
    a_side: IntArray,
    t_xy: IntArray,
    t_side: IntArray,
    rule: CoverRule = "any_line",
) -> BoolArray:
    """Cover of footprint t[i] from footprint a[i] (top-left squares (n, 2), sides (n,)), for every i.

    The same answer as `cover.behind_cover` pair by pair: the nearest squares of each footprint, and the
    attacker picks the pair of squares with the clearer shot (covered only if every pair is).
    """
    n = len(a_xy)
    result = np.zeros(n, dtype=np.bool_)
    sat = summed_area(board.solid)
    for sa, st in sorted(set(zip(a_side.tolist(), t_side.tolist(), strict=True))):
        sel = np.flatnonzero((a_side == sa) & (t_side == st))
        if sa == 1 and st == 1:
            result[sel] = square_pairs_covered(board, a_xy[sel], t_xy[sel], rule, sat)
            continue
        a_sq, a_near = _nearest_mask(a_xy[sel], sa, t_xy[sel], st)
        t_sq, t_near = _nearest_mask(t_xy[sel], st, a_xy[sel], sa)
        owner, ia, it = np.nonzero(a_near[:, :, None] & t_near[:, None, :])
        got = square_pairs_covered(board, a_sq[owner, ia], t_sq[owner, it], rule, sat)
        uncovered = np.bincount(owner[~got], minlength=len(sel)) > 0
        result[sel] = ~uncovered
    return result


def cover_pairs(board: Board, pairs: Sequence[tuple[Footprint, Footprint]], rule: CoverRule = "any_line") -> BoolArray:
    """Cover of each (attacker, target) pair of footprints, as `cover.behind_cover` decides it."""
    a_xy = np.array([(a.x, a.y) for a, _ in pairs], dtype=np.int64).reshape(-1, 2)
    t_xy = np.array([(t.x, t.y) for _, t in pairs], dtype=np.int64).reshape(-1, 2)
    a_side = np.array([a.side for a, _ in pairs], dtype=np.int64)
    t_side = np.array([t.side for _, t in pairs], dtype=np.int64)
    return cover_arrays(board, a_xy, a_side, t_xy, t_side, rule)


def cover_matrix(
    board: Board,
    a_xy: IntArray,
    a_side: IntArray,
    t_xy: IntArray,
    t_side: IntArray,
    rule: CoverRule = "any_line",
) -> BoolArray:
    """(len(a), len(t)) booleans: footprint t[j] is behind cover from footprint a[i]."""
    na, nt = len(a_xy), len(t_xy)
    ai = np.repeat(np.arange(na), nt)
    ti = np.tile(np.arange(nt), na)
    got = cover_arrays(board, a_xy[ai], a_side[ai], t_xy[ti], t_side[ti], rule)
    return got.reshape(na, nt)
