"""Last Odyssey fight narration: the sentences a player reads, made from an event's data.

The fight rules (`fight.py`) decide what happens and emit events with data; these functions only word them
(called when a fight is narrated, never in a simulation or the exact chain).
"""

from __future__ import annotations

from collections.abc import Sequence

PAGE = "last-odyssey"
#: The citations of the game's other pages, each with its reading in docs/last-odyssey.md.
DEATH = f"{PAGE}: Death and Injury; docs/last-odyssey.md#silent-death-and-injury"
STATUSES = f"{PAGE}: Statuses; docs/last-odyssey.md#silent-statuses"
BUFFS = f"{PAGE}: Buffs and Debuffs; docs/last-odyssey.md#silent-buffs-and-debuffs"
ROUND = "The Combat Round; docs/last-odyssey.md#silent-combat-round"


def ability_kind(kind: str, ally: bool) -> str:
    """The kind of an ability that is not an attack, after its name ("Roar (a Self buff)")."""
    if kind == "buff":
        return " (an Ally buff)" if ally else " (a Self buff)"
    return {"status": " (a status-inflicting ability)", "debuff": " (a debuff)"}.get(kind, "")


def damage(name: str, damage: int, hp: int, points: int, absorbed: int, lost: int) -> str:
    """A hit on a Shell and on HP [Shells; docs/last-odyssey.md#silent-shell]."""
    parts = []
    if damage == 0:
        parts.append("the hit deals no damage")
    elif points > 0:
        parts.append(f"its Shell takes {absorbed} ({points} -> {points - absorbed})")
        if damage >= points and damage > 0:
            over = damage - points
            rule = "at least" if over >= hp else "less than"
            parts.append(
                f"the Shell breaks; the overflow {over} is {rule} its HP {hp}"
                "  [Shells; docs/last-odyssey.md#silent-shell]"
            )
    if lost:
        parts.append(f"HP {hp} -> {hp - lost}" + (": downed" if lost == hp else ""))
    return f"{name}: " + "; ".join(parts) if parts else f"{name}: no effect"


def downed(name: str, gone: Sequence[str], kept: Sequence[str]) -> str:
    """Downed: every effect removed but Poisoned, Frostbitten and Burned [Death and Injury]."""
    tail = f"; still {', '.join(kept)}" if kept else ""
    return f"{name} is downed: its effects are removed ({', '.join(gone)}){tail}  [{DEATH}]"


def status(name: str, status: str, new: bool) -> str:
    """A status that lands; one the target has already changes nothing [Statuses]."""
    if not new:
        return f"{name} is already {status}: a status is on or off  [{STATUSES}]"
    return f"{name} is {status}  [{STATUSES}]"


def tracker(name: str, what: str, was: int, now: int) -> str:
    """A buff or debuff moves the Bonus Tracker [Buffs and Debuffs]."""
    if was == now:
        return f"{name}'s {what} stays at {was:+d} on the Bonus Tracker  [{BUFFS}]"
    return f"{name}'s {what}: {was:+d} -> {now:+d} on the Bonus Tracker  [{BUFFS}]"


def rows(side: str, effect_phase: bool) -> str:
    """A side whose front row has nobody standing: its back row counts as the front row; at the Effect Phase
    the opposing side advances [The Combat Round], or at once (`effect_phase: false`) [Starting Battles]."""
    if effect_phase:
        return (
            f"Effect Phase: {side}'s front row has nobody standing: the opposing side advances, and {side}'s back row"
            f"  now counts as the front row  [{ROUND}]"
        )
    return (
        f"{side}'s front row has nobody standing: the back row comes  forward"
        "  [Starting Battles; docs/last-odyssey.md#silent-advance-at-once]"
    )


def ap_again(names: Sequence[str], ap: int) -> str:
    """Each turn starts with the AP of the character's tier [The Combat Round]."""
    return f"A new round: {', '.join(names)} {'has' if len(names) == 1 else 'have'} {ap} AP again  [{ROUND}]"


def action_points(name: str, before: int, after: int, used: bool) -> str:
    """An ability costs 1 AP; with no ability it can use, a combatant ends its turn [The Combat Round]."""
    if used:
        return f"{name} spends 1 AP ({before} -> {after})  [{ROUND}]"
    return f"{name} has no ability it can use: it ends its turn ({before} AP lost)  [{ROUND}]"


def poisoned(name: str, health: int, damage: int, hp: int, left: int) -> str:
    """Poisoned at the Effect Phase: 1/10 of the base maximum HP, rounded down, at least 1 [Statuses]."""
    down = ": downed" if left == 0 else ""
    return (
        f"Effect Phase: {name} is Poisoned and takes {damage} (1/10 of Health {health}, rounded down, at least 1):"
        f" HP {hp} -> {left}{down}  [{PAGE}: Statuses, The Combat Round; docs/last-odyssey.md#silent-statuses]"
    )


def initiative_call(roll: int, calls: Sequence[tuple[str, int | None, object]], order: Sequence[str]) -> str:
    """Calling initiative [Starting Battles]: the GM's 2d4 against each player's call, and the order it gives."""
    parts = []
    for name, call, score in calls:
        if call == roll:
            parts.append(f"{name} called {call}: Initiative x 1.5 = {score}")
        elif call is not None and call < roll:
            parts.append(f"{name} called {call}: first on a tie with an enemy")
        else:
            parts.append(f"{name} called {call}: last on a tie with an enemy")
    said = "; ".join(parts)
    return (
        f"Calling initiative: the GM rolls 2d4: {roll}; {said}. Order: {', '.join(order)}  [{PAGE}: Starting Battles]"
    )
