"""The game master's hand in a live encounter: what a tracker does outside the game's rules, each one
event that undo takes back and replay reads as any other.

- `adjust`: a stat set to a value, or changed by an amount (-7), within the range the game declares for it
  (`FightRules.stat_range`), else refused naming the field.
- `condition`: a condition the game keeps (its readings of kind condition, on or off, or one status of a bitmask the
  rules name one by one: `FightRules.condition_bits`) set or cleared, by its rulebook word in any case: one change.
- `dice`: any roll ("2d6+3", "Perception") by the engine's dice parser (core/dice.py), logged with its faces and
  total; it changes no stat.
- who is hidden from the players is read from the events (`hidden`): by default every combatant not on the first
  side, until a `reveal` (engine/presence.py, with `hide`) shows it; it changes no stat.

A stat set or a condition changed goes through the game's own consequences (`FightRules.by_hand`): what the rules
make of it is part of the same event. Nothing here decides the fight: the encounter's end check runs after every
action (engine/encounter.py), so a fight whose last foe the GM downs is over, with its winner.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import numpy as np

from tohit.core.dice import parse
from tohit.core.errors import DiceError, InputError, short_repr
from tohit.core.fight.contract import ANY_VALUE, LoadedFight
from tohit.core.fight.readings import label_of, reading_of, stat_text
from tohit.core.fight.state import Change, Event, State, apply, change
from tohit.engine.fight.modes import Narration


class LiveEncounter(Protocol):
    """What the GM's hand reads and changes of a live encounter (`engine.encounter.Encounter`)."""

    fight: LoadedFight
    data: dict[str, Any]
    events: list[dict[str, Any]]
    state: State

    def _context(self, rng: np.random.Generator, script: list[dict[str, list[int]]] | None = None) -> Narration:
        """A narrating context on the encounter's state."""


def combatant_index(enc: LiveEncounter, who: object, field: str = "combatant") -> int:
    """The index of the combatant named `who`, or an InputError naming `field` and listing the combatants."""
    names = enc.fight.roster.names
    if not isinstance(who, str) or who not in names:
        raise InputError(f"no combatant {short_repr(who)}; combatants: {', '.join(names)}", field=field)
    return names.index(who)


def label(enc: LiveEncounter, c: int, stat: str) -> str:
    """The stat's label in the game's words, for combatant c (a per-attack or per-item stat names its attack or
    item)."""
    fight = enc.fight
    attacks = [a.name for a in fight.combatants[c].attacks]
    return label_of(fight.rules.readings, stat, attacks, fight.rules.item_names(fight, c))


def stat_named(enc: LiveEncounter, c: int, given: object) -> str:
    """The stat `given` names for combatant c: its stat or its label in the game's words (any case); else an
    InputError naming `stat` and listing, in the game's words, the stats a GM sets."""
    if isinstance(given, str):
        if given in enc.state.per:
            return given
        for stat in enc.state.per:
            if _names(given, stat, label(enc, c, stat)):
                return stat
    rules = enc.fight.rules
    words = [label(enc, c, s) for s in enc.state.per if rules.stat_range(enc.fight, s) is not None]
    raise InputError(f"no stat {short_repr(given)} that a GM sets; stats: {', '.join(words) or 'none'}", field="stat")


def value_text(enc: LiveEncounter, stat: str, value: int) -> str:
    """A value of the stat as the game reads it: a condition or flag "yes"/"no", a reference the combatant's name
    ("—": none), a number's word, "—" for a stat not tracked, else the number."""
    rules = enc.fight.rules
    return stat_text(rules.readings, stat, value, enc.fight.roster.names, None, rules.narrate_value)


