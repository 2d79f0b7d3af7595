"""Whether a range model already carries its placement (direction, square, target...)."""

from __future__ import annotations

from tohit.core.grid.models import (
    AnyRange,
    BlastRange,
    ConeRange,
    LineRange,
    SquaresWithinRange,
    SweepRange,
    WeaponRange,
)


def is_placed(rng: AnyRange) -> bool:
    """False when the range still needs a choice that has no default (a direction, a square, squares)."""
    if isinstance(rng, WeaponRange):
        return is_placed(rng.chosen().range)
    if isinstance(rng, BlastRange):
        return rng.at is not None
    if isinstance(rng, ConeRange | LineRange):
        return rng.direction is not None
    if isinstance(rng, SweepRange | SquaresWithinRange):
        return rng.squares is not None
    return True
