"""State an attack reports and a fight applies: Weapon Durability, Peril, Falling in Battle (rtw page).

Pure functions over scalars or numpy arrays, so `resolve` uses them on a batch and a fight uses them on one
combatant. Nothing here changes a combatant: it says what the new value is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.systems.rtw.tables import HEALTH_PER_HEART

CLAUSE_DURABILITY = "rtw: Weapon Durability"
CLAUSE_PERIL = "rtw: Peril (decisions 8)"
CLAUSE_FALLING = "rtw: Falling in Battle"

#: `falls` labels: what becomes of a creature at 0 Health (or Helpless and struck by an attack at it alone).
FALLS_LABELS = ("helpless", "perishes")
HELPLESS, PERISHES = 0, 1


def max_health(hearts: int, given: int | None = None) -> int:
    """Max Health is 4 x Hearts unless given (character_traits.md; decisions 8)."""
    return given if given is not None else HEALTH_PER_HEART * hearts


def in_peril(health: Any, hearts: int) -> Any:
    """In Peril when Health <= Hearts (under 25% of 4 x Hearts)."""
    return np.asarray(health) <= hearts


def health_after(health: int, damage: Any) -> Any:
    """Health after losing `damage`, never below 0."""
    return np.maximum(0, health - np.asarray(damage))


def fall_outcome(*, hero: bool, mindless: bool, choice: str) -> int:
    """What a creature reduced to 0 Health becomes: Heroes always fall Helpless; a source that cannot have
    whims (a mindless trap) leaves it Helpless; otherwise the attacker's choice (perish or helpless)."""
    if hero or mindless or choice == "helpless":
        return HELPLESS
    return PERISHES


def durability_after_encounter(durability: int, used_successfully: bool) -> tuple[int, bool]:
    """At the end of an encounter a weapon used successfully in it takes 1 Durability damage.

    Returns (Durability left, shattered). At 0 it shatters: unusable, unrecoverable. Weapons are not repaired,
    so nothing here ever raises Durability.
    """
    left = max(0, durability - (1 if used_successfully else 0))
    return left, left == 0


def durability_after_stress(durability: int, uses: int = 1) -> tuple[int, bool]:
    """Each time a weapon is struck against anything out of combat, or otherwise stressed: 1 Durability damage."""
    if uses < 0:
        raise ValueError("uses must be at least 0")
    left = max(0, durability - uses)
    return left, left == 0
