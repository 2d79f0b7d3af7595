"""What a creature sees on the map: the squares in its line of sight, from the walls and solid squares the rules use.

The games' pages give no rule for sight (no light or darkness on the grid); the nearest rule the grid's game gives
is a Projectile's path (Attack Ranges, Projectile X: "it cannot go through solid objects"), which tohit reads as the
segment from the centre of the user's square to the centre of the target's (`reach.path_clear`). Sight is that path,
our choice (docs/maps.md, "Vision"): square `t` is seen from square `a` when the centre-to-centre segment from `a`
to `t` crosses no solid square and no wall (a closed door is a wall, an open one is not); creatures do not block
sight (a Projectile stops at a creature, an eye looks past it). Touching a wall's end or running along it is not
crossing, as for every line of the rules (`walls.py`).

- `seen_from(board, square)`: that set for one square, as an (height, width) boolean array: the very predicate of
  `reach.path_clear` for every square of the map at once (the walls' own exact test, `walls.candidates_cross`,
  against `Board.blockers`: the walls and the outline of the solid squares, which the maps' docs and tests hold to
  give the same answers as the solid squares themselves). The lines are tried ring by ring out from the square,
  each only against the walls of that ring whose directions from the square's centre hold it (`lines_seen`):
  exact, as every line is still decided by the walls' test, and cheap on a big map, where a line far behind a
  wall stops in the first ring that blocks it.
- A solid square is never in a line of sight (the path to its centre crosses its own edge): it is drawn as seen
  when an open square beside it (sharing an edge, no drawn wall between their centres) is seen, so a room's
  pillars and rock walls show where the room is seen (`faces_seen`).
- `Sight`: one board's sight per square, worked out once and kept (the work counted in lines tried).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from tohit.core.grid.board import Board
from tohit.core.grid.squares import Square
from tohit.core.grid.walls import STAND, WALL_SCALE, candidates_cross

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
#: How far past its directions from the square a wall is still tried (radians): far above float error.
MARGIN = 1e-6
#: The rings out from the square (in squares) the lines are tried in, each against the walls in it.
RINGS = (0, 2, 4, 8, 16, 32, 64, 128)
#: The squares whose sight a `Sight` keeps (each a bit per square of the map: 5 kB on a 200 x 200 map).
KEPT = 4096
#: The four steps to a square sharing an edge.
EDGES: tuple[Square, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _centres(board: Board) -> IntArray:
    """Every square's centre in wall units, row by row ((height * width, 2))."""
    ys, xs = np.mgrid[0 : board.height, 0 : board.width]
    half = WALL_SCALE // 2
    return np.stack([xs.ravel() * WALL_SCALE + half, ys.ravel() * WALL_SCALE + half], axis=1).astype(np.int64)


def _wall_arcs(walls: IntArray, p: tuple[int, int]) -> tuple[FloatArray, FloatArray]:
    """Each wall's directions from point `p` as an arc (start angle, width in radians, under pi); a wall through or
    right beside `p` spans every direction (width 2 pi)."""
    ax, ay = walls[:, 0] - p[0], walls[:, 1] - p[1]
    bx, by = walls[:, 2] - p[0], walls[:, 3] - p[1]
    a, b = np.arctan2(ay, ax), np.arctan2(by, bx)
    turn = np.mod(b - a + np.pi, 2 * np.pi) - np.pi  # from a to b the short way round
    start = np.where(turn >= 0, a, b)
    width = np.abs(turn)
    # Within 2 wall units of p (by the segment's distance), every direction: there the arc's float width is unsure.
    dx, dy = (bx - ax).astype(np.float64), (by - ay).astype(np.float64)
    length2 = np.maximum(dx * dx + dy * dy, 1.0)
    t = np.clip(-(ax * dx + ay * dy) / length2, 0.0, 1.0)
    near = np.hypot(ax + t * dx, ay + t * dy) < 2.0
    return start, np.where(near, 2 * np.pi, width)


def _wall_reach(walls: IntArray, p: tuple[int, int]) -> tuple[FloatArray, FloatArray]:
    """Each wall's nearest and furthest distance from point `p` (wall units, floats)."""
    ax, ay = (walls[:, 0] - p[0]).astype(np.float64), (walls[:, 1] - p[1]).astype(np.float64)
    bx, by = (walls[:, 2] - p[0]).astype(np.float64), (walls[:, 3] - p[1]).astype(np.float64)
    dx, dy = bx - ax, by - ay
    t = np.clip(-(ax * dx + ay * dy) / np.maximum(dx * dx + dy * dy, 1.0), 0.0, 1.0)
    return np.hypot(ax + t * dx, ay + t * dy), np.maximum(np.hypot(ax, ay), np.hypot(bx, by))


