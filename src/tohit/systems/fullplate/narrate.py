"""FullPlate fight narration: the sentences a player reads, made from an event's data.

The fight rules (`fight.py`) decide what happens and emit events with data; these functions only word them
(called when a fight is narrated, never in a simulation or the exact chain).
"""

from __future__ import annotations

PAGE = "fullplate: Attacking"


def damage(name: str, damage: int, before: int, after: int) -> str:
    """A hit's hit points lost; at 0 HP the combatant is down, out of the fight."""
    return f"{name} loses {damage} HP ({before} -> {after})" + (": down, out of the fight" if after <= 0 else "")


def stray() -> str:
    """Firing into melee: the creature hit is not a combatant of this fight
    (docs/fullplate.md#silent-firing-into-melee)."""
    return "the shot hits a creature that is not in this fight"


def ammunition_hit(who: str, attack: str) -> str:
    """Magical ammunition that hits is counted, to be recovered after the fight [Enhancement]."""
    return (
        f"{who}'s {attack} hit with magical ammunition: one more piece to recover after the fight"
        f"  [{PAGE}, Enhancement]"
    )


def recovered(who: str, attack: str, hits: int, enhancement: int, enhancement_after: int) -> str:
    """Magical ammunition that hit, recovered after the fight with its Enhancement lowered [Enhancement]."""
    return (
        f"{who} recovers {hits} piece(s) of ammunition from {attack} that hit:"
        f" Enhancement {enhancement:+d} -> {enhancement_after:+d}  [{PAGE}, Enhancement]"
    )
