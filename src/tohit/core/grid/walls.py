"""Walls on edges: thin solid objects drawn as segments in grid units, beside the solid squares.

A wall is a segment between two points in grid units (square (x, y) is the unit area [x, x + 1] x [y, y + 1]),
kept as integers in 1/`WALL_SCALE` of a square so that every test here is exact integer arithmetic (a drawn
map's coordinates are rounded to that fraction once, when read). A closed door is a wall; an open one is not.

A line crosses the walls where it passes from one side of a wall to the other; touching a wall is not crossing
(as a line that only touches a solid square's edge or corner does not cross it, the cover reading's rule):
- a proper crossing: the line and a wall cross at a point inside both;
- at a wall's end point inside the line (a bend of a drawn wall, or where walls meet): the walls there have
  arms strictly on both sides of the line;
- at an end of the line lying on a wall (a corner of a square on a wall along its edge): an arm of a wall there
  lies strictly between the way into the line's own square and the way the line goes, so the line leaves its
  square through the wall; when the line goes exactly opposite the way in, the walls there have arms strictly
  on both sides of the line (as at a point inside it), so every line leaving that way through a wall is
  blocked. Each end is given that way in (`into`), e.g. toward its square's centre; a zero vector means the
  end does not count. A line from a square's centre (a step, a Projectile's path) uses
  `STAND`: a square whose centre lies on a wall counts as standing on the side `STAND` points to.
A line along a wall only touches it. `lines_cross_walls` decides many lines at once with numpy; `line_crosses`
is one line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.grid.squares import Square

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
#: Wall coordinates are whole multiples of 1 / WALL_SCALE of a square (even: square centres are whole too).
WALL_SCALE = 240
#: Lines decided per numpy step (lines x candidate walls stay small).
CHUNK = 512
NO_WALLS: IntArray = np.zeros((0, 4), dtype=np.int64)
#: The way into a square from its centre (a fixed direction along no step between squares): which side of a
#: wall through a square's centre the square counts as.
STAND = (1, 2)


def to_units(value: float) -> int:
    """A coordinate in grid units as a whole number of 1 / WALL_SCALE (rounded to the nearest)."""
    return round(float(value) * WALL_SCALE)


def wall_array(walls: Iterable[Sequence[float]]) -> IntArray:
    """Walls [[x0, y0, x1, y1], ...] in grid units as an (m, 4) integer array in 1 / WALL_SCALE units;
    walls of zero length are dropped (they cannot be crossed)."""
    rows = [[to_units(v) for v in w] for w in walls]
    out = np.array(rows, dtype=np.int64).reshape(-1, 4)
    keep = (out[:, 0] != out[:, 2]) | (out[:, 1] != out[:, 3])
    return np.ascontiguousarray(out[keep])


def _orient(ax: IntArray, ay: IntArray, bx: IntArray, by: IntArray, cx: IntArray, cy: IntArray) -> IntArray:
    """Sign of the turn a -> b -> c (1 left, -1 right, 0 in line), exactly."""
    return np.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


def _strictly_between(ux: IntArray, uy: IntArray, wx: IntArray, wy: IntArray, vx: IntArray, vy: IntArray) -> BoolArray:
    """Direction w lies strictly inside the angle (under 180 degrees) from direction u to direction v."""
    turn = np.sign(ux * vy - uy * vx)
    first = np.sign(ux * wy - uy * wx)
    second = np.sign(wx * vy - wy * vx)
    return np.asarray((turn != 0) & (first == turn) & (second == turn), dtype=np.bool_)


def lines_cross_walls(walls: IntArray, p: IntArray, q: IntArray, into_p: IntArray, into_q: IntArray) -> BoolArray:
    """Whether each line p[i]-q[i] ((n, 2), in 1 / WALL_SCALE units) crosses a wall of `walls` ((m, 4)), as the
    module docstring says; `into_p[i]`, `into_q[i]` are the ways into each end's own square (zero: none)."""
    n = len(p)
    out = np.zeros(n, dtype=np.bool_)
    if n == 0 or len(walls) == 0:
        return out
    wx0, wy0, wx1, wy1 = (walls[:, k] for k in range(4))
    wlo_x, whi_x = np.minimum(wx0, wx1), np.maximum(wx0, wx1)
    wlo_y, whi_y = np.minimum(wy0, wy1), np.maximum(wy0, wy1)
    # A wall can touch a line only if its middle lies within half its length of the line's supporting line
    # (a cheap slab test in floats, with a margin, so it only drops walls far from it; the exact test follows).
    mid_x, mid_y = (wx0 + wx1) / 2.0, (wy0 + wy1) / 2.0
    reach = np.hypot(wx1 - wx0, wy1 - wy0) / 2.0 + 1.0
    for s in range(0, n, CHUNK):
        sl = slice(s, s + CHUNK)
        px, py, qx, qy = p[sl, 0], p[sl, 1], q[sl, 0], q[sl, 1]
        dx, dy = (qx - px).astype(np.float64), (qy - py).astype(np.float64)
        span = np.hypot(dx, dy)[:, None] * 1.000001
        off = np.abs(dx[:, None] * (mid_y[None, :] - py[:, None]) - dy[:, None] * (mid_x[None, :] - px[:, None]))
        near = (
            (off <= span * reach[None, :])
            & (np.minimum(px, qx)[:, None] <= whi_x[None, :])
            & (np.maximum(px, qx)[:, None] >= wlo_x[None, :])
            & (np.minimum(py, qy)[:, None] <= whi_y[None, :])
            & (np.maximum(py, qy)[:, None] >= wlo_y[None, :])
        )
        li, wi = np.nonzero(near)
        if not li.size:
            continue
        out |= candidates_cross(walls, p, q, into_p, into_q, li + s, wi)
    return out


