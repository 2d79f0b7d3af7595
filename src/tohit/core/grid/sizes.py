"""Creature sizes: categories, their footprints, and sizes in feet.

Medium and larger creatures fill a square block of squares (Large 2x2, Huge 3x3, Gigantic 4x4, Colossal
6x6 or larger when given). Diminutive, Tiny and Small creatures take a fraction of one square (1/8, 1/4,
1/2): eight, four or two of them share a square. Occupancy is kept in eighths of a square.
"""

from __future__ import annotations

from typing import Literal

SizeCategory = Literal["diminutive", "tiny", "small", "medium", "large", "huge", "gigantic", "colossal"]

SIZES: tuple[SizeCategory, ...] = ("diminutive", "tiny", "small", "medium", "large", "huge", "gigantic", "colossal")
#: Side of the footprint in squares (sub-square sizes stand in one square).
FOOTPRINT_SIDE: dict[SizeCategory, int] = {
    "diminutive": 1,
    "tiny": 1,
    "small": 1,
    "medium": 1,
    "large": 2,
    "huge": 3,
    "gigantic": 4,
    "colossal": 6,
}
#: Share of each footprint square the creature takes, in eighths (the table's 1/8, 1/4, 1/2, 1).
EIGHTHS: dict[SizeCategory, int] = {
    "diminutive": 1,
    "tiny": 2,
    "small": 4,
    "medium": 8,
    "large": 8,
    "huge": 8,
    "gigantic": 8,
    "colossal": 8,
}
FULL_SQUARE = 8
#: Lower bound in feet of each category, from the table ("Less than 1'", "1' - 2'", ... "64' and up").
#: A height on a boundary belongs to the larger category (8' is Large).
FEET_FROM: tuple[tuple[float, SizeCategory], ...] = (
    (64, "colossal"),
    (32, "gigantic"),
    (16, "huge"),
    (8, "large"),
    (4, "medium"),
    (2, "small"),
    (1, "tiny"),
    (0, "diminutive"),
)
MIN_COLOSSAL_SIDE = 6


def category_from_feet(feet: float) -> SizeCategory:
    """The size category of a creature `feet` tall (the table's first column)."""
    if feet <= 0:
        raise ValueError(f"a size in feet must be above 0, got {feet}")
    for low, category in FEET_FROM:
        if feet >= low:
            return category
    return "diminutive"  # pragma: no cover - unreachable, 0 is the last bound
