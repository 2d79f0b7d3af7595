"""Who the players know of (docs/players.md, "Hidden entirely"): a combatant hidden entirely is absent from every
players' read until the GM brings it in.

- A fight file's `hidden: true` on a combatant: absent from the start (the start event lists it: `hidden`).
- `{"kind": "hide", "combatant"}`: absent from that event on (its numbers kept from the players too).
- `{"kind": "reveal", "combatant", "to_players"}` of an absent combatant brings it in: with `to_players` false,
  present with its numbers kept from the players (a health word); true, present with its numbers shown. Of a
  present one, as before: its numbers shown (true) or kept from the players (false).

Undo takes a hide or a reveal back as any action (its events are undone); who is absent is read from the events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from tohit.core.errors import InputError
from tohit.engine.gm_hand import LiveEncounter, combatant_index, hidden, undone


def absent_at(events: Sequence[dict[str, Any]]) -> list[frozenset[str]]:
    """Per event (by its place in the log), the combatants absent from the players' reads as it happened (a hide
    counts from its own event on, a reveal's event is already told)."""
    back = undone(events)
    found: set[str] = set()
    out: list[frozenset[str]] = []
    for event in events:
        kind = event.get("kind")
        kept = kind != "undo" and int(event.get("action", event.get("n", 0))) not in back
        if kept and kind == "start":
            found = {str(n) for n in event.get("hidden", [])}
        elif kept and kind == "hide":
            found.add(str(event.get("combatant")))
        elif kept and kind == "reveal":
            found.discard(str(event.get("combatant")))
        out.append(frozenset(found))
    return out


def absent(events: Sequence[dict[str, Any]]) -> frozenset[str]:
    """The combatants absent from the players' reads now."""
    found = absent_at(events)
    return found[-1] if found else frozenset()


def secret(events: Iterable[dict[str, Any]]) -> set[str]:
    """The combatants whose numbers the players do not read now: the hidden (`gm_hand.hidden`) and the absent."""
    items = list(events)
    return hidden(items) | absent(items)


def hide(enc: LiveEncounter, action: dict[str, Any]) -> list[dict[str, Any]]:
    """A combatant hidden entirely from the players: one `hide` event (refused for one already absent)."""
    who = enc.fight.roster.names[combatant_index(enc, action.get("combatant"))]
    if who in absent(enc.events):
        raise InputError(f"{who} is already hidden entirely from the players", field="combatant")
    ctx = enc._context(np.random.default_rng(0))
    ctx.emit("hide", [], combatant=who)
    return ctx.log


def reveal(enc: LiveEncounter, action: dict[str, Any]) -> list[dict[str, Any]]:
    """A combatant brought in (an absent one) or shown to the players (`to_players`), or its numbers kept from
    them: one `reveal` event."""
    who = enc.fight.roster.names[combatant_index(enc, action.get("combatant"))]
    shown = bool(action.get("to_players"))
    gone = who in absent(enc.events)
    if not gone and (who not in hidden(enc.events)) == shown:
        raise InputError(f"{who} is {'already' if shown else 'not'} shown to the players", field="to_players")
    ctx = enc._context(np.random.default_rng(0))
    ctx.emit("reveal", [], combatant=who, to_players=shown, brought_in=gone)
    return ctx.log
