"""What a Kaiser hit does beyond its damage, written once: the Critical [damage/critical.md].

The attack's `resolve` reports a Critical and its level; the fight rolls the level and the Physical
Resistance check against it with the same functions. Elementwise over numpy arrays or scalars.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def is_critical(damage: Any, lp: Any) -> Any:
    """A single hit costing half or more of the current LP causes a Critical [damage/critical.md] (damage > 0).

    Elementwise over arrays (the fight feeds each fight's current LP)."""
    return (damage > 0) & (2 * damage >= lp)


def critical_level(dice_total: Any, damage: Any) -> Any:
    """Critical level = 2d6 (no open roll or fumble) + floor(damage / 10); any amount above 20 is halved
    (26 -> 23, 31 -> 25) [damage/critical.md]. Elementwise."""
    level = dice_total + damage // 10
    return np.where(level > 20, 20 + (level - 20) // 2, level)