def _arc_pairs(angles: FloatArray, start: FloatArray, width: FloatArray) -> tuple[IntArray, IntArray]:
    """(k, j) for every line k (its direction `angles[k]`, sorted, in -pi..pi) inside the arc of wall j (with the
    margin): the walls a line can meet, by direction."""
    n = len(angles)
    whole = width >= 2 * np.pi
    lo, hi = start - MARGIN, start + width + MARGIN
    firsts, lasts, walls = [], [], []
    for shift in (-2 * np.pi, 0.0, 2 * np.pi):
        firsts.append(np.where(whole, 0 if shift == 0.0 else n, np.searchsorted(angles, lo + shift, "left")))
        lasts.append(np.where(whole, n, np.searchsorted(angles, hi + shift, "right")))
        walls.append(np.arange(len(start)))
    first, last, wall = np.concatenate(firsts), np.concatenate(lasts), np.concatenate(walls)
    counts = np.maximum(last - first, 0)
    total = int(counts.sum())
    offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    return (np.repeat(first, counts) + offsets).astype(np.int64), np.repeat(wall, counts).astype(np.int64)


def lines_seen(board: Board, square: Square, targets: IntArray) -> BoolArray:
    """For each target centre (wall units, (n, 2)): the centre-to-centre segment from `square` crosses no wall
    and no solid square's edge (`Board.blockers`), as `reach.path_clear` decides it (each end standing on its own
    square's side of a wall through its centre: `walls.STAND`).

    The lines are tried ring by ring out from the square (`RINGS`): in a ring, each line still open that reaches
    it, against the walls with a point in the ring whose directions from the square hold the line's (so every wall
    through a point of a line, and every wall meeting another there, is tried with that line in the ring of that
    point); a line blocked in one ring is not tried again. A set of walls blocks no fewer lines as walls are added,
    so a line blocked by some walls is blocked, and a line blocked by all is blocked in the ring of the point that
    blocks it: exact (`walls.candidates_cross` decides each line), and a line far behind a wall stops at the
    first ring it crosses one in."""
    n = len(targets)
    seen = np.ones(n, dtype=np.bool_)
    walls = board.blockers
    if n == 0 or len(walls) == 0:
        return seen
    half = WALL_SCALE // 2
    p = (square[0] * WALL_SCALE + half, square[1] * WALL_SCALE + half)
    start, width = _wall_arcs(walls, p)
    nearest, furthest = _wall_reach(walls, p)
    angle = np.arctan2(targets[:, 1] - p[1], targets[:, 0] - p[0])
    length = np.hypot(targets[:, 0] - p[0], targets[:, 1] - p[1])
    stand = np.broadcast_to(np.array(STAND, dtype=np.int64), (n, 2))
    origin = np.broadcast_to(np.array(p, dtype=np.int64), (n, 2))
    rings = [r * WALL_SCALE for r in RINGS]
    for lo, hi in zip(rings, [*rings[1:], np.inf], strict=True):
        ring = np.flatnonzero((nearest <= hi + 1.0) & (furthest >= lo - 1.0))
        open_ = np.flatnonzero(seen & (length >= lo - 1.0))
        if not ring.size or not open_.size:
            continue
        order = open_[np.argsort(angle[open_], kind="stable")]
        k, j = _arc_pairs(angle[order], start[ring], width[ring])
        li, wi = order[k], ring[j]
        keep = nearest[wi] <= length[li] + 1.0
        seen &= ~candidates_cross(walls, origin, targets, stand, stand, li[keep], wi[keep])
    return seen


def faces_seen(board: Board, seen: BoolArray) -> BoolArray:
    """`seen` with each solid square that shares an edge with a seen open square, no drawn wall between their
    centres (`Board.walls_only_between`)."""
    out = seen.copy()
    ys, xs = np.nonzero(board.solid)
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        for dx, dy in EDGES:
            other = (x + dx, y + dy)
            if board.is_open(other) and seen[other[1], other[0]] and not board.walls_only_between((x, y), other):
                out[y, x] = True
                break
    return out


def seen_from(board: Board, square: Square) -> BoolArray:
    """The squares seen from `square` ((height, width) booleans): the open squares in its line of sight, itself,
    and the solid squares beside them (module docstring)."""
    seen = lines_seen(board, square, _centres(board)).reshape(board.height, board.width)
    seen &= ~board.solid
    seen[square[1], square[0]] = True
    return faces_seen(board, seen) if board.solid.any() else seen


class Sight:
    """One board's sight, square by square, each worked out once and kept (the last `KEPT`, as bits); `squares`
    counts the squares whose sight was worked out, `lines` the lines tried (one to every square of the map each)."""

    def __init__(self, board: Board, kept: int = KEPT) -> None:
        self.board = board
        self.kept = kept
        self.lines = 0
        self.squares = 0
        self._bits: OrderedDict[Square, npt.NDArray[np.uint8]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, square: Square) -> BoolArray:
        """The squares seen from `square` (`seen_from`), kept."""
        size = self.board.height * self.board.width
        with self._lock:
            bits = self._bits.get(square)
            if bits is not None:
                self._bits.move_to_end(square)
        if bits is None:
            found = seen_from(self.board, square)
            bits = np.packbits(found.ravel())
            with self._lock:
                self.lines += size
                self.squares += 1
                self._bits[square] = bits
                while len(self._bits) > self.kept:
                    self._bits.popitem(last=False)
        return np.unpackbits(bits, count=size).astype(np.bool_).reshape(self.board.height, self.board.width)

    def of_all(self, squares: Iterable[Square]) -> BoolArray:
        """The squares seen from any of `squares` (those on the map)."""
        out = np.zeros((self.board.height, self.board.width), dtype=np.bool_)
        for square in squares:
            if self.board.on_map(square):
                out |= self.of(square)
        return out