def adjust(enc: LiveEncounter, action: dict[str, Any]) -> list[dict[str, Any]]:
    """A stat set to `value`, or changed `by` an amount, within the game's range for it, with what the game's rules
    make of it (`FightRules.by_hand`: Helpless ended by a heal, a fall at 0, Peril...): one `adjust` event. Health
    stops at 0 and at the combatant's maximum (`health_maximum`) when changed `by` an amount; a `value` past them
    is refused, as is any value out of the stat's range, naming the field and the range in the game's words."""
    c = combatant_index(enc, action.get("combatant"))
    fight, rules = enc.fight, enc.fight.rules
    who, stat = fight.roster.names[c], stat_named(enc, c, action.get("stat"))
    value, by = action.get("value"), action.get("by")
    if (value is None) == (by is None):
        raise InputError("give the new value (`value`) or the change (`by`, e.g. -7), one of the two", field="by")
    before = int(enc.state.per[stat][0, c])
    field = "value" if by is None else "by"
    target = value if by is None else before + by
    if isinstance(target, bool) or not isinstance(target, int):
        raise InputError("must be a whole number", field=field)
    bounds = rules.stat_range(fight, stat)
    name = label(enc, c, stat)
    if bounds is None:
        raise InputError(f"{name} is kept by the game's rules, not set by hand", field="stat")
    reading = reading_of(rules.readings, stat)
    if reading is not None and reading.none is not None and before == reading.none:
        raise InputError(f"{who} has no {name} in this fight (its file gives none)", field="stat")
    how: dict[str, Any] = {} if by is None else {"by": by}
    if stat == rules.health:
        top = rules.health_maximum(fight, c)
        bounds = (bounds[0], min(bounds[1], top))
        if by is not None and not bounds[0] <= target <= bounds[1]:  # healing stops at the maximum, harm at 0
            target = min(max(target, bounds[0]), bounds[1])
            how |= {"stops_at": target, "maximum": target == top}
    if not bounds[0] <= target <= bounds[1]:
        got = f"{before:,} {by:+,} = {target:,}" if by is not None else f"{target:,}"
        raise InputError(f"{name} takes {range_words(bounds)}; got {got}", field=field)
    was, now = value_text(enc, stat, before), value_text(enc, stat, target)
    return _by_hand(enc, c, stat, target, "adjust", combatant=who, label=name, was=was, now=now, **how)


def range_words(bounds: tuple[int, int]) -> str:
    """A stat's range in words: "0 or 1", "0 or more" (no top but what any number may be), "0 to 40"."""
    low, high = bounds
    if high >= ANY_VALUE[1]:
        return f"{low:,} or more" if low > ANY_VALUE[0] else "any whole number"
    if high == low + 1:
        return f"{low:,} or {high:,}"
    return f"{low:,} to {high:,}"


def _by_hand(enc: LiveEncounter, c: int, stat: str, to: int, kind: str, **info: Any) -> list[dict[str, Any]]:
    """One event of the GM's hand: the stat's change and what the game's rules make of it (`FightRules.by_hand`),
    worded from its data (core/fight/gm_words.py): the change's own details (`info`) and the consequences
    (`follows`: whose stat, which, to what, by which clause, and the stat and its values in the game's words)."""
    changes, follows = consequences(enc, c, stat, to)
    ctx = enc._context(np.random.default_rng(0))
    extra: dict[str, Any] = {"follows": follows} if follows else {}
    ctx.emit(kind, changes, **info, **extra)
    enc.state = ctx.state
    return ctx.log


def set_by_hand(enc: LiveEncounter, c: int, stat: str, to: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Combatant c's `stat` set to `to` by hand within another action (a delayed turn's places), applied to the
    encounter's state: the changes (each from the value it finds) and the consequences (`follows`), no event."""
    changes, follows = consequences(enc, c, stat, to)
    done = Event("set", tuple(changes))
    found: list[dict[str, Any]] = enc._context(np.random.default_rng(0)).event_json(done)["changes"]
    enc.state = apply(enc.state, [done])
    return found, follows


def consequences(enc: LiveEncounter, c: int, stat: str, to: int) -> tuple[list[Change], list[dict[str, Any]]]:
    """The changes of combatant c's `stat` set to `to` by hand (`FightRules.by_hand`), and the consequences besides
    that change, as data (`follows`)."""
    fight = enc.fight
    names = fight.roster.names
    changes, follows = [], []
    for it in fight.rules.by_hand(fight, enc.state, c, stat, to):
        if not it.rows.size:
            continue
        whose = it.combatant
        changes.append(change(it.stat, [0], int(it.to[0]), whose))
        if it.stat == stat and whose == c:
            continue
        was = value_text(enc, it.stat, int(enc.state.per[it.stat][0, whose]))
        now = value_text(enc, it.stat, int(it.to[0]))
        follows.append(
            {
                "who": names[whose],
                "stat": it.stat,
                "to": int(it.to[0]),
                "clause": it.clause,
                "label": label(enc, whose, it.stat),
                "was": was,
                "now": now,
            }
        )
    return changes, follows


