"""Attack ranges as squares: each a generator over the map.

Every function returns squares on the map, in a fixed order. Areas (Blast, Burst, Cone, Sweep) leave out
solid squares (nothing stands in them; a creature behind one is behind cover instead); a Line stops at
the first solid square or wall (a wall on the edge, or across the diagonal, between two of its squares);
Burst, Cone and Sweep stop at walls as Melee does (`reached`: a square is caught when the centre-to-centre
segment from the user's square, a Cone's origin, to it crosses no wall; the user must reach it); a Blast,
placed touching the user, and "within Y" (no line of sight needed) are not stopped by walls; every range
leaves out the user's own footprint.
"""

from __future__ import annotations

from collections.abc import Iterator

from tohit.core.grid.board import Board
from tohit.core.grid.footprint import Footprint
from tohit.core.grid.squares import DIRECTIONS, DirectionName, Square, count_121, is_diagonal, step


def open_squares(board: Board, squares: Iterator[Square] | list[Square], user: Footprint) -> list[Square]:
    """The squares that are on the map, not solid and not the user's own."""
    return [sq for sq in squares if board.is_open(sq) and not user.contains(sq)]


def reached(board: Board, sources: list[Square], squares: list[Square]) -> list[Square]:
    """The squares some square of `sources` reaches without a drawn wall between their centres (as Melee reaches
    a target); all of them on a map with no walls. Solid squares are left out of an area, not a wall to it: a
    creature behind one is behind cover instead (docs/maps.md)."""
    if not board.has_walls:
        return squares
    return [sq for sq in squares if any(not board.walls_only_between(s, sq) for s in sources)]


def user_reaches(board: Board, user: Footprint, squares: list[Square]) -> list[Square]:
    """The squares the user reaches from its nearest squares to each, not across a wall."""
    if not board.has_walls:
        return squares
    return [sq for sq in squares if reached(board, user.nearest_squares(Footprint(sq[0], sq[1])), [sq])]


# Blast X: a square X squares to a side, with one side or corner touching the user.


def blast_block(at: Square, size: int) -> Iterator[Square]:
    """The X-by-X block whose top-left square is `at`."""
    for y in range(at[1], at[1] + size):
        for x in range(at[0], at[0] + size):
            yield (x, y)


def blast_touches(user: Footprint, at: Square, size: int) -> bool:
    """The Blast's block has a side or a corner touching the user's footprint, without overlapping it."""
    return user.distance(Footprint(at[0], at[1], size)) == 1


def blast_placements(user: Footprint, size: int) -> list[Square]:
    """Every top-left square of a Blast X touching the user (the attacker chooses one)."""
    return [
        (x, y)
        for y in range(user.y - size, user.y1 + 2)
        for x in range(user.x - size, user.x1 + 2)
        if blast_touches(user, (x, y), size)
    ]


def blast(board: Board, user: Footprint, at: Square, size: int) -> list[Square]:
    """The squares of a Blast X placed with its top-left square at `at`."""
    return open_squares(board, blast_block(at, size), user)


# Burst X: a ring that surrounds the user, X squares deep (counted 1-2-1).


def burst(board: Board, user: Footprint, size: int) -> list[Square]:
    """Squares 1 to X squares (1-2-1) from the user's footprint that it reaches, not across a wall: Burst 1
    around a Large user is 12."""
    return user_reaches(board, user, around(board, user, size))


def around(board: Board, user: Footprint, size: int) -> list[Square]:
    """Open squares 1 to X squares (1-2-1) from the user's footprint, walls or not."""
    squares = (
        (x, y)
        for y in range(user.y - size, user.y1 + size + 1)
        for x in range(user.x - size, user.x1 + size + 1)
        if 1 <= user.distance_to((x, y)) <= size
    )
    return open_squares(board, squares, user)


def ring(board: Board, user: Footprint) -> list[Square]:
    """The squares cardinally or diagonally adjacent to the footprint (Melee's reach, Sweep's squares), walls
    or not (a Sweep leaves out those across a wall: `sweep_problem`, `sweeps`)."""
    return around(board, user, 1)


# Cone X and Line X start from one square of the footprint, on its side facing the direction.


def facing_squares(user: Footprint, direction: DirectionName) -> list[Square]:
    """Footprint squares a Cone or Line in `direction` may start from: the next square that way is outside."""
    d = DIRECTIONS[direction]
    return [sq for sq in user.squares() if not user.contains(step(sq, d))]


