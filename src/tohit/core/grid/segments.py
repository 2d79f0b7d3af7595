"""Segments against squares: which square interiors a straight line crosses.

Touching an edge or a corner is not crossing (cover needs a line through a solid square), so every test
here is strict.
- `crosses(p, q, square)`: the separating-axis test on the x axis, the y axis and the segment's normal,
  in integer arithmetic (exact); works for any integer end points (corners, or doubled centres).
- `squares_crossed(p, q)`: the squares a segment between two lattice points (square corners) crosses,
  in order from `p`, walking the longer axis one column (or row) at a time: in each column the segment
  spans at most one unit of the other axis, so it crosses one or two squares there.
"""

from __future__ import annotations

from collections.abc import Iterator

from tohit.core.grid.squares import Point, Square


def crosses(p: Point, q: Point, square: Square, scale: int = 1) -> bool:
    """Whether segment `p`-`q` passes through the interior of `square` (coordinates times `scale`)."""
    a, b = square[0] * scale, square[1] * scale
    a1, b1 = a + scale, b + scale
    if not (min(p[0], q[0]) < a1 and max(p[0], q[0]) > a):
        return False
    if not (min(p[1], q[1]) < b1 and max(p[1], q[1]) > b):
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    sides = [dx * (cy - p[1]) - dy * (cx - p[0]) for cx, cy in ((a, b), (a1, b), (a, b1), (a1, b1))]
    return min(sides) < 0 < max(sides)


def squares_crossed(p: Point, q: Point) -> Iterator[Square]:
    """The squares whose interior the segment between lattice points `p` and `q` crosses, from `p` on."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    x_major = abs(dx) >= abs(dy)
    major, minor = (0, 1) if x_major else (1, 0)
    d_major, d_minor = (dx, dy) if x_major else (dy, dx)
    length = abs(d_major)
    if length == 0 or d_minor == 0:
        return  # a point, or a segment along a grid line: it only touches edges
    sign = 1 if d_major > 0 else -1
    p_major, p_minor = p[major], p[minor]
    for k in range(length):
        column = p_major + k if sign > 0 else p_major - k - 1
        n0 = p_minor * length + d_minor * k
        n1 = n0 + d_minor
        lo, hi = min(n0, n1), max(n0, n1)
        first, last = lo // length, -(-hi // length) - 1
        cells = range(first, last + 1) if d_minor > 0 else range(last, first - 1, -1)
        for cell in cells:
            yield (column, cell) if x_major else (cell, column)