def settable(enc: LiveEncounter) -> list[tuple[str, str, int]]:
    """The conditions a GM sets and clears: (stat, label, bit) of each reading of kind condition that is on or off
    (bit 1), and of each status of a bitmask the rules name one by one (`FightRules.condition_bits`: the status's
    word and its bit); a stat the rules keep (no range) is none of them."""
    readings, rules = enc.fight.rules.readings, enc.fight.rules
    kept = []
    for stat in enc.state.per:
        reading = reading_of(readings, stat)
        bounds = rules.stat_range(enc.fight, stat)
        if reading is None or reading.kind != "condition" or bounds is None:
            continue
        if reading.named:
            kept += [(stat, word, bit) for word, bit in rules.condition_bits(stat).items()]
        elif bounds[0] <= 0 <= 1 <= bounds[1]:
            kept.append((stat, reading.label, 1))
    return kept


def condition_stat(enc: LiveEncounter, given: str, c: int = 0) -> tuple[str, str, int]:
    """The (stat, word, bit) of a condition a GM sets (`settable`), named by its word (the rulebook's, any case) or
    a 0/1 condition's stat; else an InputError naming `condition` and listing them, in the game's words: a stat that
    is no such condition is named by its label (combatant c's), never by its state key."""
    kept = settable(enc)
    readings = enc.fight.rules.readings
    for stat, word, bit in kept:
        reading = reading_of(readings, stat)
        if _names(given, word if reading is not None and reading.named else stat, word):
            return stat, word, bit
    words = ", ".join(word for _, word, _ in kept) or "none"
    for stat in enc.state.per:
        reading = reading_of(readings, stat)
        name = label(enc, c, stat)
        internal = reading is not None and reading.kind == "internal" and _names(given, stat, reading.label)
        if internal or _names(given, stat, name):
            if internal or enc.fight.rules.stat_range(enc.fight, stat) is None:
                raise InputError(f"{name} is kept by the game's rules, not set by hand", field="condition")
            message = f"{name} is no condition a GM sets (adjust it instead); conditions: {words}"
            raise InputError(message, field="condition")
    raise InputError(f"no condition {short_repr(given)} that a GM sets; conditions: {words}", field="condition")


def _names(given: str, stat: str, word: str) -> bool:
    """`given` names this stat: its stat or its word, in any case."""
    return given.casefold() in (stat.casefold(), word.casefold())


def condition(enc: LiveEncounter, action: dict[str, Any]) -> list[dict[str, Any]]:
    """A condition set (its bit on) or cleared (off): one `condition` event; one already so is refused naming
    `on`."""
    c = combatant_index(enc, action.get("combatant"))
    stat, word, bit = condition_stat(enc, str(action.get("condition")), c)
    on = bool(action.get("on"))
    reading = reading_of(enc.fight.rules.readings, stat)
    who = enc.fight.roster.names[c]
    name = word if reading is not None and reading.named else label(enc, c, stat)
    before = int(enc.state.per[stat][0, c])
    if bool(before & bit) == on:
        raise InputError(f"{who} is {'already' if on else 'not'} {name}", field="on")
    after = before | bit if on else before & ~bit
    return _by_hand(enc, c, stat, after, "condition", combatant=who, condition=name, on=on)


def roll(enc: LiveEncounter, action: dict[str, Any], rng: np.random.Generator) -> list[dict[str, Any]]:
    """Any roll into the log: its expression, label, faces (every die, in the expression's order) and total."""
    text = action.get("expression")
    try:
        expr = parse(text if isinstance(text, str) else "")
    except DiceError as exc:
        raise InputError(exc.message, field="expression") from None
    faces = expr.draw(rng)
    total = expr.read(faces)
    ctx = enc._context(rng)
    ctx.emit("dice", [], expression=expr.text, label=action.get("label"), faces=faces, total=total)
    return ctx.log


def undone(events: Sequence[dict[str, Any]]) -> set[int]:
    """The actions (their first event's number) an undo has taken back."""
    return {int(e["undoes"]) for e in events if e.get("kind") == "undo"}


def hidden(events: Iterable[dict[str, Any]]) -> set[str]:
    """The combatants hidden from the players' view after these events: every combatant not on the first side
    (of the start, or joining), unless a `reveal` not taken back shows it (the last one decides)."""
    items = list(events)
    back = undone(items)
    found: set[str] = set()
    first: str | None = None
    for event in items:
        if event.get("kind") == "undo" or int(event.get("action", event.get("n", 0))) in back:
            continue
        kind = event.get("kind")
        if kind == "start":
            sides = list(event.get("sides", {}).items())
            first = sides[0][0] if sides else None
            found = {n for _, members in sides[1:] for n in members}
        elif kind == "join" and event.get("side") != first:
            found.add(str(event.get("combatant")))
        elif kind == "reveal":
            who = str(event.get("combatant"))
            (found.discard if event.get("to_players") else found.add)(who)
    return found
