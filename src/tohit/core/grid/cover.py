"""Cover as tiny named predicates: whether a foe stands behind a solid square from the attacker.

A foe is behind cover if a line from a corner of the attacker's square to a corner of the foe's square
crosses a solid square; a line that only touches a solid square's edge or corner does not. The option
`cover_rule` says which lines count:
- `any_line` (default, the page read literally): any of the 16 corner-to-corner lines;
- `best_corner`: the attacker picks its corner; cover needs a blocked line from that corner, so the foe
  is behind cover only when every corner of the attacker's square has a blocked line.
A wall on an edge is a solid object too (`walls.py`): a line that crosses one is blocked, one that only
touches it (runs along it, or grazes its end) is not.
For a creature of several squares, the squares of its footprint nearest the other creature are used;
when several are equally near, the attacker picks the pair of squares that gives it the clearer shot.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Any, Literal

import numpy as np

from tohit.core.grid.board import Board
from tohit.core.grid.footprint import Footprint
from tohit.core.grid.segments import squares_crossed
from tohit.core.grid.squares import Point, Square, corners
from tohit.core.grid.walls import WALL_SCALE, BoolArray, IntArray, corner_lines, line_crosses, lines_cross_walls

CoverRule = Literal["any_line", "best_corner"]
COVER_RULES: tuple[CoverRule, ...] = ("any_line", "best_corner")
#: The order the 16 corner-to-corner lines are tried in (indices into `squares.corners`): the four
#: parallel lines first (they lie furthest apart, so they are the likeliest to find a solid square).
LINE_ORDER: tuple[tuple[int, int], ...] = (
    (0, 0), (1, 1), (2, 2), (3, 3),
    (0, 1), (0, 2), (0, 3), (1, 0), (1, 2), (1, 3), (2, 0), (2, 1), (2, 3), (3, 0), (3, 1), (3, 2),
)  # fmt: skip


@dataclass(frozen=True)
class Cover:
    """Why a target is behind cover: the blocked line, the solid square it crosses (None: a wall), the squares
    used."""

    segment: tuple[Point, Point]
    square: Square | None
    attacker_square: Square
    target_square: Square

    def to_json(self) -> dict[str, Any]:
        (x0, y0), (x1, y1) = self.segment
        return {
            "segment": [[x0, y0], [x1, y1]],
            "square": None if self.square is None else list(self.square),
            "wall": self.square is None,
            "attacker_square": list(self.attacker_square),
            "target_square": list(self.target_square),
        }

    def describe(self) -> str:
        (x0, y0), (x1, y1) = self.segment
        if self.square is None:
            return f"line ({x0},{y0})-({x1},{y1}) crosses a wall"
        return f"line ({x0},{y0})-({x1},{y1}) crosses solid square ({self.square[0]},{self.square[1]})"


#: What blocks a line: a solid square, or WALL (a wall on an edge).
WALL = "wall"
#: A square's corners as offsets from it, in `squares.corners`' order.
CORNERS: IntArray = np.array([(0, 0), (1, 0), (0, 1), (1, 1)], dtype=np.int64)
#: The 16 corner-to-corner lines as corner offsets: line 4 * i + j from corner i of one square to corner j of the
#: other.
CORNER_I: IntArray = np.repeat(CORNERS, 4, axis=0)
CORNER_J: IntArray = np.tile(CORNERS, (4, 1))


def first_solid_crossed(board: Board, p: Point, q: Point) -> Square | None:
    """The first solid square the line from corner `p` to corner `q` crosses, if any."""
    for square in squares_crossed(p, q):
        if board.is_solid(square):
            return square
    return None


class CornerLines:
    """The 16 corner-to-corner lines from square `attacker` to square `target`, and what blocks each (`blocker`).
    Whether each line crosses a wall is decided for all 16 lines in one numpy call (`walls.lines_cross_walls`,
    each end leaving its own square), the first time a line needs it."""

    def __init__(self, board: Board, attacker: Square, target: Square) -> None:
        self.board, self.attacker, self.target = board, attacker, target
        self.starts, self.ends = corners(attacker), corners(target)
        self._crossed: dict[bool, BoolArray] = {}

    def walls_crossed(self, i: int, j: int, *, drawn: bool = False) -> bool:
        """The line from corner `i` of the attacker's square to corner `j` of the target's crosses a wall or the
        outline of a solid object (`drawn`: a drawn wall only)."""
        if drawn not in self._crossed:
            walls = self.board.walls if drawn else self.board.blockers
            a = np.repeat(np.array([self.attacker], dtype=np.int64), 16, axis=0)
            t = np.repeat(np.array([self.target], dtype=np.int64), 16, axis=0)
            self._crossed[drawn] = lines_cross_walls(walls, *corner_lines(a, t, CORNER_I, CORNER_J))
        return bool(self._crossed[drawn][4 * i + j])

    def blocker(self, i: int, j: int) -> Square | str | None:
        """What blocks line (i, j): the solid square it crosses first, else WALL if it crosses a wall, else the
        first solid square it touches when it passes through a solid object without entering a square (between
        two solid squares that meet at a corner, or along the edge between two), else None."""
        p, q = self.starts[i], self.ends[j]
        hit = first_solid_crossed(self.board, p, q)
        if hit is not None:
            return hit
        if not self.walls_crossed(i, j):
            return None
        if self.walls_crossed(i, j, drawn=True):
            return WALL
        return first_solid_touched(self.board, p, q) or WALL


def first_solid_touched(board: Board, p: Point, q: Point) -> Square | None:
    """The first solid square with a corner on the line from corner `p` to corner `q`."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    g = gcd(dx, dy) or 1
    for k in range(g + 1):
        cx, cy = p[0] + dx // g * k, p[1] + dy // g * k
        for sq in ((cx - 1, cy - 1), (cx, cy - 1), (cx - 1, cy), (cx, cy)):
            if board.is_solid(sq):
                return sq
    return None