def default_origin(user: Footprint, direction: DirectionName) -> Square:
    """The middle one of the facing squares (the first of the middle two when there is an even number)."""
    options = facing_squares(user, direction)
    return options[(len(options) - 1) // 2]


def cone_block(origin: Square, direction: DirectionName, size: int) -> Iterator[Square]:
    """Cone X from `origin`: row k (1..X) is k squares out; cardinal rows are 1, 3, 5... wide, diagonal
    rows 1, 2, 3... (the squares i, j >= 1 out along each axis with i + j = k + 1)."""
    dx, dy = DIRECTIONS[direction]
    ox, oy = origin
    if is_diagonal(DIRECTIONS[direction]):
        for k in range(1, size + 1):
            for i in range(1, k + 1):
                yield (ox + i * dx, oy + (k + 1 - i) * dy)
    else:
        px, py = -dy, dx  # perpendicular
        for k in range(1, size + 1):
            for j in range(-(k - 1), k):
                yield (ox + k * dx + j * px, oy + k * dy + j * py)


def cone(board: Board, user: Footprint, origin: Square, direction: DirectionName, size: int) -> list[Square]:
    """The squares of a Cone X from footprint square `origin` in `direction` that the origin reaches, not across
    a wall."""
    return reached(board, [origin], open_squares(board, cone_block(origin, direction, size), user))


def line_steps(direction: DirectionName, size: int) -> int:
    """How many squares a Line X runs: X cardinally; diagonally while the 1-2-1 count stays within X."""
    d = DIRECTIONS[direction]
    k = 0
    while count_121((k + 1) * d[0], (k + 1) * d[1]) <= size:
        k += 1
    return k


def line(board: Board, user: Footprint, origin: Square, direction: DirectionName, size: int) -> list[Square]:
    """Line X from footprint square `origin`: squares in `direction`, through creatures, up to (not into)
    the first solid square, a wall or the map's edge. Line 4 diagonal: 3 squares (1 + 2 + 1 = 4)."""
    d = DIRECTIONS[direction]
    out: list[Square] = []
    for k in range(1, line_steps(direction, size) + 1):
        sq = step(origin, d, k)
        if not board.is_open(sq) or board.step_blocked(step(origin, d, k - 1), d):
            break
        if not user.contains(sq):
            out.append(sq)
    return out


# Sweep X: X squares adjacent to the user, each cardinally adjacent to the next, none twice.


def cardinally_adjacent(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def sweep_problem(board: Board, user: Footprint, squares: list[Square], size: int, who: str = "the user") -> str | None:
    """Why `squares` is not a Sweep X of this user, `who` (None when it is)."""
    if len(squares) != size:
        return f"a Sweep {size} cuts through {size} squares, got {len(squares)}"
    adjacent = set(ring(board, user))
    for i, sq in enumerate(squares):
        if sq not in adjacent:
            return f"square {list(sq)} is not an open square adjacent to the user"
        if not user_reaches(board, user, [sq]):
            return f"a wall stands between {who} and square {list(sq)}: a Sweep cannot cut across it"
        if sq in squares[:i]:
            return f"square {list(sq)} is swept twice: a Sweep may not double back"
        if i and not cardinally_adjacent(squares[i - 1], sq):
            return f"squares {list(squares[i - 1])} and {list(sq)} are not cardinally adjacent"
    return None


def sweeps(board: Board, user: Footprint, size: int) -> list[tuple[Square, ...]]:
    """Every Sweep X of the user, as ordered paths; each set of squares once (the first path found); none cuts
    across a wall."""
    near = user_reaches(board, user, ring(board, user))
    allowed = set(near)
    seen: set[frozenset[Square]] = set()
    found: list[tuple[Square, ...]] = []

    def extend(path: list[Square]) -> None:
        if len(path) == size:
            key = frozenset(path)
            if key not in seen:
                seen.add(key)
                found.append(tuple(path))
            return
        x, y = path[-1]
        for nxt in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if nxt in allowed and nxt not in path:
                path.append(nxt)
                extend(path)
                path.pop()

    for start in near:
        extend([start])
    return found


# X Squares within Y Squares.


def within(board: Board, user: Footprint, distance: int) -> list[Square]:
    """Open squares within Y (1-2-1) of the user, outside its footprint; no line of sight needed (walls or not)."""
    return around(board, user, distance)
