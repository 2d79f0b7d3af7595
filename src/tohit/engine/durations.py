"""Conditions that last by the game's clock: a condition the GM sets (`on`) with `rounds` and/or `until`
("start_of_turn" | "end_of_turn") of a combatant (`of`, default its own) counts down at that moment of that
combatant's turn and expires when the count reaches 0, as an event ("Ceil is no longer Flat-Footed"), through the
game's own consequences as any condition cleared by hand (engine/gm_hand.py).

Read from the events alone (so undo and replay need nothing more): the condition event carries its duration
(`until`, `of`, `rounds`); each count down is a `duration` event (no stat changed) and the expiry a `condition`
event (`on` false, `expires`), both in the events of the action whose turn change caused them, so an undo of that
action takes them back with it. A timer ends when its condition is set or cleared again (by hand or by the rules:
one no longer on is never expired), or its combatant leaves.

When a turn changes is read from the game's own order, as the page shows it: after each action, whose turn comes
(`next_turn`), the round and the order's cursor; where they differ from before the action, the turn of the one
before has ended and the turn of the one after has started (an end first).

Where the game's rules give a condition's duration (`FightRules.condition_ends`: say, "until the start of its next
turn"), a condition set without one takes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.gm_words import MOMENT, rounds_words
from tohit.engine.gm_hand import LiveEncounter, _by_hand, condition_stat, undone
from tohit.engine.roster_change import ROSTER_KINDS

Until = Literal["start_of_turn", "end_of_turn"]


@dataclass
class Timer:
    """A condition's duration now: set by event `n` on `who`'s `condition`, counting at `until` of `of`'s turn,
    `left` counts to go."""

    n: int
    who: str
    condition: str
    until: str
    of: str
    left: int

    def words(self) -> str:
        """The count as a card shows it: "2 rounds"."""
        return rounds_words(self.left)

    def moment(self) -> dict[str, str]:
        """When it counts, as an event's details: `until` (the moment of the turn), `of` (whose turn)."""
        return {"until": self.until, "of": self.of}

    def ends(self) -> str:
        """When it counts, in words: "at the end of Ceil's turn"."""
        return f"at {MOMENT[self.until]} of {self.of}'s turn"


def check(enc: LiveEncounter, action: dict[str, Any]) -> None:
    """A condition action's duration checked before anything is played: only for a condition set, `of` a
    combatant (an InputError naming the field)."""
    rounds, until, of = action.get("rounds"), action.get("until"), action.get("of")
    given = rounds is not None or until is not None or of is not None
    if given and not action.get("on"):
        field = "rounds" if rounds is not None else "until" if until is not None else "of"
        raise InputError("a duration is for a condition set (on: true)", field=field)
    names = enc.fight.roster.names
    if of is not None and of not in names:
        raise InputError(f"no combatant {short_repr(of)}; combatants: {', '.join(names)}", field="of")


def stamp(enc: LiveEncounter, action: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The condition events of `action` (`check`ed) with its duration, or the game's for that condition."""
    rounds, until, of = action.get("rounds"), action.get("until"), action.get("of")
    for event in events:
        parts = event.get("each") or [event]
        for part in parts:
            found = _duration(enc, str(part.get("condition")), rounds, until) if action.get("on") else None
            if found is not None:
                part.update(until=found[0], rounds=found[1], of=of or part.get("combatant"))
    return events


def _duration(enc: LiveEncounter, condition: str, rounds: int | None, until: str | None) -> tuple[str, int] | None:
    """(until, rounds) of a condition set: as given (rounds alone count the ends of turns; a moment alone, one),
    else the game's duration for it, else none."""
    if rounds is not None or until is not None:
        return (until or "end_of_turn", rounds or 1)
    found = enc.fight.rules.condition_ends(condition)
    return None if found is None else (found, 1)


def timers(enc: LiveEncounter) -> list[Timer]:
    """The durations running now, read from the events (module docstring)."""
    back = undone(enc.events)
    found: dict[tuple[str, str], Timer] = {}
    for event in enc.events:
        if event.get("kind") == "undo" or int(event.get("action", event.get("n", 0))) in back:
            continue
        if event.get("kind") == "condition":
            for part in event.get("each") or [event]:
                key = (str(part.get("combatant")), str(part.get("condition")))
                found.pop(key, None)
                if part.get("until") and part.get("on"):
                    found[key] = Timer(int(event["n"]), *key, part["until"], str(part["of"]), int(part["rounds"]))
        elif event.get("kind") == "duration":
            timer = found.get((str(event.get("combatant")), str(event.get("condition"))))
            if timer is not None:
                timer.left = int(event["left"])
    names = enc.fight.roster.names
    return [t for t in found.values() if t.who in names and _is_on(enc, t)]


def _is_on(enc: LiveEncounter, timer: Timer) -> bool:
    c = names_index(enc, timer.who)
    stat, _, bit = condition_stat(enc, timer.condition, c)
    return bool(int(enc.state.per[stat][0, c]) & bit)


def names_index(enc: LiveEncounter, who: str) -> int:
    return enc.fight.roster.names.index(who)


def tick(enc: LiveEncounter, before: tuple[Any, ...], after: tuple[Any, ...], kind: str) -> list[dict[str, Any]]:
    """The events of the durations that count at the turn change from `before` to `after` (each a `mark`) that an
    action of `kind` made: the end of the turn of the one before, then the start of the one after; none where the
    turn did not change. A join or a leave moves the order's cursor without a turn changing (the round goes on from
    the same combatant): only whose turn comes and the round tell then. A delay starts the next one's turn, but the
    delaying one's turn has not ended: it ends when it acts later in the round."""
    if kind in ROSTER_KINDS:
        before, after = before[:2], after[:2]
    if before == after:
        return []
    out: list[dict[str, Any]] = []
    moments = [("end_of_turn", None if kind == "delay" else before[0]), ("start_of_turn", after[0])]
    for until, whose in moments:
        if whose is None:
            continue
        for timer in timers(enc):
            if timer.until != until or timer.of != whose:
                continue
            timer.left -= 1
            out += _expire(enc, timer) if timer.left <= 0 else _count(enc, timer)
    return out


def _count(enc: LiveEncounter, timer: Timer) -> list[dict[str, Any]]:
    ctx = enc._context(_rng())
    info: dict[str, Any] = {"combatant": timer.who, "condition": timer.condition, "timer": timer.n, "left": timer.left}
    ctx.emit("duration", [], **info, **timer.moment())
    enc.state = ctx.state
    return ctx.log


def _expire(enc: LiveEncounter, timer: Timer) -> list[dict[str, Any]]:
    c = names_index(enc, timer.who)
    stat, _, bit = condition_stat(enc, timer.condition, c)
    before = int(enc.state.per[stat][0, c])
    info = {"combatant": timer.who, "condition": timer.condition, "on": False, "expires": timer.n}
    return _by_hand(enc, c, stat, before & ~bit, "condition", **info, **timer.moment())


def mark(enc: Any) -> tuple[Any, ...]:
    """Where the turn stands: whose turn comes, the round and the order's cursor (None while the fight is over)."""
    if enc.over:
        return (None,)
    fight = enc.state_json()["fight"]
    return (enc.next_turn(), fight.get("round"), fight.get("cursor"))


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)
