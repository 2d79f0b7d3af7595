"""The map: which squares exist, which are solid, and the walls on edges between them.

A map is given as text rows (`.` open, `#` solid, `~` Difficult Terrain) or as a width, a height and lists of
solid and difficult squares. `solid[y, x]` is a boolean array, so the vectorised kernels index it directly;
`difficult[y, x]` marks open squares that cost more Movement to enter. `walls` are thin solid objects drawn
as segments (`walls.py`: an (m, 4) integer array in 1 / WALL_SCALE of a square, closed doors included);
`step_blocked` says whether a step between two squares crosses one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from tohit.core.errors import short_repr
from tohit.core.grid.squares import Square
from tohit.core.grid.walls import (
    NO_WALLS,
    STAND,
    centre,
    line_crosses,
    outline_edges,
    solid_outline,
    steps_blocked,
    wall_array,
)

#: The eight steps between neighbouring squares, cardinal ones first (the order `movement` tries them in).
STEPS: tuple[Square, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1))

OPEN_CHARS = frozenset(".")
SOLID_CHARS = frozenset("#")
DIFFICULT_CHARS = frozenset("~")
MAX_SIDE = 1000


@dataclass(frozen=True, eq=False)
class Board:
    """A rectangular map of `width` x `height` squares; `solid[y, x]` is True for a solid square."""

    width: int
    height: int
    solid: npt.NDArray[np.bool_]
    #: Difficult Terrain: open squares that cost more Movement to enter (None: none).
    difficult: npt.NDArray[np.bool_] | None = None
    #: Walls on edges (and closed doors): (m, 4) segments x0, y0, x1, y1 in 1 / WALL_SCALE of a square.
    walls: npt.NDArray[np.int64] = field(default_factory=lambda: NO_WALLS)

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Board:
        """Parse text rows: `.` open, `#` solid, `~` Difficult Terrain (open); every row the same length
        (ValueError otherwise)."""
        if not rows:
            raise ValueError("a map needs at least one row")
        width = len(rows[0])
        for i, row in enumerate(rows):
            if len(row) != width:
                raise ValueError(f"row {i} has {len(row)} squares, row 0 has {width}: every row must be as long")
            bad = set(row) - OPEN_CHARS - SOLID_CHARS - DIFFICULT_CHARS
            if bad:
                raise ValueError(
                    f"row {i} has {short_repr(''.join(sorted(bad)))}: use '.' for open and '#' for solid squares,"
                    " '~' for Difficult Terrain"
                )
        if width == 0:
            raise ValueError("a map row must hold at least one square")
        solid = np.array([[c in SOLID_CHARS for c in row] for row in rows], dtype=np.bool_)
        difficult = np.array([[c in DIFFICULT_CHARS for c in row] for row in rows], dtype=np.bool_)
        return cls(width, len(rows), solid, difficult if difficult.any() else None)

    @classmethod
    def from_solid(
        cls, width: int, height: int, solid: Iterable[Square] = (), difficult: Iterable[Square] = ()
    ) -> Board:
        """A `width` x `height` map with the listed solid squares (and Difficult Terrain squares)."""
        grid = np.zeros((height, width), dtype=np.bool_)
        for x, y in solid:
            if not (0 <= x < width and 0 <= y < height):
                raise ValueError(f"solid square {[x, y]} is off the {width} x {height} map")
            grid[y, x] = True
        rough = np.zeros((height, width), dtype=np.bool_)
        for x, y in difficult:
            if not (0 <= x < width and 0 <= y < height):
                raise ValueError(f"difficult square {[x, y]} is off the {width} x {height} map")
            rough[y, x] = True
        return cls(width, height, grid, rough if rough.any() else None)

    def on_map(self, square: Square) -> bool:
        x, y = square
        return 0 <= x < self.width and 0 <= y < self.height

    def is_solid(self, square: Square) -> bool:
        """A square on the map holding a solid object."""
        return self.on_map(square) and bool(self.solid[square[1], square[0]])

    def is_open(self, square: Square) -> bool:
        """A square on the map that a creature or an attack can be in."""
        return self.on_map(square) and not bool(self.solid[square[1], square[0]])

    def is_difficult(self, square: Square) -> bool:
        """An open square of Difficult Terrain."""
        return self.difficult is not None and self.is_open(square) and bool(self.difficult[square[1], square[0]])

    @property
    def has_walls(self) -> bool:
        return len(self.walls) > 0

    @cached_property
    def blockers(self) -> npt.NDArray[np.int64]:
        """What a line or a step may not cross, as walls: the walls, and the outline of the solid squares (each
        edge between a solid square and an open or off-map one). A solid square and the same square drawn as
        walls are then one solid object, with the same answers: a line between two solid squares that touch only
        at a corner passes through that corner from one side of the object to the other (docs/maps.md)."""
        if not self.solid.any():
            return self.walls
        return np.ascontiguousarray(np.concatenate([self.walls, wall_array(solid_outline(self.solid))]))

    @cached_property
    def outline(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The solid squares' outline as walls, and the outline edges ending at each square corner
        (`walls.outline_edges`)."""
        return outline_edges(self.solid)

    @property
    def has_blockers(self) -> bool:
        """There are walls or solid squares."""
        return len(self.blockers) > 0

    @cached_property
    def _blocked_steps(self) -> npt.NDArray[np.bool_]:
        return steps_blocked(self.blockers, self.width, self.height, STEPS)

    def step_blocked(self, square: Square, step: Square) -> bool:
        """A wall or a solid object stands between `square` and its neighbour `step` away (one of `STEPS`): on
        their shared edge, or across the diagonal through their shared corner (two solid squares touching there,
        one on each side of the step)."""
        if not self.has_blockers or not self.on_map(square):
            return False
        return bool(self._blocked_steps[square[1], square[0], STEPS.index(step)])

    def walled(self, a: Square, b: Square) -> bool:
        """A wall, or the outline of a solid object, crosses the segment from the centre of square `a` to the
        centre of square `b` (a Projectile's path, a Melee reach between neighbours, a step)."""
        return self.has_blockers and line_crosses(self.blockers, centre(a), centre(b), STAND, STAND)

    def walls_only_between(self, a: Square, b: Square) -> bool:
        """A drawn wall (not a solid square) crosses the segment between the centres of `a` and `b` (what stops
        a Burst, Cone or Sweep: a solid square leaves its own square out of them, a creature behind it is behind
        cover instead)."""
        return self.has_walls and line_crosses(self.walls, centre(a), centre(b), STAND, STAND)

    def with_walls(self, walls: npt.NDArray[np.int64]) -> Board:
        """The same squares with these walls."""
        return Board(self.width, self.height, self.solid, self.difficult, walls)

    def rows(self) -> list[str]:
        rough = self.difficult if self.difficult is not None else np.zeros_like(self.solid)
        return [
            "".join("#" if s else ("~" if d else ".") for s, d in zip(row, drow, strict=True))
            for row, drow in zip(self.solid, rough, strict=True)
        ]

    def solid_squares(self) -> list[Square]:
        ys, xs = np.nonzero(self.solid)
        return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]
