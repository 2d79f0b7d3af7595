"""What the players are told of WSSWNN's own events (core/fight/audience.py; docs/players.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.audience import Audience, Phrase
from tohit.systems.wsswnn import narrate


def initiative_roll(event: Mapping[str, Any], audience: Audience) -> str:
    """A Maneuver roll for the players: the roll of a combatant whose numbers they do not read is not said, nor the
    foes' highest Awareness when one of those foes is such a combatant (it is that foe's Awareness); the players'
    own highest Awareness, against a hidden roller, they know: not said either."""
    name = str(event.get("combatant"))
    side = audience.sides.get(name)
    foes = [n for n, s in audience.sides.items() if s != side]
    told = not audience.unseen(name)
    awareness = event.get("awareness") if told and not any(audience.unseen(f) for f in foes) else None
    return narrate.maneuver(name, event.get("roll"), bool(event.get("beats")), awareness, told)


def initiative(event: Mapping[str, Any], audience: Audience) -> str:
    """The turn order for the players: the game's words, or, where one in it is hidden entirely from them, the
    order of the others (read from each one's place in it: its `turn` change)."""
    text = str(event.get("text") or "")
    places = {ch["who"]: ch.get("to", 0) for ch in event.get("changes", []) if ch.get("stat") == "turn"}
    if not any(audience.gone(n) for n in places):
        return text
    return narrate.order(sorted((n for n in places if not audience.gone(n)), key=lambda n: places[n]))


PHRASES: Mapping[str, Phrase] = {"initiative_roll": initiative_roll, "initiative": initiative}
#: WSSWNN's events whose words hold no number: told to the players as written.
SAME = frozenset({"grapple", "grapple_ends", "disarm"})
