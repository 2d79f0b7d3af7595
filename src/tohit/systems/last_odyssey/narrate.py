"""Last Odyssey fight narration: the sentences a player reads, made from an event's data.

The fight rules (`fight.py`) decide what happens and emit events with data; these functions only word them
(called when a fight is narrated, never in a simulation or the exact chain).
"""

from __future__ import annotations

from collections.abc import Sequence

PAGE = "last-odyssey"


def ability_kind(kind: str, ally: bool) -> str:
    """The kind of an ability that is not an attack, after its name ("Roar (a Self buff)")."""
    if kind == "buff":
        return " (an Ally buff)" if ally else " (a Self buff)"
    return {"status": " (a status-inflicting ability)", "debuff": " (a debuff)"}.get(kind, "")


def damage(name: str, damage: int, hp: int, points: int, absorbed: int, lost: int) -> str:
    """A hit on a Shell and on HP [Shells.md; decisions 5]."""
    parts = []
    if damage == 0:
        parts.append("the hit deals no damage")
    elif points > 0:
        parts.append(f"its Shell takes {absorbed} ({points} -> {points - absorbed})")
        if damage >= points and damage > 0:
            over = damage - points
            rule = "at least" if over >= hp else "less than"
            parts.append(f"the Shell breaks; the overflow {over} is {rule} its HP {hp}  [Shells.md; decisions 5]")
    if lost:
        parts.append(f"HP {hp} -> {hp - lost}" + (": downed" if lost == hp else ""))
    return f"{name}: " + "; ".join(parts) if parts else f"{name}: no effect"


def downed(name: str, gone: Sequence[str], kept: Sequence[str]) -> str:
    """Downed: every effect removed but Poisoned, Frostbitten and Burned [Death-and-Injury.md]."""
    tail = f"; still {', '.join(kept)}" if kept else ""
    return f"{name} is downed: its effects are removed ({', '.join(gone)}){tail}  [{PAGE}: Death-and-Injury.md]"


def status(name: str, status: str, new: bool) -> str:
    """A status that lands; one the target has already changes nothing [Statuses.md]."""
    if not new:
        return f"{name} is already {status}: a status is on or off  [{PAGE}: Statuses.md]"
    return f"{name} is {status}  [{PAGE}: Statuses.md]"


def tracker(name: str, what: str, was: int, now: int) -> str:
    """A buff or debuff moves the Bonus Tracker [Buffs-and-Debuffs.md]."""
    if was == now:
        return f"{name}'s {what} stays at {was:+d} on the Bonus Tracker  [{PAGE}: Buffs-and-Debuffs.md]"
    return f"{name}'s {what}: {was:+d} -> {now:+d} on the Bonus Tracker  [{PAGE}: Buffs-and-Debuffs.md]"


def rows(side: str) -> str:
    """A side whose front row has nobody standing brings its back row forward [Starting-Battles.md]."""
    return f"{side}'s front row has nobody standing: the back row comes  forward  [Starting-Battles.md]"
