"""What a WSSWNN hit does, written once: lethal damage comes off life, guard damage off guard, awareness damage
off awareness, none of them below 0 [tracking-your-stats]. The attack's `resolve` reports the values after
(`life_after`, `guard_after`) and the fight applies the same function to the stats it tracks."""

from __future__ import annotations

from typing import Any

import numpy as np


def worn(value: Any, damage: Any) -> Any:
    """A stat after `damage` (elementwise): never below 0, and a negative damage takes nothing."""
    return np.maximum(0, np.asarray(value) - np.maximum(0, np.asarray(damage)))
