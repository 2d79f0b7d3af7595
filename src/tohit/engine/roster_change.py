"""A combatant joins or leaves a live encounter mid-fight: the roster changes.

The fight is rebuilt from its file with the combatants now present (each side's members as listed), by the game's
own loading and checks (`fight_from_dict`): a newcomer is a fight file's combatant, refused naming the field as a
fight file's would be. The state carries over by name: every stat a combatant had keeps its value; a newcomer's
(and a stat new to the fight, e.g. a second weapon's) is its starting value, as the game's `initial` gives it.
Values that name another combatant (the game's readings of kind reference, by index or by bit) are read again by
name, and the turn order keeps its place (docs/fights.md, "Joining and leaving"):

- where the game's round goes in the file's order (sides alternating), the newcomer takes the place the file would
  give it (after its side's last) and the round goes on from the same combatant: a newcomer whose place is still to
  come this round acts in it;
- where the game orders each fight's round itself (an initiative roll: a `turn` stat per combatant), or the game
  master delayed a turn in a round kept in the file's order (core/fight/order.py), the newcomer acts last, after
  every combatant already placed, from the round it joins; a kept order no delay moved is the file's again;
- a combatant that leaves gives up its place; the round goes on from the same combatant (or the one after it).

The event of a roster change holds the new `sides` and the whole `state` after it (and a join, the combatant's
file block), so `Encounter.restore` and `tohit replay` rebuild the fight from the log alone; an undo of one holds
the sides and state before it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tohit.core.errors import InputError, short_repr
from tohit.core.fight import order
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.gm_words import written
from tohit.core.fight.readings import reading_of
from tohit.core.fight.state import State
from tohit.engine.doors import with_door_stats
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.gm_hand import LiveEncounter

#: The event kinds that change the roster (an undo of one carries `sides` and `state` too).
ROSTER_KINDS = ("join", "leave")


def blocks_of(data: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every combatant's file block: the file's, and each newcomer's from its join event."""
    found = {str(c["name"]): dict(c) for side in data["sides"] for c in side["combatants"]}
    for event in events:
        if event.get("kind") == "join" and isinstance(event.get("block"), dict):
            found[str(event["combatant"])] = dict(event["block"])
    return found


def mapping_for(
    data: Mapping[str, Any], sides: Mapping[str, Sequence[str]], blocks: Mapping[str, Any]
) -> dict[str, Any]:
    """The fight file `data` with each side's combatants as `sides` lists them (blocks by name)."""
    found = copy.deepcopy(dict(data))
    by_name = {str(s["name"]): s for s in found["sides"]}
    found["sides"] = [{**by_name[name], "combatants": [copy.deepcopy(blocks[n]) for n in members]}
                      for name, members in sides.items()]  # fmt: skip
    return found


def fight_for(
    data: Mapping[str, Any], sides: Mapping[str, Sequence[str]], blocks: Mapping[str, Any], source: str
) -> LoadedFight:
    """The fight of `data` with each side's combatants as `sides` lists them (blocks by name)."""
    return fight_from_dict(mapping_for(data, sides, blocks), source=source, live=True)


