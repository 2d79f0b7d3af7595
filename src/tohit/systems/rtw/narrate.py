"""Reclaim the Wild's game-master words (docs/players.md, "Events are data, told to each audience"): each a
function of an event's data, registered as the fight's `gm_phrases` (core/fight/words.py `gm_told`).

The fight rules (`fight.py`, `fight_turn.py`, `fight_map_turn.py`, `fight_move.py`) decide what happens and emit
events with data (their changes and details); these functions only word them (called when a fight is narrated,
never in a simulation or the exact chain).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight import gm_words
from tohit.core.fight.words import GmPhrase, change_of
from tohit.systems.rtw.fight_status import CITE, ENDS, HEADINGS, STATUS_DOCS, STATUSES, status_of

PAGE = "rtw"
#: The statuses that end at the end of the creature's next turn by tohit's choice (the page gives no end).
CHOSEN_ENDS = ("halted", "distracted")


def _status_stat(event: Mapping[str, Any]) -> str:
    """The status an event changes (its first change's stat)."""
    return str(event["changes"][0]["stat"])


def status_ends(event: Mapping[str, Any]) -> str:
    """A status that ends (the changed stat): Off-Balance at the start of the creature's next turn; Invisibility
    when the creature makes an attack or an attack hits it (`struck`); the others at the end of its next turn (Halted
    and Distracted by tohit's choice: the page gives no end) [Status Effects]."""
    name, stat = event["combatant"], _status_stat(event)
    if stat == "off_balance":
        return f"start of {name}'s turn: Off-Balance ends  [{CITE}: Off-Balance; {STATUS_DOCS}]"
    if stat == "invisible":
        how = "is struck" if event.get("struck") else "has made an attack"
        return f"{name} {how}: Invisibility ends  [{CITE}: Invisibility; {STATUS_DOCS}]"
    why = " (the page gives no end: docs/rtw.md#silent-status-ends)" if stat in CHOSEN_ENDS else ""
    return f"end of {name}'s turn: {STATUSES[stat]} ends{why}  [{CITE}: {STATUSES[stat]}; {STATUS_DOCS}]"


def stands_up(event: Mapping[str, Any]) -> str:
    """A Prone creature stands up at the start of its turn (half its Movement) [Status Effects: Prone]."""
    return f"{event['combatant']} stands up from Prone (half its Movement)  [{CITE}: Prone; {STATUS_DOCS}]"


def prone_and_halted(event: Mapping[str, Any]) -> str:
    """A Prone and Halted creature cannot stand up, nor attack while Prone."""
    return (
        f"{event['combatant']} is Prone and Halted: it cannot stand up, and cannot attack while Prone; its turn"
        f" passes  [{CITE}: Prone, Halted; {STATUS_DOCS}]"
    )


def cost(event: Mapping[str, Any]) -> str:
    """An attack's Magic or Stamina cost (the changes)."""
    return f"{event['combatant']} spends the attack's cost"


def damage(event: Mapping[str, Any]) -> str:
    """Health lost (`damage`; the Health change from and to), never below 0."""
    health = change_of(event, "health") or {}
    return f"{event['combatant']} loses {event['damage']} Health ({health['from']} -> {health['to']})"


def peril(event: Mapping[str, Any]) -> str:
    """In Peril when Health <= Hearts [Peril]."""
    return f"{event['combatant']} is in Peril (Health <= Hearts)  [{PAGE}: Peril]"


def falls(event: Mapping[str, Any]) -> str:
    """What 0 Health makes of a creature (the changed stat: Helpless, or perished) [Falling in Battle]."""
    words = "falls Helpless" if _status_stat(event) == "helpless" else "perishes"
    return f"{event['combatant']} {words} at 0 Health  [{PAGE}: Falling in Battle]"


def durability(event: Mapping[str, Any]) -> str:
    """A weapon's Durability lost (`durability`: what is left; at 0 it shatters): a Burning weapon's when it lands
    a blow (`burning`) [Status Effects, Burning]; a weapon used successfully, at the end of the encounter [Weapon
    Durability]."""
    left = int(event["durability"])
    shatters = ": it shatters" if left == 0 else ""
    if event.get("burning"):
        return (
            f"the Burning weapon loses 1 Durability ({left + 1} -> {left}){shatters}"
            f"  [rtw: Status Effects, Burning; {STATUS_DOCS}]"
        )
    return (
        f"end of the encounter: {event['combatant']}'s {event['weapon']} was used successfully and loses 1 Durability"
        f" ({left + 1} -> {left}){shatters}  [{PAGE}: Weapon Durability]"
    )


def weapon_used(event: Mapping[str, Any]) -> str:
    """A weapon that lands a blow is used successfully: it wears when the encounter ends."""
    return (
        f"{event['combatant']}'s {event['weapon']} was used successfully: it loses 1 Durability when the encounter"
        f" ends  [{PAGE}: Weapon Durability]"
    )


def status(event: Mapping[str, Any]) -> str:
    """An additional effect that lands (`status`; `distracted_by`: its source, for Distracted; `already`: it had
    it; `boss`: a Boss Blinded is merely Dazzled) [Landing the Blow; Status Effects]."""
    name, stat = event["combatant"], status_of(str(event["status"])) or ""
    cite = f"  [{PAGE}: Landing the Blow; {CITE}: {HEADINGS[stat]}; {STATUS_DOCS}]"
    by = f" by {event['distracted_by']}" if event.get("distracted_by") is not None else ""
    if event.get("already"):
        return f"{name} is already {STATUSES[stat]}{by}: the effect changes nothing{cite}"
    merely = " (a Boss: merely Dazzled)" if stat == "blinded" and event.get("boss") else ""
    if stat == "prone":
        until = "until it stands up at the start of its next turn"
    elif stat == "invisible":
        until = "(its attackers are treated as Blinded) until an attack hits it or it makes an attack"
    elif stat == "distracted":
        until = "(every foe but the sources of its Distraction Hard to Hit) until the end of its next turn"
    else:
        until = f"until the {ENDS[stat]} of its next turn"
    return f"the effect lands: {name} is {STATUSES[stat]}{by}{merely} {until}{cite}"


def holds_ground(event: Mapping[str, Any]) -> str:
    """On a map: no foe in reach, even after its move."""
    return f"{event['combatant']} has no foe in reach and holds its ground  [docs/rtw.md#silent-move-first]"


def moves(event: Mapping[str, Any]) -> str:
    """A move on the map toward a foe (`toward`) along `path`, costing `cost` of its `movement` [Movement, in the
    game's other pages]; the GM's free move (`free`) in the common words (core/fight/gm_words.py)."""
    if event.get("free"):
        return gm_words.move(event)
    squares = " -> ".join(f"({x}, {y})" for x, y in event["path"])
    cost, movement = int(event["cost"]), int(event["movement"])
    spent = f"{cost} of {movement} Movement" if cost <= movement else f"{cost} Movement (of {movement}: a last square"
    spent += "" if cost <= movement else " may cost more than is left)"
    return (
        f"{event['combatant']} moves toward {event['toward']}: {squares}, {spent} (1-2-1 diagonals; Difficult"
        " Terrain costs 1 more)  [rtw: Movement; docs/rtw.md#silent-movement]"
    )


def placement_note(option: str, again: int, hard: str, statuses: str) -> str:
    """What an attack's roll on a map adds to its trace: the placement, a Swarm affected again, why Hard to Hit."""
    return (
        f" ({option}"
        + (f"; a Swarm, affected again ({again})" if again else "")
        + (f"; Hard to Hit: {hard}" if hard else "")
        + (f"; {statuses}" if statuses else "")
        + ")"
    )


#: Reclaim the Wild's game-master words, by kind (`FightRules.gm_phrases`).
PHRASES: Mapping[str, GmPhrase] = {
    "status_ends": status_ends,
    "stands_up": stands_up,
    "prone": prone_and_halted,
    "cost": cost,
    "damage": damage,
    "peril": peril,
    "falls": falls,
    "durability": durability,
    "weapon_used": weapon_used,
    "status": status,
    "hold": holds_ground,
    "move": moves,
}
