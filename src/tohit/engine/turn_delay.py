"""A combatant delays its turn: it acts after the next one this round, or after one named (`after`), where the
game's order allows it (docs/fights.md, "The evening's tools": Delay).

- Where the fight keeps its round's order (a `turn` stat per combatant: core/fight/order.py), either rolled by the
  game (an Initiative) or the file's order a live encounter keeps as its own (`FightRules.keeps_order`: a game
  whose page gives no turn order and forbids no delay), the one whose turn comes takes its new place and those it
  passes move up one; the order's cursor stays, so the next one acts now. Where the round goes round its order
  (`FightRules.order_goes_round`: again and again until nobody can act), the one after may have a place before its
  own: the cursor then moves to the next one's new place. Each place changed is the
  game master's edit of the `turn` stat through the game's own consequences (`FightRules.by_hand`), all in one
  `delay` event, which undo takes back and replay reads as any event. The new order holds until the game orders
  the round again (a rolled order) or for the rest of the fight (a kept one).
- Where the round goes in the file's order and the game keeps no order of its own, the order is the fight's, not a
  place a combatant holds: a 422 in the game's words says so, and what the game offers instead
  (`FightRules.delay_refused`, or ending the turn).
"""

from __future__ import annotations

from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.gm_words import written
from tohit.core.fight.order import kept, round_order
from tohit.core.fight.state import Event, apply, change
from tohit.engine.gm_hand import LiveEncounter, combatant_index, set_by_hand

#: The words for a game whose round goes in the file's order and that says nothing of its own.
FILE_ORDER = (
    "{title}'s round goes in the file's order, sides alternating (the page gives no initiative to hold a place in:"
    " docs/{id}.md#silent-turn-order): a turn cannot be delayed; end it instead"
)


def order(enc: LiveEncounter) -> list[int] | None:
    """The round's order (combatant numbers, place by place) where the fight keeps it, else None."""
    return round_order(enc.fight, enc.state) if kept(enc.state) else None


def refused(enc: LiveEncounter) -> str | None:
    """The game's words where its order allows no delay (module docstring), else None."""
    if order(enc) is not None:
        return None
    system = enc.fight.system
    return enc.fight.rules.delay_refused or FILE_ORDER.format(title=system.title, id=system.id.replace("_", "-"))


def choices(enc: Any) -> list[str]:
    """Whom the combatant whose turn comes may delay after now, in the order their turns come (none where the
    order allows no delay, or nobody's turn comes)."""
    places, now = order(enc), enc.next_turn()
    if places is None or now is None:
        return []
    names = enc.fight.roster.names
    return [names[d] for d in _later(enc, places, names.index(now))]


def delay(enc: Any, action: dict[str, Any]) -> list[dict[str, Any]]:
    """The combatant whose turn comes moves after the next one who may act (or after `after`): one `delay` event."""
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
    later = _later(enc, places, c)
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
            made, then = set_by_hand(enc, d, "turn", place)
            changes += made
            follows += then
    if enc.fight.rules.order_goes_round:
        changes += _cursor_to(enc, new.index(later[0]))
    event = {"kind": "delay", "text": "", "changes": changes, "combatant": who, "after": names[after]}
    event |= {"order": [names[d] for d in new]} | ({"follows": follows} if follows else {})
    return [written(event, enc.fight.rules.gm_phrases)]


def _later(enc: Any, places: list[int], c: int) -> list[int]:
    """Those who may still act this round after c, in the order their turns come (`FightRules.may_act`): the places
    after c's, and where the round goes round its order, then those before it."""
    rules = enc.fight.rules
    at = places.index(c)
    ahead = places[at + 1 :] + (places[:at] if rules.order_goes_round else [])
    able = rules.may_act(enc.fight, enc.state)[0]
    return [d for d in ahead if bool(able[d])]


def _cursor_to(enc: Any, place: int) -> list[dict[str, Any]]:
    """The order's cursor set to `place` (applied to the encounter's state), as an event's changes; none where it
    is there already."""
    if int(enc.state.fight["cursor"][0]) == place:
        return []
    before = int(enc.state.fight["cursor"][0])
    enc.state = apply(enc.state, [Event("cursor", (change("cursor", [0], place),))])
    return [{"who": None, "stat": "cursor", "from": before, "to": place}]
