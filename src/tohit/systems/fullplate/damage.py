"""Damage arithmetic over arrays, exact in integers (the FullPlate wiki "Damage"; docs/fullplate.md#silent-natural-20).

- Resistance / Vulnerability: a percentage, rounded down (Vulnerability 25%: 6 -> 7.5 -> 7).
- Natural-20 halvings: damage / 2^k, kept exact: the whole part when it is 1 or more; from 0.5 up to 1
  it becomes 1; below 0.5 it becomes 0 and the attack misses.
- Special Defence: full, half (rounded down), the attack's minimum damage, or none.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]
#: Halvings beyond this leave any damage the dice can roll below 0.5 (and keep 2^k inside int64).
MAX_HALVINGS = 40


def halvings(shortfall: Array) -> Array:
    """How many times a natural 20 short by `shortfall` halves its damage: ceil((s - 10) / 5) past 10."""
    return np.where(shortfall > 10, (shortfall - 10 + 4) // 5, 0).astype(np.int64)


def halve(damage: Array, times: Array) -> tuple[Array, Mask]:
    """(damage after `times` halvings, whether the halving made the attack miss), exactly.

    D / 2^k: floor when at least 1; 1 when 0.5 <= D / 2^k < 1 (2D >= 2^k); 0 and a miss below 0.5.
    A damage already 0 (Special Defence, full Resistance) stays 0 and is not a miss.
    """
    k = np.minimum(times, MAX_HALVINGS).astype(np.int64)
    whole = np.right_shift(damage, k)
    den = np.left_shift(np.int64(1), k)
    rounds_up = (whole == 0) & (2 * damage >= den) & (damage > 0)
    out = np.where(rounds_up, 1, whole).astype(np.int64)
    missed = (k > 0) & (damage > 0) & (2 * damage < den)
    return out, missed


def percent(damage: Array, resistance_pct: int, vulnerability_pct: int) -> Array:
    """Damage scaled by (100 - Resistance% + Vulnerability%), rounded down, never below 0."""
    scale = max(0, 100 - resistance_pct + vulnerability_pct)
    if scale == 100:
        return damage
    return (damage * scale) // 100


def special_defence(damage: Array, effect: str, minimum: Array) -> Array:
    """Damage through Special Defence: full, half (rounded down), `minimum` or none."""
    if effect == "full":
        return damage
    if effect == "half":
        return damage // 2
    if effect == "minimum":
        return minimum
    return np.zeros_like(damage)
