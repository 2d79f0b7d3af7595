"""Footprints: the squares a creature fills, and the 1-2-1 distance between two footprints.

A footprint is a square block `side` x `side` whose top-left square is `(x, y)`. Distances between
creatures are measured between the nearest squares of their footprints.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tohit.core.grid.sizes import FULL_SQUARE
from tohit.core.grid.squares import Square, count_121


@dataclass(frozen=True)
class Footprint:
    """`side` x `side` squares from top-left `(x, y)`; `eighths` of each square are taken (8 = all)."""

    x: int
    y: int
    side: int = 1
    eighths: int = FULL_SQUARE

    @property
    def x1(self) -> int:
        """The last column (inclusive)."""
        return self.x + self.side - 1

    @property
    def y1(self) -> int:
        """The last row (inclusive)."""
        return self.y + self.side - 1

    @property
    def origin(self) -> Square:
        return (self.x, self.y)

    def squares(self) -> Iterator[Square]:
        for y in range(self.y, self.y + self.side):
            for x in range(self.x, self.x + self.side):
                yield (x, y)

    def contains(self, square: Square) -> bool:
        return self.x <= square[0] <= self.x1 and self.y <= square[1] <= self.y1

    def gap(self, other: Footprint) -> tuple[int, int]:
        """Column and row offsets between the nearest squares of two footprints (0 where they overlap)."""
        gx = max(0, other.x - self.x1, self.x - other.x1)
        gy = max(0, other.y - self.y1, self.y - other.y1)
        return gx, gy

    def distance(self, other: Footprint) -> int:
        """1-2-1 squares between the nearest squares of the two footprints (1 when adjacent, 0 if shared)."""
        return count_121(*self.gap(other))

    def distance_to(self, square: Square) -> int:
        """1-2-1 squares from the nearest square of this footprint to `square`."""
        return self.distance(Footprint(square[0], square[1]))

    def nearest_squares(self, other: Footprint) -> list[Square]:
        """The squares of this footprint nearest (1-2-1) to `other`: the ones cover and projectiles use."""
        dist = {sq: other.distance_to(sq) for sq in self.squares()}
        best = min(dist.values())
        return [sq for sq, d in dist.items() if d == best]


def adjacent(a: Footprint, b: Footprint) -> bool:
    """Cardinally or diagonally adjacent: the nearest squares touch by a side or a corner."""
    return a.distance(b) == 1


def within(a: Footprint, b: Footprint, squares: int) -> bool:
    """`b` is within `squares` (1-2-1) of `a`."""
    return a.distance(b) <= squares