def candidates_cross(
    walls: IntArray, p: IntArray, q: IntArray, into_p: IntArray, into_q: IntArray, li: IntArray, wi: IntArray
) -> BoolArray:
    """`lines_cross_walls` from candidate pairs found by the caller: line li[k] against wall wi[k]. Exact for every
    line whose pairs hold each wall that touches it (a wall meeting no line changes no answer)."""
    out = np.zeros(len(p), dtype=np.bool_)
    if li.size:
        blocked = _pairs_blocked(walls[wi], p[li], q[li], into_p[li], into_q[li], li)
        out[np.unique(li[blocked])] = True
    return out


def _pairs_blocked(
    w: IntArray, p: IntArray, q: IntArray, into_p: IntArray, into_q: IntArray, line: IntArray
) -> BoolArray:
    """For each (line, wall) pair: whether the wall blocks the line (joints are settled across the pairs of a
    line, so the answer for a pair may come from another wall meeting it)."""
    ax, ay, bx, by = w[:, 0], w[:, 1], w[:, 2], w[:, 3]
    px, py, qx, qy = p[:, 0], p[:, 1], q[:, 0], q[:, 1]
    o_a, o_b = _orient(px, py, qx, qy, ax, ay), _orient(px, py, qx, qy, bx, by)
    o_p, o_q = _orient(ax, ay, bx, by, px, py), _orient(ax, ay, bx, by, qx, qy)
    blocked = (o_a * o_b < 0) & (o_p * o_q < 0)
    # A wall's end point strictly inside the line, or an end of the line on a wall that the line leaves straight
    # away from its own square: walls there with arms on both sides of the line (collected, then settled per point).
    keys: list[IntArray] = []
    sides: list[IntArray] = []
    # An end of the line on a wall: an arm there strictly between the way in and the way the line goes. When the
    # line goes exactly opposite the way in, the square stands on the line itself, as a point strictly inside a
    # line does: the line leaves through the walls there when they have arms on both sides of it.
    for ex, ey, ox, oy, into in ((px, py, qx, qy, into_p), (qx, qy, px, py, into_q)):
        on = (_orient(ax, ay, bx, by, ex, ey) == 0) & _within(ax, ay, bx, by, ex, ey)
        ux, uy, vx, vy = into[:, 0], into[:, 1], ox - ex, oy - ey
        away = on & ((ux != 0) | (uy != 0)) & (ux * vy - uy * vx == 0) & (ux * vx + uy * vy < 0)
        for tx, ty in ((ax, ay), (bx, by)):
            arm = on & ((tx != ex) | (ty != ey))
            blocked |= arm & _strictly_between(ux, uy, tx - ex, ty - ey, vx, vy)
            side = _orient(px, py, qx, qy, tx, ty)
            idx = np.flatnonzero(arm & away & (side != 0))
            if idx.size:
                keys.append(np.stack([line[idx], ex[idx], ey[idx]], axis=1))
                sides.append(side[idx])
    for vx_, vy_, o_v, other_side in ((ax, ay, o_a, o_b), (bx, by, o_b, o_a)):
        inside = (o_v == 0) & _strictly_inside(px, py, qx, qy, vx_, vy_) & (other_side != 0)
        idx = np.flatnonzero(inside)
        if idx.size:
            keys.append(np.stack([line[idx], vx_[idx], vy_[idx]], axis=1))
            sides.append(other_side[idx])
    if keys:
        key = np.concatenate(keys)
        side = np.concatenate(sides)
        _, group = np.unique(key, axis=0, return_inverse=True)
        group = group.reshape(-1)
        pos = np.zeros(int(group.max()) + 1, dtype=np.bool_)
        neg = np.zeros_like(pos)
        np.logical_or.at(pos, group, side > 0)
        np.logical_or.at(neg, group, side < 0)
        crossing_lines = key[(pos & neg)[group], 0]
        blocked |= np.isin(line, crossing_lines)
    return np.asarray(blocked, dtype=np.bool_)


