"""What the players are told of Reclaim the Wild's own events (core/fight/audience.py; docs/players.md): each
event's game-master words where it is about nobody kept from them, else what a person at the table sees, from the
event's data: never a kept creature's Health, Hearts, Durability or damage; one hidden entirely is "someone"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.audience import Audience, Phrase, move_said
from tohit.core.fight.words import change_of
from tohit.systems.rtw import narrate

#: What the players notice of an attack by a creature hidden from them entirely (`FightRules.unseen_attack`).
UNSEEN_ATTACK = "something strikes {target} from the dark"


def _text(event: Mapping[str, Any]) -> str:
    return str(event.get("text") or "")


def damage(event: Mapping[str, Any], audience: Audience) -> str:
    """Health lost, for the players: of a kept creature, its health word, never the damage nor its Health."""
    health = change_of(event, "health")
    if health is None or not audience.unseen(health.get("who")):
        return _text(event)
    who = str(health["who"])
    return f"{who} loses Health: {audience.word(who, int(health['to']))}"


def peril(event: Mapping[str, Any], audience: Audience) -> str:
    """In Peril, for the players: of a kept creature, that it is in Peril, never how its Health stands to its
    Hearts."""
    who = event.get("combatant")
    return f"{who} is in Peril" if audience.unseen(who) else _text(event)


def falls(event: Mapping[str, Any], audience: Audience) -> str:
    """What 0 Health makes of a kept creature, for the players: it falls Helpless, or perishes [Falling in
    Battle]."""
    changes = event.get("changes") or [{}]
    who = event.get("combatant", changes[0].get("who"))
    if not audience.unseen(who):
        return _text(event)
    return f"{who} falls Helpless" if changes[0].get("stat") == "helpless" else f"{who} perishes"


def durability(event: Mapping[str, Any], audience: Audience) -> str:
    """A weapon's Durability lost, for the players: of a kept creature's, that it wears (and shatters, which the
    table sees), never its Durability."""
    who = event.get("combatant")
    if not audience.unseen(who) or "durability" not in event:
        return _text(event)
    shatters = ": it shatters" if int(event["durability"]) == 0 else ""
    if event.get("burning"):
        return f"{who}'s Burning weapon loses Durability{shatters}"
    return f"end of the encounter: {who}'s {event.get('weapon')} loses Durability{shatters}"


def weapon_used(event: Mapping[str, Any], audience: Audience) -> str:
    """A weapon used successfully, for the players: of a kept creature's, that it wears when the encounter ends."""
    who = event.get("combatant")
    if not audience.unseen(who) or "weapon" not in event:
        return _text(event)
    return f"{who}'s {event['weapon']} was used successfully: it wears when the encounter ends"


def status(event: Mapping[str, Any], audience: Audience) -> str:
    """An effect that lands (no number: a person at the table sees it), for the players: where the creature or the
    source of its Distraction is hidden entirely, written again from its data, that one "someone"."""
    names = [event.get(k) for k in ("combatant", "distracted_by") if event.get(k) is not None]
    if not any(audience.gone(n) for n in names) or "status" not in event:
        return _text(event)
    again = {
        **event,
        **{k: audience.called(event[k]) for k in ("combatant", "distracted_by") if event.get(k) is not None},
    }
    return narrate.status(again)


PHRASES: Mapping[str, Phrase] = {
    "move": move_said,
    "damage": damage,
    "peril": peril,
    "falls": falls,
    "durability": durability,
    "weapon_used": weapon_used,
    "status": status,
}
#: Reclaim the Wild's events whose words hold no number: told to the players as written (a status that ends, a
#: creature that stands up, Prone and Halted, holds its ground, spends its attack's cost).
SAME = frozenset({"status_ends", "stands_up", "prone", "hold", "cost"})
