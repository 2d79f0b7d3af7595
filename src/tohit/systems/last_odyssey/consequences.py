"""What a Last Odyssey hit does to a Shell and to HP, written once [Combat-Rules/Shells.md; decisions 5;
Death-and-Injury.md].

The attack's `resolve` reports it (`shell_absorbed`, `overflow`, `hp_lost`, `downed`) and the fight applies
the same function to the Shell pool and HP it tracks. Elementwise over numpy arrays or scalars.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np


class ShellHit(NamedTuple):
    """A hit's damage against a Shell pool of `points` (0: no Shell), itemised."""

    #: Points the Shell takes: all the damage, up to its points.
    absorbed: Any
    #: The hit breaks the Shell: damage of at least its points.
    broken: Any
    #: Damage past a broken Shell (0 where it did not break).
    overflow: Any


def shell_hit(damage: Any, points: Any) -> ShellHit:
    """A Shell absorbs damage up to its points; damage of at least its points breaks it, and what is left over
    overflows [Shells.md; decisions 5]. With no Shell (0 points) nothing is absorbed or broken."""
    damage = np.asarray(damage)
    if isinstance(points, int) and points > 0:  # one Shell for every row (an attack's resolve): fewer steps
        return ShellHit(np.minimum(damage, points), damage >= points, np.maximum(damage - points, 0))
    points = np.asarray(points)
    shelled = points > 0
    absorbed = np.where(shelled, np.minimum(damage, points), 0)
    broken = shelled & (damage >= points) & (damage > 0)
    overflow = np.where(broken, damage - points, 0)
    return ShellHit(absorbed, broken, overflow)


def hp_lost(damage: Any, points: Any, hp: Any) -> Any:
    """HP a hit takes: without a Shell, the damage up to the HP left; through a Shell, none unless the Shell
    breaks and its overflow is at least the HP, which downs the character [Shells.md; decisions 5]."""
    if isinstance(points, int) and isinstance(hp, int):  # one Shell and one HP for every row: fewer steps
        return (damage >= points + hp) * hp if points > 0 else np.minimum(damage, hp)
    damage = np.asarray(damage)
    points, hp = np.asarray(points), np.asarray(hp)
    hit = shell_hit(damage, points)
    return np.where(points > 0, np.where(hit.broken & (hit.overflow >= hp), hp, 0), np.minimum(damage, hp))
