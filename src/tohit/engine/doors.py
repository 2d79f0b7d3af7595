"""Doors on an encounter's map: the game master opens or closes one, as an action.

A door's state is a per-fight value of the encounter's state, `door_<i>` (1 closed, 0 open) for the map's
door number i (its place in the map's `doors`), so an open or close is one event changing it, and undo and
replay read it as any change. The rules always see the doors as the state has them: when the state's doors
differ from the loaded fight's, the fight is loaded again from its mapping with those doors (`synced`), so
every map, move, reach and cover line after it follows (each loaded fight keeps its own caches).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import State, change
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.modes import Narration


def map_doors(fight: LoadedFight) -> list[Any]:
    """The doors of the fight's map (none without one)."""
    return list(getattr(getattr(fight.spec, "map", None), "doors", None) or [])


def with_door_stats(fight: LoadedFight, state: State) -> State:
    """The starting state with each door's `door_<i>` (1 closed, 0 open), as the map file gives it."""
    doors = {f"door_{i}": np.full(state.n, int(d.closed), dtype=np.int64) for i, d in enumerate(map_doors(fight))}
    return State(dict(state.per), {**state.fight, **doors}) if doors else state


def map_extras(fight: LoadedFight) -> dict[str, Any]:
    """What the map route adds for a drawn map: the picture (pixels a square; the image is the picture route's)
    and the doors, each with its number, segment and whether it is closed."""
    found = getattr(getattr(fight.spec, "map", None), "picture", None)
    return {
        "picture": None if found is None else {"pixels_per_grid": found.pixels_per_grid},
        "doors": [{"door": i, "segment": list(d.segment), "closed": d.closed} for i, d in enumerate(map_doors(fight))],
    }


def synced(fight: LoadedFight, data: dict[str, Any], state: State, source: str) -> LoadedFight:
    """The fight with its doors as `state` has them (the same fight when they already are)."""
    doors = map_doors(fight)
    wanted = [bool(state.fight[f"door_{i}"][0]) for i in range(len(doors)) if f"door_{i}" in state.fight]
    if len(wanted) != len(doors) or wanted == [d.closed for d in doors]:
        return fight
    mapping = copy.deepcopy(data)
    for door, closed in zip(mapping["map"]["doors"], wanted, strict=True):
        door["closed"] = closed
    return fight_from_dict(mapping, source=source, live=True)


def door_events(fight: LoadedFight, state: State, action: dict[str, Any]) -> tuple[list[dict[str, Any]], State]:
    """The game master opens or closes door `door` (`closed`: true closes it): one event changing `door_<i>`."""
    doors = map_doors(fight)
    i, closed = action.get("door"), action.get("closed")
    if not doors:
        raise InputError("this encounter's map has no doors", field="door")
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(doors):
        raise InputError(f"no door {short_repr(i)}; the map's doors are 0 to {len(doors) - 1}", field="door")
    if not isinstance(closed, bool):
        raise InputError("true to close the door, false to open it", field="closed")
    was = int(state.fight[f"door_{i}"][0])
    if was == int(closed):
        raise InputError(f"door {i} is already {'closed' if closed else 'open'}", field="closed")
    ctx = Narration(fight, state, np.random.default_rng(0))
    ctx.emit("door", [change(f"door_{i}", [0], int(closed))], door=i, doors=len(doors), closed=closed)
    return ctx.log, ctx.state
