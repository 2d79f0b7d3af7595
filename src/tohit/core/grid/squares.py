"""Squares, directions and the 1-2-1 count of diagonals.

A square is `(x, y)`: x counts columns from the left, y rows from the top, both from 0. Square `(x, y)`
is the unit area `[x, x + 1] x [y, y + 1]`; its corners are the integer points around it.
"""

from __future__ import annotations

from typing import Literal

from tohit.core.errors import short_repr

Square = tuple[int, int]
Point = tuple[int, int]

DirectionName = Literal["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]

#: The 8 directions, clockwise from north, as unit steps (y grows to the south).
DIRECTIONS: dict[DirectionName, Square] = {
    "north": (0, -1),
    "northeast": (1, -1),
    "east": (1, 0),
    "southeast": (1, 1),
    "south": (0, 1),
    "southwest": (-1, 1),
    "west": (-1, 0),
    "northwest": (-1, -1),
}
#: Short spellings accepted in scenario files.
DIRECTION_ALIASES: dict[str, DirectionName] = {
    "n": "north",
    "ne": "northeast",
    "e": "east",
    "se": "southeast",
    "s": "south",
    "sw": "southwest",
    "w": "west",
    "nw": "northwest",
    "north_east": "northeast",
    "south_east": "southeast",
    "south_west": "southwest",
    "north_west": "northwest",
}


def direction_name(text: str) -> DirectionName:
    """The canonical name of a direction written in full ("east") or short ("e"); ValueError otherwise."""
    key = text.strip().lower().replace("-", "_").replace(" ", "_")
    if key in DIRECTIONS:
        return key
    if key in DIRECTION_ALIASES:
        return DIRECTION_ALIASES[key]
    raise ValueError(
        f"unknown direction {short_repr(text)}; expected one of {', '.join(DIRECTIONS)} (or n, ne, e, ...)"
    )


def is_diagonal(direction: Square) -> bool:
    """A direction that moves along both axes."""
    return direction[0] != 0 and direction[1] != 0


def count_121(dx: int, dy: int) -> int:
    """Squares counted from one square to another, every second diagonal counting as two ("1-2-1").

    n diagonal steps cost n + n // 2 and the straight steps left cost one each, so the count is
    max(|dx|, |dy|) + min(|dx|, |dy|) // 2.
    """
    ax, ay = abs(dx), abs(dy)
    return max(ax, ay) + min(ax, ay) // 2


def diagonal_steps_within(budget: int) -> int:
    """How many diagonal steps fit in a 1-2-1 count of `budget` (Line 4 diagonal: 3, as 1 + 2 + 1 = 4)."""
    steps = 0
    while (steps + 1) + (steps + 1) // 2 <= budget:
        steps += 1
    return steps


def step(square: Square, direction: Square, k: int = 1) -> Square:
    return (square[0] + k * direction[0], square[1] + k * direction[1])


def corners(square: Square) -> tuple[Point, Point, Point, Point]:
    """The four corners of a square: top-left, top-right, bottom-left, bottom-right."""
    x, y = square
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))
