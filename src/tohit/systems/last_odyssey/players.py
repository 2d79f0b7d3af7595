"""What the players are told of Last Odyssey's own events (core/fight/audience.py; docs/players.md): of a
combatant whose numbers they read, the game master's words; of one kept from them, what a person at the table
sees (it spends AP, its Shell takes the hit or breaks, its health word, its statuses, which way its Bonus Tracker
moves), never its AP, HP, Shell points, Health, the damage it takes nor its tracker's steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.audience import Audience, Phrase, of_the_kept
from tohit.core.fight.words import change_of
from tohit.systems.last_odyssey import narrate

Event = Mapping[str, Any]
#: What the players notice of an attack by a combatant hidden from them entirely (`{verb}`: "attacks"), in Last
#: Odyssey's words (an enemy: a character who is no player character).
UNSEEN_ATTACK = "an unseen enemy {verb} {target}"


def _text(event: Event) -> str:
    return str(event.get("text") or "")


def _health(event: Event, audience: Audience, name: str) -> str:
    """The health word HP moves a kept combatant to ("bloodied", "downed"), or "hurt" where the word stays."""
    hp = change_of(event, "hp") or {}
    word = audience.word(name, hp["to"])
    return word if word != audience.word(name, hp["from"]) else "hurt"


def action_points(event: Event, audience: Audience) -> str | None:
    """AP [The Combat Round]: a new round's AP, said of the combatants the players know of (the tier's AP is the
    same for all); a kept combatant's spent AP without its count ("Ogre spends an AP"), or that it ends its turn."""
    if "combatants" in event:
        names = [n for n in event["combatants"] if not audience.gone(n)]
        return _text(event) if len(names) == len(event["combatants"]) else narrate.ap_again(names, event["ap"])
    return _spent(event, audience)


@of_the_kept
def _spent(event: Event, audience: Audience, name: str) -> str:
    return f"{name} has no ability it can use: it ends its turn" if event.get("ends_turn") else f"{name} spends an AP"


@of_the_kept
def poisoned(event: Event, audience: Audience, name: str) -> str:
    """Poisoned at the Effect Phase [Statuses]: of a kept combatant, its health word, never the damage (a tenth of
    its Health)."""
    return f"Effect Phase: {name} is Poisoned: {_health(event, audience, name)}"


@of_the_kept
def downed(event: Event, audience: Audience, name: str) -> str:
    """Downed [Death and Injury]: of a kept combatant, the statuses it loses and keeps (what the table sees), and
    that its Bonus Tracker resets, never its steps."""
    gone = [*event.get("removed", []), *(["its Bonus Tracker"] if event.get("buffs") else [])]
    still = event.get("still") or []
    return f"{name} is downed: its effects are removed ({', '.join(gone)})" + (
        f"; still {', '.join(still)}" if still else ""
    )


@of_the_kept
def damage(event: Event, audience: Audience, name: str) -> str:
    """A hit on a Shell and on HP [Shells]: of a kept combatant, that its Shell takes the hit or breaks, its Body
    Armor is used up and its health word, never the damage, its Shell points or its HP."""
    stats = {ch.get("stat") for ch in event.get("changes", [])}
    parts = []
    if event.get("damage") == 0:
        parts.append("the hit deals no damage")
    elif event.get("absorbed"):
        parts.append("its Shell takes the hit")
        if event.get("damage", 0) >= event.get("shell", 0):
            parts.append("the Shell breaks")
    if "body_armor" in stats:
        parts.append("its Body Armor is used up")
    if "hp" in stats:
        parts.append(_health(event, audience, name))
    return f"{name}: " + "; ".join(parts) if parts else f"{name}: no effect"


@of_the_kept
def tracker(event: Event, audience: Audience, name: str) -> str:
    """A buff or debuff [Buffs and Debuffs]: of a kept combatant, which way its statistic moves on the Bonus
    Tracker, never its steps."""
    was, now = event.get("was", 0), event.get("now", 0)
    way = "stays" if was == now else ("rises" if now > was else "falls")
    return f"{name}'s {event.get('statistic')} {way} on the Bonus Tracker"


def initiative(event: Event, audience: Audience) -> str:
    """Calling initiative [Starting Battles]: the GM's 2d4 and the players' calls; the call of a character whose
    numbers the players do not read is left out (its Initiative), and so is the place of one they do not know
    of."""
    calls = [c for c in event.get("calls", []) if not audience.unseen(c.get("combatant"))]
    order = [n for n in event.get("order", []) if not audience.gone(n)]
    if len(calls) == len(event.get("calls", [])) and len(order) == len(event.get("order", [])):
        return _text(event)
    return narrate.initiative_call({**event, "calls": calls, "order": order})


PHRASES: Mapping[str, Phrase] = {
    "ap": action_points,
    "poison": poisoned,
    "effects": downed,
    "damage": damage,
    "tracker": tracker,
    "initiative": initiative,
}
