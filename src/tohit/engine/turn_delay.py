"""A combatant delays its turn: it acts after the next one this round, or after one named (`after`), where the
game's order allows it (docs/fights.md, "Delaying a turn").

- Where the game orders each fight's round itself (a `turn` stat per combatant, from the game's own roll), the
  one whose turn comes takes its new place and those it passes move up one; the
  order's cursor stays, so the next one acts now. Each place changed is the game master's edit of the `turn` stat
  through the game's own consequences (`FightRules.by_hand`), all in one `delay` event, which undo takes back and
  replay reads as any event. The new order holds until the game orders the round again.
- Where the round goes in the file's order, the order is the fight's, not a place a combatant holds: a 422 in the
  game's words says so, and what the game offers instead (`FightRules.delay_refused`, or ending the turn).
"""

from __future__ import annotations

from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.engine.gm_hand import LiveEncounter, _by_hand, combatant_index

#: The words for a game whose round goes in the file's order and that says nothing of its own.
FILE_ORDER = (
    "{title}'s round goes in the file's order, sides alternating (the page gives no initiative to hold a place in:"
    " docs/{id}.md#silent-turn-order): a turn cannot be delayed; end it instead"
)


def order(enc: LiveEncounter) -> list[int] | None:
    """The round's order (combatant numbers, place by place) where the game keeps it per fight, else None."""
    rules, per = enc.fight.rules, enc.state.per
    if getattr(rules, "static_order", True) is not False or "turn" not in per:
        return None
    row = [int(p) for p in per["turn"][0]]
    return sorted(range(len(row)), key=lambda c: (row[c], c))


def refused(enc: LiveEncounter) -> str | None:
    """The game's words where its order allows no delay (module docstring), else None."""
    if order(enc) is not None:
        return None
    system = enc.fight.system
    return enc.fight.rules.delay_refused or FILE_ORDER.format(title=system.title, id=system.id.replace("_", "-"))


def delay(enc: Any, action: dict[str, Any]) -> list[dict[str, Any]]:
    """The combatant whose turn comes moves after the next one standing (or after `after`): one `delay` event."""
    c = combatant_index(enc, action.get("combatant"))
    names = enc.fight.roster.names
    who = names[c]
    why = refused(enc)
    if why is not None:
        raise InputError(why, field="kind")
    now = enc.next_turn()
    if now != who:
        raise InputError(f"it is {now}'s turn: only the combatant whose turn comes delays", field="combatant")
    places = order(enc)
    assert places is not None  # refused() is None
    at = places.index(c)
    standing = set(enc.standing())
    later = [d for d in places[at + 1 :] if names[d] in standing]
    target = action.get("after")
    if target is None:
        if not later:
            raise InputError(f"{who} acts last this round: nobody to delay after", field="combatant")
        after = later[0]
    else:
        after = combatant_index(enc, target, "after")
        if after not in later:
            raise InputError(
                f"{short_repr(target)} does not act after {who} this round; after: {', '.join(names[d] for d in later)}"
                if later
                else f"{who} acts last this round: nobody to delay after",
                field="after",
            )
    new = [d for d in places if d != c]
    new.insert(new.index(after) + 1, c)
    changes: list[dict[str, Any]] = []
    follows: list[dict[str, Any]] = []
    for place, d in enumerate(new):
        if int(enc.state.per["turn"][0, d]) != place:
            event = _by_hand(enc, d, "turn", place, "delay", "")[0]
            changes += event["changes"]
            follows += event.get("follows", [])
    text = f"{who} delays: acts after {names[after]} this round (the order: {', '.join(names[d] for d in new)})"
    event = {"kind": "delay", "text": text, "changes": changes, "combatant": who, "after": names[after]}
    return [event | ({"follows": follows} if follows else {})]
