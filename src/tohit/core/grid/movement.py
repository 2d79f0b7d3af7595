"""Movement on the map: the squares a creature can end its move on with the Movement it has, and the path to each.

- Entering a square costs 1 Movement; diagonal steps count 1-2-1 over the whole move, as for ranges (every
  second diagonal step costs 2).
- Difficult Terrain (`Board.difficult`) costs 1 more for a step that enters any of it.
- A creature may enter a last square even if that costs more than the Movement it has left: a step may start
  from any square reached with at least 1 Movement left.
- Solid squares block, and so do walls on edges: a step whose squares' shared edge (or, for a diagonal step,
  the diagonal through their shared corner) crosses a wall (`Board.step_blocked`); every square of a large
  footprint steps, and a footprint may not stand astride a wall.
- The squares in `blocked` (an enemy's) cannot be entered; those in `occupied` (anyone's
  else, an ally's included) may be passed through but not ended on.

A footprint of `side` x `side` squares moves by its top-left square; every square it would fill must be open.
Ties between paths of the same cost go to the one found first (steps tried in a fixed order), so a move is the
same every time.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection
from dataclasses import dataclass

from tohit.core.grid.board import STEPS, Board
from tohit.core.grid.squares import Square

__all__ = ["STEPS", "Move", "footprint_split", "moves", "reachable", "step_blocked"]


@dataclass(frozen=True)
class Move:
    """A move from `path[0]` to `path[-1]` (top-left squares) costing `cost` Movement."""

    path: tuple[Square, ...]
    cost: int

    @property
    def end(self) -> Square:
        return self.path[-1]

    @property
    def start(self) -> Square:
        return self.path[0]


def _squares(origin: Square, side: int) -> list[Square]:
    x, y = origin
    return [(x + i, y + j) for j in range(side) for i in range(side)]


def step_blocked(board: Board, origin: Square, side: int, step: Square) -> bool:
    """A footprint of `side` at `origin` stepping by `step` crosses a wall with one of its squares."""
    return board.has_blockers and any(board.step_blocked(sq, step) for sq in _squares(origin, side))


def footprint_split(board: Board, origin: Square, side: int) -> bool:
    """A wall runs between two squares of the footprint (it cannot stand there)."""
    if side == 1 or not board.has_blockers:
        return False
    x, y = origin
    return any(
        board.step_blocked((x + i, y + j), d)
        for j in range(side)
        for i in range(side)
        for d in ((1, 0), (0, 1), (1, 1), (-1, 1))
        if 0 <= i + d[0] < side and 0 <= j + d[1] < side
    )


def moves(
    board: Board,
    start: Square,
    movement: int,
    *,
    side: int = 1,
    blocked: Collection[Square] = (),
    occupied: Collection[Square] = (),
) -> dict[Square, Move]:
    """Every top-left square a creature at `start` can end a move on with `movement`, with the cheapest path to
    it (the start itself at cost 0). See the module docstring for the rules."""

    def can_enter(origin: Square) -> bool:
        return all(board.is_open(sq) and sq not in blocked for sq in _squares(origin, side)) and not (
            footprint_split(board, origin, side)
        )

    # Dijkstra over (square, diagonals so far odd): the next diagonal costs 2 when an odd number came before.
    first = (start, False)
    best: dict[tuple[Square, bool], int] = {first: 0}
    came: dict[tuple[Square, bool], tuple[Square, bool] | None] = {first: None}
    order = 0
    heap: list[tuple[int, int, Square, bool]] = [(0, order, start, False)]
    while heap:
        cost, _, square, odd = heapq.heappop(heap)
        if cost > best.get((square, odd), cost) or cost >= movement:  # no Movement left to enter another square
            continue
        here = set(_squares(square, side))
        for dx, dy in STEPS:
            nxt = (square[0] + dx, square[1] + dy)
            if not can_enter(nxt) or step_blocked(board, square, side, (dx, dy)):
                continue
            diagonal = dx != 0 and dy != 0
            step = 2 if diagonal and odd else 1
            if any(board.is_difficult(sq) for sq in _squares(nxt, side) if sq not in here):
                step += 1
            state = (nxt, odd != diagonal)
            total = cost + step
            if total < best.get(state, total + 1):
                best[state] = total
                came[state] = (square, odd)
                order += 1
                heapq.heappush(heap, (total, order, nxt, state[1]))
    out: dict[Square, Move] = {}
    taken = set(occupied)
    for (square, odd), cost in sorted(best.items(), key=lambda kv: (kv[1], kv[0][0][1], kv[0][0][0], kv[0][1])):
        if square in out or (square != start and any(sq in taken for sq in _squares(square, side))):
            continue
        path: list[Square] = []
        node: tuple[Square, bool] | None = (square, odd)
        while node is not None:
            path.append(node[0])
            node = came[node]
        out[square] = Move(tuple(reversed(path)), cost)
    return out


def reachable(board: Board, start: Square, side: int = 1) -> set[Square]:
    """Every top-left square a footprint at `start` could walk to with no limit of Movement and nobody in the way:
    the squares not shut off from it by solid squares and walls (a game master's free move stays within them)."""
    seen = {start}
    todo = [start]
    while todo:
        square = todo.pop()
        for dx, dy in STEPS:
            nxt = (square[0] + dx, square[1] + dy)
            if nxt in seen or step_blocked(board, square, side, (dx, dy)):
                continue
            if all(board.is_open(sq) for sq in _squares(nxt, side)) and not footprint_split(board, nxt, side):
                seen.add(nxt)
                todo.append(nxt)
    return seen
