"""FullPlate's game-master words (docs/players.md, "Events are data, told to each audience"): each a function of
an event's data, registered as the fight's `gm_phrases` (core/fight/words.py `gm_told`).

The fight rules (`fight.py`) decide what happens and emit events with data (their changes and details); these
functions only word them (called when a fight is narrated, never in a simulation or the exact chain).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.words import GmPhrase, change_of

PAGE = "fullplate: Attacking"


def damage(event: Mapping[str, Any]) -> str:
    """A hit's hit points lost (`damage`; the HP change from and to); at 0 HP the combatant is down, out of the
    fight."""
    hp = change_of(event, "hp") or {}
    down = ": down, out of the fight" if hp["to"] <= 0 else ""
    return f"{event['combatant']} loses {event['damage']} HP ({hp['from']} -> {hp['to']})" + down


def stray(event: Mapping[str, Any]) -> str:
    """Firing into melee: the creature hit is not a combatant of this fight
    (docs/fullplate.md#silent-firing-into-melee)."""
    return "the shot hits a creature that is not in this fight"


def ammunition_hit(event: Mapping[str, Any]) -> str:
    """Magical ammunition that hits is counted, to be recovered after the fight [Enhancement]."""
    return (
        f"{event['attacker']}'s {event['attack']} hit with magical ammunition: one more piece to recover after the"
        f" fight  [{PAGE}, Enhancement]"
    )


def recovered(event: Mapping[str, Any]) -> str:
    """Magical ammunition that hit (`hits`), recovered after the fight with its Enhancement lowered (`enhancement`
    -> `enhancement_after`) [Enhancement]."""
    return (
        f"{event['combatant']} recovers {event['hits']} piece(s) of ammunition from {event['attack']} that hit:"
        f" Enhancement {event['enhancement']:+d} -> {event['enhancement_after']:+d}  [{PAGE}, Enhancement]"
    )


#: FullPlate's game-master words, by kind (`FightRules.gm_phrases`).
PHRASES: Mapping[str, GmPhrase] = {
    "damage": damage,
    "stray": stray,
    "ammunition": ammunition_hit,
    "recovered": recovered,
}
