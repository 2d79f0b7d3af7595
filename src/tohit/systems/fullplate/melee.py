"""Firing Into Melee (fullplate.txt; decisions 7): which creature a shot into a melee hits.

Each creature within 5 feet of the intended target, and the target itself, takes a share of 2^(size step
from Medium): one size category larger doubles a creature's share. Shares are given as the smallest whole
numbers with those ratios, so the die is the smallest that fits: the page's knight between two orcs is a
d3 (1, 1, 1) and the knight between two ogres 2, 2, 1 (the page's d10 split 4, 4, 2 in lowest terms).
The creatures beside the target come first, in the order given, and the intended target last, as on the
page ("on a 3, he hits the intended target").
"""

from __future__ import annotations

from collections.abc import Sequence

from tohit.systems.fullplate.models import Size

#: Size category -> steps from Medium.
SIZE_STEP: dict[str, int] = {"tiny": -2, "small": -1, "medium": 0, "large": 1, "huge": 2, "gargantuan": 3}


def shares(sizes: Sequence[Size]) -> list[int]:
    """Each creature's share of the roll: 2^(size step), scaled to the smallest whole numbers."""
    steps = [SIZE_STEP[s] for s in sizes]
    low = min(steps)
    return [2 ** (s - low) for s in steps]
