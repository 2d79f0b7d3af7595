"""What the players are told of FullPlate's own events (core/fight/audience.py; docs/players.md): each event's
game-master words where it is about nobody kept from them, else what a person at the table sees, from the
event's data, never a kept combatant's hit points, damage or ammunition's Enhancement."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.audience import Audience, Phrase
from tohit.core.fight.words import change_of

#: What the players notice of an attack by a combatant hidden from them entirely (`FightRules.unseen_attack`):
#: the page's Unaware, Surprised or Ambushed target.
UNSEEN_ATTACK = "an unseen foe {verb} {target}"


def damage(event: Mapping[str, Any], audience: Audience) -> str:
    """A hit's HP lost, for the players: of a kept combatant, only that it loses HP and its health word ("Orc
    chief loses HP: bloodied"; at 0, "down, out of the fight"), never the damage nor its hit points."""
    hp = change_of(event, "hp")
    if hp is None or not audience.unseen(hp.get("who")):
        return str(event.get("text") or "")
    who, after = str(hp["who"]), int(hp["to"])
    return f"{who} loses HP: " + ("down, out of the fight" if after <= 0 else audience.word(who, after))


def recovered(event: Mapping[str, Any], audience: Audience) -> str:
    """Magical ammunition recovered after the fight, for the players: of a kept combatant, that it recovers its
    ammunition, never how many pieces nor their Enhancement."""
    if not audience.touches(event):
        return str(event.get("text") or "")
    who = event.get("combatant", event.get("who"))
    return f"{who} recovers its magical ammunition from {event.get('attack')}"


PHRASES: Mapping[str, Phrase] = {"damage": damage, "recovered": recovered}
#: FullPlate's events whose words hold no number: told to the players as written (a hit with magical
#: ammunition, a shot into melee that strikes a creature not in the fight).
SAME = frozenset({"ammunition", "stray"})
