"""The map as the players see it (docs/maps.md, "Vision"): only what their characters see (`engine.vision`).

Every map answer carries `sight` (`read_models.map_view`): the party (the players' characters) and one string per
row of the map, a square "2" seen now, "1" seen before (explored), "0" never seen. The GM's map shows everything
and outlines the party's sight from it; the players' map (`for_players`, after the players' view has taken out
what it hides):

- the creatures standing on a square seen now, and no other (a creature out of sight is not on the map at all:
  not where it stood when last seen, as no token is left behind in a virtual tabletop's fog);
- the solid squares, walls and doors of the explored squares only (a wall or door is kept when a square beside
  one of its ends or its middle is explored): the layout of the rooms never seen stays dark;
- the attack placed only as far as it is seen: the squares it covers that are seen, the creatures it reaches and
  their cover lines only for creatures in sight; the attack of a creature out of sight not at all (its squares
  would say where it stands).

The picture under the map follows the same rule (`fogged`): a square never seen is black in the players' picture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tohit.engine.encounter import Encounter
from tohit.engine.vision import vision
from tohit.server.errors import ApiError

#: What a map answer says about the attack placed, left out when its attacker is out of the party's sight.
_UNSEEN_ATTACK: dict[str, Any] = {"squares": [], "reached": [], "cover": {}, "placement": {}}


def _near(segment: Sequence[float]) -> list[list[int]]:
    """The squares beside a segment's ends and middle (those whose corner or side they lie on)."""
    x0, y0, x1, y1 = (float(v) for v in segment)
    found: list[list[int]] = []
    for x, y in ((x0, y0), (x1, y1), ((x0 + x1) / 2, (y0 + y1) / 2)):
        for sx in {math.floor(x), math.ceil(x) - 1}:
            for sy in {math.floor(y), math.ceil(y) - 1}:
                found.append([sx, sy])
    return found


def for_players(enc: Encounter, found: dict[str, Any]) -> dict[str, Any]:
    """The players' map answer (module docstring): only what the party sees, and the layout it has explored."""
    seen = vision(enc)
    creatures = [c for c in found["creatures"] if seen.sees(c["squares"])]
    names = {c["name"] for c in creatures}
    out = {
        **found,
        "creatures": creatures,
        "solid": [sq for sq in found["solid"] if seen.knows([sq])],
        "walls": [w for w in found["walls"] if seen.knows(_near(w))],
        "doors": [d for d in found["doors"] if seen.knows(_near(d["segment"]))],
        "sight": seen.to_json(),
    }
    if found.get("attacker") not in names:
        return {**out, **_UNSEEN_ATTACK}
    return {
        **out,
        "squares": [sq for sq in found["squares"] if seen.sees([sq])],
        "reached": [n for n in found["reached"] if n in names],
        "cover": {n: c for n, c in found["cover"].items() if n in names},
    }


def refuse_aim_out_of_sight(enc: Encounter) -> None:
    """Best aim for the players: refused (403 on `attack`) while a creature stands out of the party's sight (a
    placement's squares and the creatures it reaches would say where it stands)."""
    seen = vision(enc)
    rules = enc.fight.system.map_rules()
    data = rules.fight_scenario(enc.fight, enc.state, 0, 0, None) if rules is not None else None
    if rules is None or data is None:
        return
    unseen = [c.name for c in rules.view(data, place=False).field.creatures if not seen.sees(c.footprint.squares())]
    if unseen:
        message = "best aim would tell where creatures out of the party's sight stand: only the GM token asks it"
        raise ApiError(403, message, "attack")
