"""Objects: Toughness by material (the game's other pages, docs/wsswnn.md#silent-objects).

The page's table of Toughness and Structure was lost; only the balloon survives (cloth and wicker,
Toughness 1, Structure 16). tohit's table: cloth 0, wicker or wood 2, bronze 4, stone 6; an object of
several materials uses their average Toughness, rounded down (cloth 0 + wicker 2 -> 1: the balloon).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

Material = Literal["cloth", "wicker", "wood", "bronze", "stone"]

#: Toughness of each material (docs/wsswnn.md#silent-objects).
TOUGHNESS: dict[str, int] = {"cloth": 0, "wicker": 2, "wood": 2, "bronze": 4, "stone": 6}


def average_toughness(materials: Sequence[str]) -> int:
    """The average Toughness of `materials`, rounded down [Attacking Objects; docs/wsswnn.md#silent-objects]."""
    values = [TOUGHNESS[m] for m in materials]
    return sum(values) // len(values)