def _cover(segment: tuple[Point, Point], hit: Square | str, attacker: Square, target: Square) -> Cover:
    return Cover(segment, None if isinstance(hit, str) else hit, attacker, target)


def line_blocked(board: Board, p: Point, q: Point) -> bool:
    """The line from corner `p` to corner `q` crosses a solid square, or a wall (touching one at an end of the
    line does not count: no square is known there)."""
    if first_solid_crossed(board, p, q) is not None:
        return True
    s = WALL_SCALE
    return board.has_blockers and line_crosses(board.blockers, (p[0] * s, p[1] * s), (q[0] * s, q[1] * s))


def blocked_line_from(lines: CornerLines, i: int) -> tuple[Point, Square | str] | None:
    """The first line from corner `i` of the attacker's square to a corner of the target's crossing a solid square
    or a wall (the parallel line first), with that square (or WALL)."""
    for j in (i, *(j for j in range(4) if j != i)):
        hit = lines.blocker(i, j)
        if hit is not None:
            return lines.ends[j], hit
    return None


def square_cover(board: Board, attacker: Square, target: Square, rule: CoverRule = "any_line") -> Cover | None:
    """Cover of the `target` square from the `attacker` square, under `rule`; None when in the open."""
    lines = CornerLines(board, attacker, target)
    starts, ends = lines.starts, lines.ends
    if rule == "any_line":
        for i, j in LINE_ORDER:
            hit = lines.blocker(i, j)
            if hit is not None:
                return _cover((starts[i], ends[j]), hit, attacker, target)
        return None
    found: Cover | None = None
    for i in range(4):
        blocked = blocked_line_from(lines, i)
        if blocked is None:
            return None  # the attacker shoots from this corner
        found = found or _cover((starts[i], blocked[0]), blocked[1], attacker, target)
    return found


def behind_cover(board: Board, attacker: Footprint, target: Footprint, rule: CoverRule = "any_line") -> Cover | None:
    """Cover of creature `target` from creature `attacker`: their nearest squares, the attacker's best pair."""
    found: Cover | None = None
    for a in attacker.nearest_squares(target):
        for t in target.nearest_squares(attacker):
            cover = square_cover(board, a, t, rule)
            if cover is None:
                return None
            found = found or cover
    return found
