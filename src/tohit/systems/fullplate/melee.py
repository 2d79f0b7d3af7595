"""Firing Into Melee (Attacking; docs/fullplate.md#silent-firing-into-melee): which creature a
shot into a melee strikes, picked before the roll is judged.

Each creature within 5 feet of the intended target, and the target itself, takes a share of 2^(size step
from Medium): Medium 2, Large 4, Small 1 ("larger characters take more of the 'space' in the roll"). The
die is the page's: equal shares reduce, so three Medium creatures roll a d3 ("the goblin rolls 1d3 - on a 3,
he hits the intended target"); unequal ones do not, so two Large ogres and a Medium knight roll a d10,
1-4 the first ogre, 5-8 the other, 9-10 the knight (the page's "8-9" read as 9-10). Shares smaller than
Small's (a Tiny creature: 1/2) are scaled up to whole numbers. The creatures beside the target come first,
in the order given, and the intended target last, as on the page.
"""

from __future__ import annotations

from collections.abc import Sequence

from tohit.systems.fullplate.models import Size

#: Size category -> steps from Medium.
SIZE_STEP: dict[str, int] = {"tiny": -2, "small": -1, "medium": 0, "large": 1, "huge": 2, "gargantuan": 3}


def shares(sizes: Sequence[Size]) -> list[int]:
    """Each creature's share of the pick die: 1 each when all are one size, else 2^(size step + 1) (Medium 2),
    doubled as often as a Tiny creature needs to keep every share whole."""
    steps = [SIZE_STEP[s] for s in sizes]
    if len(set(steps)) == 1:
        return [1] * len(steps)
    low = min(-1, min(steps))
    return [2 ** (s - low) for s in steps]


def faces(weights: Sequence[int]) -> list[str]:
    """The faces of the pick die each creature takes, in words: "1-4", "5-8", "9-10", "3"."""
    out: list[str] = []
    first = 1
    for w in weights:
        last = first + w - 1
        out.append(str(first) if w == 1 else f"{first}-{last}")
        first = last + 1
    return out
