"""What a Toy d20 hit does, written once: hit points lost, never below 0 [toy: Damage]. `apply` is the one pure
transition from the hits to what they change, itemised."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tohit.core.fight.consequence import ATTACKER, DEFENDER, Item, item
from tohit.core.fight.state import IntArray


def hp_after(hp: Any, damage: Any) -> Any:
    """Hit points after `damage` (elementwise), never below 0; at 0 the combatant is down."""
    return np.maximum(0, np.asarray(hp) - np.asarray(damage))


class Before(NamedTuple):
    """The stats a hit may change, one row per hit, before it: the target's HP, the attacker's damage dealt."""

    hp: IntArray
    dealt: IntArray


class Outcome(NamedTuple):
    """The resolved columns the fight applies, one row per hit (a hit or a critical)."""

    damage: IntArray


def apply(before: Before, outcome: Outcome) -> tuple[Item, ...]:
    """What each hit does: the target loses the damage in HP, never below 0, and the attacker's dealt grows by
    what it lost [toy: Damage]. Items of the event "damage"."""
    after = hp_after(before.hp, outcome.damage)
    hurt = np.flatnonzero(after < before.hp)
    if hurt.size == 0:
        return ()
    return (
        item("damage", "hp", hurt, after[hurt], DEFENDER, "toy: Damage"),
        item("damage", "dealt", hurt, before.dealt[hurt] + (before.hp - after)[hurt], ATTACKER, "toy: Damage"),
    )
