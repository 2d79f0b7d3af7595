"""What a Toy d20 hit does, written once: hit points lost, never below 0 [toy: Damage]."""

from __future__ import annotations

from typing import Any

import numpy as np


def hp_after(hp: Any, damage: Any) -> Any:
    """Hit points after `damage` (elementwise), never below 0; at 0 the combatant is down."""
    return np.maximum(0, np.asarray(hp) - np.asarray(damage))
