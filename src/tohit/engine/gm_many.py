"""The GM's hand on several combatants at once, and the GM's notes (engine/gm_hand.py does one at a time).

- `adjust` or `condition` with `combatants: [..]`: each one's change as the single action makes it (through the
  game's own consequences, `FightRules.by_hand`, each on the state the ones before it leave), in ONE event: its
  changes in order, its text each change's words joined, `each` the list of them (who and its words). One refused
  refuses them all, naming `combatants.<i>` (nothing half-written: the encounter acts on a fork).
- `note`: the GM's note on a combatant ("flees below 10 LP"): an event that changes no stat; the last note not
  taken back is the combatant's (an empty text clears it). Shown on the GM's card, never to the players
  (server/players_view.py keeps only that a note was written).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from tohit.core.errors import InputError
from tohit.core.fight.gm_words import written
from tohit.engine.gm_hand import LiveEncounter, combatant_index, undone

#: The longest note kept (characters).
MAX_NOTE = 500


def many(
    enc: LiveEncounter, action: dict[str, Any], one: Callable[[LiveEncounter, dict[str, Any]], list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The action `one` plays for a single combatant, played for each of `combatants` in turn: one event."""
    names = action.get("combatants") or []
    if action.get("combatant") is not None:
        raise InputError("name one `combatant` or several `combatants`, not both", field="combatants")
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise InputError(f"{twice} is named twice: name each combatant once", field="combatants")
    changes: list[dict[str, Any]] = []
    each: list[dict[str, Any]] = []
    follows: list[dict[str, Any]] = []
    kind = str(action["kind"])
    for i, who in enumerate(names):
        single = {k: v for k, v in action.items() if k != "combatants"} | {"combatant": who}
        try:
            combatant_index(enc, who)
            events = one(enc, single)
        except InputError as exc:
            raise InputError(f"{who}: {exc.message}", field=f"combatants.{i}") from None
        for event in events:
            changes += event["changes"]
            follows += event.get("follows", [])
            each.append(
                {"combatant": who, "text": event["text"], **{k: event[k] for k in ("condition", "on") if k in event}}
            )
    info = {k: v for k, v in action.items() if k not in ("kind", "seed", "combatant")}
    event = {"kind": kind, "text": "", "changes": changes, **info, "each": each}
    if follows:
        event["follows"] = follows
    return [written(event, enc.fight.rules.gm_phrases)]


def note(enc: LiveEncounter, action: dict[str, Any]) -> list[dict[str, Any]]:
    """The GM's note on a combatant: one `note` event, no stat changed; the same note again is refused naming
    `text`."""
    c = combatant_index(enc, action.get("combatant"))
    who = enc.fight.roster.names[c]
    text = str(action.get("text") or "").strip()
    if len(text) > MAX_NOTE:
        raise InputError(f"a note of at most {MAX_NOTE} characters", field="text")
    if notes(enc.events).get(who, "") == text:
        raise InputError(f"{who}'s note already reads so" if text else f"{who} has no note", field="text")
    ctx = enc._context(np.random.default_rng(0))
    ctx.emit("note", [], combatant=who, note=text)
    return ctx.log


def notes(events: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Each combatant's note now: the last `note` event's not taken back (none where its text is empty)."""
    items = list(events)
    back = undone(items)
    found: dict[str, str] = {}
    for event in items:
        if event.get("kind") != "note" or int(event.get("action", event.get("n", 0))) in back:
            continue
        found[str(event.get("combatant"))] = str(event.get("note") or "")
    return {who: text for who, text in found.items() if text}