def _within(ax: IntArray, ay: IntArray, bx: IntArray, by: IntArray, ex: IntArray, ey: IntArray) -> BoolArray:
    """Point e lies in the bounding box of segment a-b (with the orientation test: on the closed segment)."""
    return np.asarray(
        (np.minimum(ax, bx) <= ex)
        & (ex <= np.maximum(ax, bx))
        & (np.minimum(ay, by) <= ey)
        & (ey <= np.maximum(ay, by)),
        dtype=np.bool_,
    )


def _strictly_inside(px: IntArray, py: IntArray, qx: IntArray, qy: IntArray, vx: IntArray, vy: IntArray) -> BoolArray:
    """Point v (in line with p-q) lies strictly between p and q."""
    dx, dy = qx - px, qy - py
    return np.asarray(((vx - px) * dx + (vy - py) * dy > 0) & ((vx - qx) * -dx + (vy - qy) * -dy > 0), dtype=np.bool_)


def line_crosses(
    walls: IntArray,
    p: tuple[int, int],
    q: tuple[int, int],
    into_p: tuple[int, int] = (0, 0),
    into_q: tuple[int, int] = (0, 0),
) -> bool:
    """One line (1 / WALL_SCALE units) against the walls: `lines_cross_walls` for a single line."""

    def arr(v: tuple[int, int]) -> IntArray:
        return np.array([v], dtype=np.int64)

    return bool(lines_cross_walls(walls, arr(p), arr(q), arr(into_p), arr(into_q))[0])


