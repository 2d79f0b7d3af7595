"""The party's sight read from an encounter's events (issue 37, item 5; engine/vision.py): each character sees from
every square of its footprint, a newcomer on the first side sees as it joins, and an undone action's sight does
not stay explored."""

from __future__ import annotations

import copy
from typing import Any

import yaml

from tests.conftest import EXAMPLES
from tohit.engine.encounter import Encounter
from tohit.engine.vision import vision

#: rtw-map's fight on a 9 x 3 map cut by a wall down x = 4 (open at its foot): Link west of it, the foes east.
FIGHT: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())


def walled(wall: list[int] | None = None, **spots: list[int]) -> dict[str, Any]:
    fight = copy.deepcopy(FIGHT)
    fight["map"] = {"width": 9, "height": 3, "walls": [wall or [4, 0, 4, 2]]}
    where = {"Link": [0, 0], "Zelda": [1, 0], "Bokoblin": [6, 0], "Bokoblin Archer": [7, 0], "Moblin": [8, 2]}
    for side in fight["sides"]:
        for c in side["combatants"]:
            c["position"] = spots.get(c["name"], where[c["name"]])
    return fight


def test_vision_a_large_character_sees_from_each_of_its_squares() -> None:
    fight = walled([4, 0, 4, 1], Link=[0, 0], Zelda=[2, 0])  # a short wall beside row 0
    assert not vision(Encounter.create(fight, seed=1)).seen[0, 5]  # (5, 0) behind it from (0, 0) and (2, 0)
    fight["sides"][0]["combatants"][1]["size"] = "large"  # Zelda on (2, 0) to (3, 1)
    assert vision(Encounter.create(fight, seed=1)).seen[0, 5]  # seen from (3, 1), under the wall's end


def test_vision_a_newcomer_on_the_first_side_sees_as_it_joins() -> None:
    enc = Encounter.create(walled(), seed=1)
    assert not vision(enc).seen[0, 8]
    enc.act({"kind": "join", "side": "Heroes", "combatant": {**FIGHT["sides"][0]["combatants"][0], "name": "Sidon",
                                                              "position": [8, 1]}})  # fmt: skip
    found = vision(enc)
    assert found.party == ["Link", "Zelda", "Sidon"] and found.seen[0, 8]


def test_vision_an_undone_move_leaves_nothing_explored() -> None:
    enc = Encounter.create(walled(), seed=1)
    before = vision(enc).explored.copy()
    enc.act({"kind": "move", "combatant": "Link", "to": [3, 2]})
    enc.act({"kind": "move", "combatant": "Link", "to": [5, 2]})  # round the wall's foot: the east side seen
    assert vision(enc).explored.sum() > before.sum()
    enc.act({"kind": "undo"})
    enc.act({"kind": "undo"})
    assert (vision(enc).explored == before).all()
