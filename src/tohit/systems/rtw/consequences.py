"""What an attack's outcome does, written once: Health, Peril, Falling in Battle, Weapon Durability (rtw page).

Pure functions over scalars or numpy arrays: the attack's `resolve` reports them (`health_after`, `peril`,
`falls`) and the fight applies the same functions to the Health and Durability it tracks. Nothing here
changes a combatant: it says what the new value is.
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


def health_after(health: Any, damage: Any) -> Any:
    """Health after losing `damage`, never below 0 (elementwise)."""
    return np.maximum(0, np.asarray(health) - np.asarray(damage))


def fall_outcome(*, hero: bool, mindless: bool, choice: str) -> int:
    """What a creature reduced to 0 Health becomes: Heroes always fall Helpless; a source that cannot have
    whims (a mindless trap) leaves it Helpless; otherwise the attacker's choice (perish or helpless)."""
    if hero or mindless or choice == "helpless":
        return HELPLESS
    return PERISHES


def durability_after_encounter(durability: Any, used_successfully: Any) -> tuple[Any, Any]:
    """At the end of an encounter a weapon used successfully in it takes 1 Durability damage (elementwise).

    Returns (Durability left, shattered). At 0 it shatters: unusable, unrecoverable. Weapons are not repaired,
    so nothing here ever raises Durability.
    """
    left = np.maximum(0, np.asarray(durability) - np.asarray(used_successfully, dtype=np.int64))
    return left, left == 0


def durability_after_stress(durability: Any, uses: Any = 1) -> tuple[Any, Any]:
    """Each time a weapon is struck against anything out of combat, or otherwise stressed (a Burning weapon
    that lands a blow, status_effects.md): 1 Durability damage (elementwise)."""
    if np.any(np.asarray(uses) < 0):
        raise ValueError("uses must be at least 0")
    left = np.maximum(0, np.asarray(durability) - np.asarray(uses))
    return left, left == 0