def corner_lines(a: IntArray, t: IntArray, ca: IntArray, ct: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Corner-to-corner lines in wall units: corners `ca` of squares `a`, `ct` of squares `t` ((n, 2) each,
    corners as 0/1 offsets), with the way into each end's square (toward its centre)."""
    p = (a + ca) * WALL_SCALE
    q = (t + ct) * WALL_SCALE
    half = WALL_SCALE // 2
    into_p = (a * WALL_SCALE + half) - p
    into_q = (t * WALL_SCALE + half) - q
    return p, q, into_p, into_q


def centre(square: Square) -> tuple[int, int]:
    """The centre of a square in wall units."""
    half = WALL_SCALE // 2
    return (square[0] * WALL_SCALE + half, square[1] * WALL_SCALE + half)


def steps_blocked(walls: IntArray, width: int, height: int, steps: Sequence[Square]) -> BoolArray:
    """(height, width, len(steps)) booleans: the step from square (x, y) by steps[k] crosses a wall (its
    centre-to-centre segment does: a wall on the shared edge, or across the diagonal through the shared
    corner). Only the squares within one square of a wall's bounding box are tried against it (a step is at
    most a square and a half long), so the work grows with the walls' lengths, not with the map."""
    out = np.zeros((height * width, len(steps)), dtype=np.bool_)
    if len(walls) == 0 or height * width == 0:
        return out.reshape(height, width, len(steps))
    lo_x = np.clip(np.minimum(walls[:, 0], walls[:, 2]) // WALL_SCALE - 1, 0, width - 1)
    hi_x = np.clip(np.maximum(walls[:, 0], walls[:, 2]) // WALL_SCALE + 1, 0, width - 1)
    lo_y = np.clip(np.minimum(walls[:, 1], walls[:, 3]) // WALL_SCALE - 1, 0, height - 1)
    hi_y = np.clip(np.maximum(walls[:, 1], walls[:, 3]) // WALL_SCALE + 1, 0, height - 1)
    box_w = hi_x - lo_x + 1
    counts = box_w * (hi_y - lo_y + 1)
    wall = np.repeat(np.arange(len(walls)), counts)
    k = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    bw = np.repeat(box_w, counts)
    sx = np.repeat(lo_x, counts) + k % bw
    sy = np.repeat(lo_y, counts) + k // bw
    square = sy * width + sx
    half = WALL_SCALE // 2
    p = np.stack([sx * WALL_SCALE + half, sy * WALL_SCALE + half], axis=1)
    stand = np.broadcast_to(np.array(STAND, dtype=np.int64), p.shape)
    w = walls[wall]
    for j, (dx, dy) in enumerate(steps):
        q = p + np.array([dx * WALL_SCALE, dy * WALL_SCALE], dtype=np.int64)
        hit = _pairs_blocked(w, p, q, stand, stand, square)
        out[square[hit], j] = True
    return out.reshape(height, width, len(steps))


def solid_outline(solid: Any) -> list[tuple[float, float, float, float]]:
    """The edges between a solid square and an open (or off-map) one, as walls: solid squares drawn for a
    tabletop that knows only walls."""
    height, width = solid.shape
    out: list[tuple[float, float, float, float]] = []

    def is_solid(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height and bool(solid[y, x])

    for y in range(height):
        for x in range(width):
            if not solid[y, x]:
                continue
            if not is_solid(x, y - 1):
                out.append((x, y, x + 1, y))
            if not is_solid(x + 1, y):
                out.append((x + 1, y, x + 1, y + 1))
            if not is_solid(x, y + 1):
                out.append((x, y + 1, x + 1, y + 1))
            if not is_solid(x - 1, y):
                out.append((x, y, x, y + 1))
    return out


def outline_edges(solid: Any) -> tuple[IntArray, IntArray]:
    """The outline of the solid squares (`solid_outline`) as (walls in 1 / WALL_SCALE units (m, 4), and per lattice
    point (y * (width + 1) + x) the outline edges that end there, 4 columns: right, left, up, down, -1 for none)."""
    solid = np.asarray(solid, dtype=np.bool_)
    height, width = solid.shape
    padded = np.zeros((height + 2, width + 2), dtype=np.bool_)
    padded[1:-1, 1:-1] = solid
    ys, xs = np.mgrid[0 : height + 1, 0 : width + 1]
    # Squares around lattice point (x, y), in padded indices: up-left (x, y), up-right (x + 1, y), down-left
    # (x, y + 1), down-right (x + 1, y + 1).
    ul, ur = padded[ys, xs], padded[ys, xs + 1]
    dl, dr = padded[ys + 1, xs], padded[ys + 1, xs + 1]
    kinds = ((ur != dr, (1, 0)), (ul != dl, (-1, 0)), (ul != ur, (0, -1)), (dl != dr, (0, 1)))
    rows: list[IntArray] = []
    table = np.full(((height + 1) * (width + 1), 4), -1, dtype=np.int64)
    count = 0
    for k, (present, (dx, dy)) in enumerate(kinds):
        where = np.flatnonzero(present.ravel())
        px, py = xs.ravel()[where], ys.ravel()[where]
        rows.append(np.stack([px, py, px + dx, py + dy], axis=1) * WALL_SCALE)
        table[where, k] = count + np.arange(where.size)
        count += where.size
    return np.concatenate(rows).astype(np.int64), table


def lines_cross_outline(
    solid: Any, edges: tuple[IntArray, IntArray], p: IntArray, q: IntArray, into_p: IntArray, into_q: IntArray
) -> BoolArray:
    """`lines_cross_walls` against the outline of the solid squares (`edges`: `outline_edges(solid)`), for lines
    between square corners (p, q in 1 / WALL_SCALE units, whole squares) that cross no solid square: such a line
    can meet the outline only at the square corners on it, so only the outline edges ending there are tried."""
    n = len(p)
    out = np.zeros(n, dtype=np.bool_)
    walls, table = edges
    if n == 0 or len(walls) == 0:
        return out
    width = np.asarray(solid).shape[1]
    a, b = p // WALL_SCALE, q // WALL_SCALE
    d = b - a
    g = np.gcd(d[:, 0], d[:, 1])
    steps = np.where(g > 0, g, 0) + 1
    line = np.repeat(np.arange(n), steps)
    k = np.arange(int(steps.sum())) - np.repeat(np.cumsum(steps) - steps, steps)
    unit = np.where(g[:, None] > 0, d // np.maximum(g, 1)[:, None], 0)
    points = a[line] + unit[line] * k[:, None]
    found = table[points[:, 1] * (width + 1) + points[:, 0]]  # (points, 4)
    li = np.repeat(line, 4)
    ei = found.reshape(-1)
    keep = ei >= 0
    li, ei = li[keep], ei[keep]
    if not li.size:
        return out
    blocked = _pairs_blocked(walls[ei], p[li], q[li], into_p[li], into_q[li], li)
    out[np.unique(li[blocked])] = True
    return out
