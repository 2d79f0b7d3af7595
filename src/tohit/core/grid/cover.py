"""Cover as tiny named predicates: whether a foe stands behind a solid square from the attacker.

A foe is behind cover if a line from a corner of the attacker's square to a corner of the foe's square
crosses a solid square; a line that only touches a solid square's edge or corner does not. The option
`cover_rule` says which lines count:
- `any_line` (default, the page read literally): any of the 16 corner-to-corner lines;
- `best_corner`: the attacker picks its corner; cover needs a blocked line from that corner, so the foe
  is behind cover only when every corner of the attacker's square has a blocked line.
For a creature of several squares, the squares of its footprint nearest the other creature are used;
when several are equally near, the attacker picks the pair of squares that gives it the clearer shot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from tohit.core.grid.board import Board
from tohit.core.grid.footprint import Footprint
from tohit.core.grid.segments import squares_crossed
from tohit.core.grid.squares import Point, Square, corners

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
    """Why a target is behind cover: the blocked line, the solid square it crosses, the squares used."""

    segment: tuple[Point, Point]
    square: Square
    attacker_square: Square
    target_square: Square

    def to_json(self) -> dict[str, Any]:
        (x0, y0), (x1, y1) = self.segment
        return {
            "segment": [[x0, y0], [x1, y1]],
            "square": list(self.square),
            "attacker_square": list(self.attacker_square),
            "target_square": list(self.target_square),
        }

    def describe(self) -> str:
        (x0, y0), (x1, y1) = self.segment
        return f"line ({x0},{y0})-({x1},{y1}) crosses solid square ({self.square[0]},{self.square[1]})"


def first_solid_crossed(board: Board, p: Point, q: Point) -> Square | None:
    """The first solid square the line from corner `p` to corner `q` crosses, if any."""
    for square in squares_crossed(p, q):
        if board.is_solid(square):
            return square
    return None


def line_blocked(board: Board, p: Point, q: Point) -> bool:
    """The line from corner `p` to corner `q` crosses a solid square."""
    return first_solid_crossed(board, p, q) is not None


def blocked_line_from(board: Board, attacker: Square, i: int, target: Square) -> tuple[Point, Square] | None:
    """The first line from corner `i` of `attacker` to a corner of `target` crossing a solid square (the
    parallel line first), with that square."""
    p = corners(attacker)[i]
    ends = corners(target)
    for j in (i, *(j for j in range(4) if j != i)):
        hit = first_solid_crossed(board, p, ends[j])
        if hit is not None:
            return ends[j], hit
    return None


def square_cover(board: Board, attacker: Square, target: Square, rule: CoverRule = "any_line") -> Cover | None:
    """Cover of the `target` square from the `attacker` square, under `rule`; None when in the open."""
    starts, ends = corners(attacker), corners(target)
    if rule == "any_line":
        for i, j in LINE_ORDER:
            hit = first_solid_crossed(board, starts[i], ends[j])
            if hit is not None:
                return Cover((starts[i], ends[j]), hit, attacker, target)
        return None
    found: Cover | None = None
    for i in range(4):
        blocked = blocked_line_from(board, attacker, i, target)
        if blocked is None:
            return None  # the attacker shoots from this corner
        found = found or Cover((starts[i], blocked[0]), blocked[1], attacker, target)
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
