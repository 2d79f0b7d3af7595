"""Toy d20 fight narration: the sentences a player reads, from an event's data."""

from __future__ import annotations


def damage(name: str, damage: int, before: int, after: int) -> str:
    """Hit points lost; at 0 the combatant is down."""
    return f"{name} loses {damage} HP ({before} -> {after})" + (": down" if after <= 0 else "") + "  [toy: Damage]"