def current_mapping(data: dict[str, Any], fight: LoadedFight, events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The fight file `fight` plays now: `data` itself, or after a join or a leave, `data` with the sides as the
    roster has them (a newcomer's block from its join event, which `events` must hold)."""
    sides = sides_of(fight)
    if sides == {str(s["name"]): [str(c["name"]) for c in s["combatants"]] for s in data["sides"]}:
        return data
    return mapping_for(data, sides, blocks_of(data, events))


def sides_of(fight: LoadedFight) -> dict[str, list[str]]:
    roster = fight.roster
    return {
        side: [n for n, s in zip(roster.names, roster.side, strict=True) if s == i]
        for i, side in enumerate(roster.side_names)
    }


def state_from_row(fight: LoadedFight, row: Mapping[str, Any]) -> State:
    """A state of `fight` from a logged row (`{"fight", "combatants"}`)."""
    names = fight.roster.names
    stats = list(row["combatants"][names[0]]) if names else []
    per = {k: np.asarray([[int(row["combatants"][n][k]) for n in names]], dtype=np.int64) for k in stats}
    return State(per, {k: np.asarray([int(v)], dtype=np.int64) for k, v in row["fight"].items()})


def _order(enc: LiveEncounter, fight: LoadedFight, state: State) -> list[str]:
    """Who acts at each place of the round (the file's order, or the `turn` stat's)."""
    return [fight.roster.names[c] for c in order.round_order(fight, state)]


def carried(enc: LiveEncounter, new: LoadedFight, newcomer: str | None) -> State:
    """The state of the rebuilt fight `new`: each stat by name from the encounter's, a newcomer's (and a new
    stat's) at its start; references read again by name; the round's order and cursor kept (module docstring); each
    door as the encounter has it."""
    old_fight, old = enc.fight, enc.state
    old_names, names = old_fight.roster.names, new.roster.names
    start = with_door_stats(new, initial_state(new, 1))
    readings = new.rules.readings
    per: dict[str, np.ndarray[Any, Any]] = {}
    for stat, values in start.per.items():
        row = values[0].copy()
        reading = reading_of(readings, stat)
        for c, name in enumerate(names):
            if name not in old_names or stat not in old.per:
                continue
            value = int(old.per[stat][0, old_names.index(name)])
            if reading is not None and reading.kind == "reference":
                was = [
                    old_names[i] for i in range(len(old_names)) if (value >> i & 1 if reading.bits else value == i + 1)
                ]
                kept = [names.index(n) for n in was if n in names]
                value = sum(1 << i for i in kept) if reading.bits else (kept[0] + 1 if kept else 0)
            row[c] = value
        per[stat] = row[None, :]
    fights = {k: np.asarray([int(old.fight[k][0]) if k in old.fight else int(v[0])], dtype=np.int64)
              for k, v in start.fight.items()}  # fmt: skip
    before = _order(enc, old_fight, old)
    rolled = getattr(new.rules, "static_order", True) is False
    files = [names[c] for c in new.file_order]
    if order.TURN in per and (rolled or before != [old_names[c] for c in old_fight.file_order]):
        after = [n for n in before if n in names] + ([newcomer] if newcomer else [])  # kept, the newcomer last
    else:  # the file's order (a kept one no delay moved is the file's again)
        after = files
    if order.TURN in per:
        per[order.TURN] = np.asarray([[after.index(n) for n in names]], dtype=np.int64)
    if "cursor" in fights:
        cursor = int(fights["cursor"][0])
        still = [n for n in before[cursor:] if n in names]
        fights["cursor"] = np.asarray([after.index(still[0]) if still else len(after)], dtype=np.int64)
    return State(per, fights)


def join(enc: LiveEncounter, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Combatants join as a GM adds them (`newcomers`): one `join` event each, all in the one action."""
    events: list[dict[str, Any]] = []
    earlier: dict[str, dict[str, Any]] = {}  # the blocks of those who joined before in this action
    for side, block in newcomers(enc, action):
        events += join_one(enc, {"side": side, "combatant": block}, earlier)
        earlier[block["name"]] = block
    return events


def newcomers(enc: LiveEncounter, action: dict[str, Any]) -> list[tuple[Any, Any]]:
    """(side, file block) of each newcomer: the block given; a copy of a combatant in the fight (`copy_of`, on its
    side unless one is given); or one of the fight file's `bestiary` by name. `count` of them, numbered after the
    name as a GM numbers creatures ("Bandit chief" -> "Bandit chief 2", "Bandit chief 3"; "Bokoblin 2" ->
    "Bokoblin 3"), each name one no combatant has had in this fight; `name`, the GM's own name for them."""
    side, block, copy_of = action.get("side"), action.get("combatant"), action.get("copy_of")
    given = isinstance(block, dict)  # a block given whole keeps its name (a name taken is refused)
    count = int(action.get("count") or 1)
    if copy_of is not None:
        if block is not None:
            raise InputError("give the newcomer (`combatant`) or whom to copy (`copy_of`), not both", field="copy_of")
        names = enc.fight.roster.names
        if copy_of not in names:
            raise InputError(f"no combatant {short_repr(copy_of)}; combatants: {', '.join(names)}", field="copy_of")
        block = copy.deepcopy(blocks_of(enc.data, enc.events)[copy_of])
        if side is None:
            side = next(s for s, members in sides_of(enc.fight).items() if copy_of in members)
    elif isinstance(block, str):
        bestiary = {str(b.get("name")): b for b in enc.data.get("bestiary") or [] if isinstance(b, dict)}
        if block not in bestiary:
            kept = ", ".join(bestiary) or "none (the fight file has no `bestiary`)"
            raise InputError(f"no creature {short_repr(block)} in the bestiary; bestiary: {kept}", field="combatant")
        block = copy.deepcopy(bestiary[block])
    if side is None:
        raise InputError(f"the side it joins; sides: {', '.join(sides_of(enc.fight))}", field="side")
    if not isinstance(block, dict) or not isinstance(block.get("name"), str):
        raise InputError("a fight file's combatant, with its name", field="combatant")
    if action.get("name"):  # the GM's own name for it (numbered from it when several join)
        block = {**block, "name": str(action["name"]).strip()}
    taken = set(blocks_of(enc.data, enc.events))
    own = block["name"] not in taken and (copy_of is None or bool(action.get("name")))
    if count == 1 and (given or own):
        return [(side, block)]
    return [(side, {**copy.deepcopy(block), "name": name}) for name in numbered(str(block["name"]), taken, count)]


def numbered(name: str, taken: set[str], count: int) -> list[str]:
    """`count` new names after `name`'s base ("Bokoblin 2" -> "Bokoblin"): the base itself where no one has it or
    a numbered one, else the numbers after the highest taken (the base alone counts as 1)."""
    base, _, last = name.rpartition(" ")
    if not (base and last.isdigit()):
        base = name
    numbers = [1 if n == base else int(n[len(base) + 1 :]) for n in taken
               if n == base or (n.startswith(base + " ") and n[len(base) + 1 :].isdigit())]  # fmt: skip
    first = max(numbers, default=0) + 1
    names = [] if numbers else [base]
    return names + [f"{base} {k}" for k in range(max(first, 2), max(first, 2) + count - len(names))]


def join_one(
    enc: LiveEncounter, action: dict[str, Any], earlier: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """A combatant joins on a side: one `join` event with its file block, the new sides and the state (`earlier`:
    the blocks of newcomers of the same action, not yet in the events)."""
    side, block = action.get("side"), action.get("combatant")
    sides = sides_of(enc.fight)
    if side not in sides:
        raise InputError(f"no side {short_repr(side)}; sides: {', '.join(sides)}", field="side")
    if not isinstance(block, dict) or not isinstance(block.get("name"), str):
        raise InputError("a fight file's combatant, with its name", field="combatant")
    name = block["name"]
    if name in enc.fight.roster.names:
        raise InputError(f"{name} is already in the fight: give the newcomer its own name", field="combatant.name")
    sides[str(side)].append(name)
    blocks = {**blocks_of(enc.data, enc.events), **(earlier or {}), name: block}
    try:
        new = fight_for(enc.data, sides, blocks, enc.fight.source)
    except InputError as exc:
        where = f"sides[{list(sides).index(str(side))}].combatants[{len(sides[str(side)]) - 1}]"
        field = exc.field or ""
        field = "combatant" + field[len(where) :] if field.startswith(where) else (field or "combatant")
        raise InputError(exc.message, field=field) from None
    state = carried(enc, new, name)
    event = {
        "kind": "join",
        "text": "",
        "combatant": name,
        "side": side,
        "block": block,
        "sides": sides,
        "state": state.row(new.roster),
        "changes": [],
    }
    enc.fight, enc.state = new, state
    return [written(event, new.rules.gm_phrases)]


def leave(enc: LiveEncounter, action: dict[str, Any]) -> list[dict[str, Any]]:
    """A combatant leaves: one `leave` event with the new sides and the state."""
    name = action.get("combatant")
    names = enc.fight.roster.names
    if not isinstance(name, str) or name not in names:
        raise InputError(f"no combatant {short_repr(name)}; combatants: {', '.join(names)}", field="combatant")
    sides = sides_of(enc.fight)
    side = next(s for s, members in sides.items() if name in members)
    if len(sides[side]) == 1:
        raise InputError(f"{name} is the last of {side}: a side keeps one combatant at least", field="combatant")
    sides[side].remove(name)
    new = fight_for(enc.data, sides, blocks_of(enc.data, enc.events), enc.fight.source)
    state = carried(enc, new, None)
    event = {
        "kind": "leave",
        "text": "",
        "combatant": name,
        "side": side,
        "sides": sides,
        "state": state.row(new.roster),
        "changes": [],
    }
    enc.fight, enc.state = new, state
    return [written(event, new.rules.gm_phrases)]
