"""How a Last Odyssey fight keeps statuses and the Bonus Tracker as state (fight.py's rules): the statuses as
a bitmask [Statuses], the tracker's steps packed one base-7 digit per stat [Buffs and Debuffs].
"""

from __future__ import annotations

from typing import Any

from tohit.systems.last_odyssey.consequences import (
    BIT,
    DIGIT_OF_STEP,
    STATUSES,
    STEP_OF_DIGIT,
    TRACKED,
)


def status_names(mask: int) -> list[str]:
    """The statuses of a bitmask, in STATUSES order."""
    return [name for name in STATUSES if mask & BIT[name]]


def status_mask(names: Any) -> int:
    out = 0
    for name in names:
        out |= BIT[name]
    return out


def tracker_of(packed: int) -> dict[str, int]:
    """The Bonus Tracker values (non-zero ones) of a packed `buffs` value."""
    out = {}
    for i, stat in enumerate(TRACKED):
        step = STEP_OF_DIGIT[(packed // 7**i) % 7]
        if step:
            out[stat] = step
    return out


def packed_tracker(buffs: dict[str, int]) -> int:
    return sum(DIGIT_OF_STEP[int(step)] * 7**i for i, stat in enumerate(TRACKED) if (step := buffs.get(stat, 0)))
