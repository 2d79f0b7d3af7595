"""What a FullPlate hit does in a fight, written once: the creature struck loses the damage in hit points, never
below 0 here (a fight's choice: at 0 HP it is down, out of the fight; the attack's own `hp_left` reports the
plain difference, for a DM who plays negative hit points)."""

from __future__ import annotations

from typing import Any

import numpy as np


def hp_after(hp: Any, damage: Any) -> Any:
    """Hit points after `damage` (elementwise), never below 0."""
    return np.maximum(0, np.asarray(hp) - np.asarray(damage))
