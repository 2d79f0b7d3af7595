"""Reclaim the Wild fight narration: the sentences a player reads, made from an event's data.

The fight rules (`fight.py`, `fight_map_turn.py`) decide what happens and emit events with data; these functions
only word them (called when a fight is narrated, never in a simulation or the exact chain).
"""

from __future__ import annotations

from tohit.systems.rtw.fight_status import CITE, ENDS, HEADINGS, STATUS_DOCS, STATUSES

PAGE = "rtw"


def off_balance_ends(name: str) -> str:
    """Off-Balance ends at the start of the creature's next turn [Status Effects]."""
    return f"start of {name}'s turn: Off-Balance ends  [{CITE}: Off-Balance; {STATUS_DOCS}]"


def stands_up(name: str) -> str:
    """A Prone creature stands up at the start of its turn (half its Movement) [Status Effects: Prone]."""
    return f"{name} stands up from Prone (half its Movement)  [{CITE}: Prone; {STATUS_DOCS}]"


def prone_and_halted(name: str) -> str:
    """A Prone and Halted creature cannot stand up, nor attack while Prone."""
    return (
        f"{name} is Prone and Halted: it cannot stand up, and cannot attack while Prone; its turn passes"
        f"  [{CITE}: Prone, Halted; {STATUS_DOCS}]"
    )


def status_ends(name: str, stat: str, chosen: bool) -> str:
    """A status that ends at the end of the creature's next turn (`chosen`: the page gives no end)."""
    why = " (the page gives no end: docs/rtw.md#silent-status-ends)" if chosen else ""
    return f"end of {name}'s turn: {STATUSES[stat]} ends{why}  [{CITE}: {STATUSES[stat]}; {STATUS_DOCS}]"


def invisibility_ends_attacking(name: str) -> str:
    """Invisibility ends when the creature makes an attack."""
    return f"{name} has made an attack: Invisibility ends  [{CITE}: Invisibility; {STATUS_DOCS}]"


def invisibility_ends_struck(name: str) -> str:
    """Invisibility ends when an attack hits the creature."""
    return f"{name} is struck: Invisibility ends  [{CITE}: Invisibility; {STATUS_DOCS}]"


def cost(name: str) -> str:
    """An attack's Magic or Stamina cost."""
    return f"{name} spends the attack's cost"


def damage(name: str, damage: int, before: int, after: int) -> str:
    """Health lost, never below 0."""
    return f"{name} loses {damage} Health ({before} -> {after})"


def peril(name: str) -> str:
    """In Peril when Health <= Hearts [Peril]."""
    return f"{name} is in Peril (Health <= Hearts)  [{PAGE}: Peril]"


def falls(name: str, words: str) -> str:
    """What 0 Health makes of a creature [Falling in Battle]."""
    return f"{name} {words} at 0 Health  [{PAGE}: Falling in Battle]"


def burning_wear(before: int) -> str:
    """A Burning weapon loses 1 Durability when it lands a blow [Status Effects, Burning]."""
    return (
        f"the Burning weapon loses 1 Durability ({before} -> {before - 1})"
        + (": it shatters" if before == 1 else "")
        + f"  [rtw: Status Effects, Burning; {STATUS_DOCS}]"
    )


def weapon_used(name: str, weapon: str) -> str:
    """A weapon that lands a blow is used successfully: it wears when the encounter ends."""
    return (
        f"{name}'s {weapon} was used successfully: it loses 1 Durability when the encounter ends"
        f"  [{PAGE}: Weapon Durability]"
    )


def durability(name: str, weapon: str, left: int) -> str:
    """A weapon used successfully loses 1 Durability at the end of the encounter; at 0 it shatters."""
    return (
        f"end of the encounter: {name}'s {weapon} was used successfully and loses 1 Durability"
        f" ({left + 1} -> {left})" + (": it shatters" if left == 0 else "") + f"  [{PAGE}: Weapon Durability]"
    )


def status_lands(name: str, stat: str, source: str | None, fresh: bool, boss: bool) -> str:
    """An additional effect that lands [Landing the Blow; Status Effects] (`source`: who distracts it)."""
    status = STATUSES[stat]
    cite = f"  [{PAGE}: Landing the Blow; {CITE}: {HEADINGS[stat]}; {STATUS_DOCS}]"
    by = f" by {source}" if source is not None else ""
    if not fresh:
        return f"{name} is already {status}{by}: the effect changes nothing{cite}"
    merely = " (a Boss: merely Dazzled)" if stat == "blinded" and boss else ""
    if stat == "prone":
        until = "until it stands up at the start of its next turn"
    elif stat == "invisible":
        until = "(its attackers are treated as Blinded) until an attack hits it or it makes an attack"
    elif stat == "distracted":
        until = "(every foe but the sources of its Distraction Hard to Hit) until the end of its next turn"
    else:
        until = f"until the {ENDS[stat]} of its next turn"
    return f"the effect lands: {name} is {status}{by}{merely} {until}{cite}"


def holds_ground(name: str) -> str:
    """On a map: no foe in reach, even after its move."""
    return f"{name} has no foe in reach and holds its ground  [docs/rtw.md#silent-move-first]"


def moves(name: str, toward: str, path: list[tuple[int, int]], cost: int, movement: int) -> str:
    """A move on the map toward a foe [Movement, in the game's other pages]."""
    squares = " -> ".join(f"({x}, {y})" for x, y in path)
    spent = f"{cost} of {movement} Movement" if cost <= movement else f"{cost} Movement (of {movement}: a last square"
    spent += "" if cost <= movement else " may cost more than is left)"
    return (
        f"{name} moves toward {toward}: {squares}, {spent} (1-2-1 diagonals; Difficult Terrain costs 1 more)"
        "  [rtw: Movement; docs/rtw.md#silent-movement]"
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
