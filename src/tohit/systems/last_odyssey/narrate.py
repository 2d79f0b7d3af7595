"""Last Odyssey's game master's words: each kind of event the fight emits, written from the event's data (its
`combatant`, its changes with their `from` and `to`, and the details named in the rulebook's terms: `damage`,
`shell`, `absorbed`, `status`, `statistic`, `roll`, `calls`...; docs/players.md, "Events are data, told to each
audience").

The fight rules (fight_round.py, fight_turn.py) decide what happens and emit events with data; these functions
only word them (called when a fight is narrated, never in a simulation or the exact chain). `GM_PHRASES`
registers them on `LastOdysseyFight.gm_phrases`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from tohit.core.fight.words import GmPhrase, change_of

PAGE = "last-odyssey"
#: The citations of the game's other pages, each with its reading in docs/last-odyssey.md.
DEATH = f"{PAGE}: Death and Injury; docs/last-odyssey.md#silent-death-and-injury"
STATUSES = f"{PAGE}: Statuses; docs/last-odyssey.md#silent-statuses"
BUFFS = f"{PAGE}: Buffs and Debuffs; docs/last-odyssey.md#silent-buffs-and-debuffs"
ROUND = "The Combat Round; docs/last-odyssey.md#silent-combat-round"
SHELLS = "Shells; docs/last-odyssey.md#silent-shell"

Event = Mapping[str, Any]


def ability_kind(kind: str, ally: bool) -> str:
    """The kind of an ability that is not an attack, after its name ("Roar (a Self buff)")."""
    if kind == "buff":
        return " (an Ally buff)" if ally else " (a Self buff)"
    return {"status": " (a status-inflicting ability)", "debuff": " (a debuff)"}.get(kind, "")


def damage(event: Event) -> str:
    """A hit on a Shell and on HP [Shells; docs/last-odyssey.md#silent-shell]: the hit's `damage`, the target's
    `hp` and Shell points (`shell`) before it, the points the Shell `absorbed` and the HP `lost`."""
    dealt, hp, points, absorbed, lost = (event[k] for k in ("damage", "hp", "shell", "absorbed", "lost"))
    parts = []
    if dealt == 0:
        parts.append("the hit deals no damage")
    elif points > 0:
        parts.append(f"its Shell takes {absorbed} ({points} -> {points - absorbed})")
        if dealt >= points:
            over = dealt - points
            rule = "at least" if over >= hp else "less than"
            parts.append(f"the Shell breaks; the overflow {over} is {rule} its HP {hp}  [{SHELLS}]")
    if lost:
        parts.append(f"HP {hp} -> {hp - lost}" + (": downed" if lost == hp else ""))
    return f"{event['combatant']}: " + "; ".join(parts) if parts else f"{event['combatant']}: no effect"


def downed(event: Event) -> str:
    """Downed: every effect removed but Poisoned, Frostbitten and Burned [Death and Injury]: the statuses
    `removed`, the Bonus Tracker's `buffs` reset, the statuses it has `still`."""
    gone = [*event["removed"], *(f"{stat} {step:+d}" for stat, step in event["buffs"].items())]
    tail = f"; still {', '.join(event['still'])}" if event["still"] else ""
    return f"{event['combatant']} is downed: its effects are removed ({', '.join(gone)}){tail}  [{DEATH}]"


def status(event: Event) -> str:
    """A `status` that lands; one the target has already (not `new`) changes nothing [Statuses]."""
    name, which = event["combatant"], event["status"]
    if not event["new"]:
        return f"{name} is already {which}: a status is on or off  [{STATUSES}]"
    return f"{name} is {which}  [{STATUSES}]"


def tracker(event: Event) -> str:
    """A buff or debuff moves the Bonus Tracker [Buffs and Debuffs]: its `statistic`, the step it `was` at and the
    step it is at `now`."""
    name, what, was, now = event["combatant"], event["statistic"], event["was"], event["now"]
    if was == now:
        return f"{name}'s {what} stays at {was:+d} on the Bonus Tracker  [{BUFFS}]"
    return f"{name}'s {what}: {was:+d} -> {now:+d} on the Bonus Tracker  [{BUFFS}]"


def rows(event: Event) -> str:
    """A `side` whose front row has nobody standing: its back row counts as the front row; at the Effect Phase
    (`effect_phase`) the opposing side advances [The Combat Round], or at once [Starting Battles]."""
    side = event["side"]
    if event["effect_phase"]:
        return (
            f"Effect Phase: {side}'s front row has nobody standing: the opposing side advances, and {side}'s back row"
            f"  now counts as the front row  [{ROUND}]"
        )
    return (
        f"{side}'s front row has nobody standing: the back row comes  forward"
        "  [Starting Battles; docs/last-odyssey.md#silent-advance-at-once]"
    )


def ap_again(names: list[str], ap: int) -> str:
    """Each turn starts with the AP of the character's tier [The Combat Round]."""
    return f"A new round: {', '.join(names)} {'has' if len(names) == 1 else 'have'} {ap} AP again  [{ROUND}]"


def action_points(event: Event) -> str:
    """AP: a new round gives the `combatants` whose AP was spent their `ap` again; an ability costs 1 AP; with no
    ability it can use (`ends_turn`), a combatant ends its turn [The Combat Round]."""
    if "combatants" in event:
        return ap_again(list(event["combatants"]), event["ap"])
    name, ap = event["combatant"], (change_of(event, "ap") or {})
    if not event["ends_turn"]:
        return f"{name} spends 1 AP ({ap['from']} -> {ap['to']})  [{ROUND}]"
    return f"{name} has no ability it can use: it ends its turn ({ap['from']} AP lost)  [{ROUND}]"


def poisoned(event: Event) -> str:
    """Poisoned at the Effect Phase: 1/10 of the base maximum HP (`health`), rounded down, at least 1 (`damage`)
    [Statuses]."""
    hp = change_of(event, "hp") or {}
    down = ": downed" if hp["to"] == 0 else ""
    return (
        f"Effect Phase: {event['combatant']} is Poisoned and takes {event['damage']} (1/10 of Health"
        f" {event['health']}, rounded down, at least 1): HP {hp['from']} -> {hp['to']}{down}"
        f"  [{PAGE}: Statuses, The Combat Round; docs/last-odyssey.md#silent-statuses]"
    )


def call_said(call: Mapping[str, Any], roll: int) -> str:
    """One player's call against the GM's 2d4: equal, it counts 1.5x its Initiative; below, first on a tie with an
    enemy; at or above, last."""
    name, number = call["combatant"], call["call"]
    if number == roll:
        return f"{name} called {number}: Initiative x 1.5 = {Fraction(call['initiative']) * Fraction(3, 2)}"
    if number < roll:
        return f"{name} called {number}: first on a tie with an enemy"
    return f"{name} called {number}: last on a tie with an enemy"


def initiative_call(event: Event) -> str:
    """Calling initiative [Starting Battles]: the GM's 2d4 (`roll`) against each player's call (`calls`: its
    `combatant`, `call` and `initiative`), and the `order` it gives."""
    roll = event["roll"]
    said = "".join(f"; {call_said(call, roll)}" for call in event["calls"])
    order = ", ".join(event["order"])
    return f"Calling initiative: the GM rolls 2d4: {roll}{said}. Order: {order}  [{PAGE}: Starting Battles]"


#: The game master's words of Last Odyssey's own kinds (`LastOdysseyFight.gm_phrases`).
GM_PHRASES: Mapping[str, GmPhrase] = {
    "initiative": initiative_call,
    "ap": action_points,
    "poison": poisoned,
    "effects": downed,
    "damage": damage,
    "status": status,
    "tracker": tracker,
    "rows": rows,
}
