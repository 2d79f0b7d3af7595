"""Doors at the table (issue 32): the game master opens or closes a door as an action, one event changing the
door's value; the rules see the door as the state has it (a move, a Projectile), and undo and a restore from the
stored events read it as any change."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tests.grid.uvtt_fixtures import cellar, cellar_fight
from tohit.core.errors import InputError
from tohit.core.grid.uvtt import inline_map_fields
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained, replay
from tohit.server import read_models

FIGHT = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())
SPOTS = {"Link": [4, 1], "Zelda": [0, 3], "Bokoblin": [0, 0], "Bokoblin Archer": [8, 0], "Moblin": [7, 3]}


def fight() -> dict[str, Any]:
    return {**cellar_fight(SPOTS), "map": inline_map_fields(cellar(door_closed=True))}


def test_opening_a_door_is_one_event_and_the_rules_follow_it() -> None:
    enc = Encounter.create(fight())
    assert enc.state_json()["fight"]["door_0"] == 1
    with pytest.raises(InputError) as refused:
        enc.fork().act({"kind": "move", "combatant": "Link", "to": [6, 1]})
    assert refused.value.field == "to"
    events = enc.act({"kind": "door", "door": 0, "closed": False})
    assert [e["kind"] for e in events] == ["door"]
    assert events[0]["changes"] == [{"who": None, "stat": "door_0", "from": 1, "to": 0}]
    assert "opens door 1" in events[0]["text"]
    view = read_models.map_view(enc, "Link", None, None)
    assert view["doors"][0]["closed"] is False and len(view["walls"]) == 7
    enc.act({"kind": "move", "combatant": "Link", "to": [6, 1]})  # through the open door
    again = Encounter.restore(enc.data, enc.events)
    assert read_models.map_view(again, "Link", None, None)["doors"][0]["closed"] is False
    enc.act({"kind": "undo"})  # the move
    enc.act({"kind": "undo"})  # the door
    assert enc.state_json()["fight"]["door_0"] == 1
    assert read_models.map_view(enc, "Link", None, None)["doors"][0]["closed"] is True


def test_a_bad_door_action_names_its_field() -> None:
    enc = Encounter.create(fight())
    for action, field in (
        ({"kind": "door", "door": 3, "closed": False}, "door"),
        ({"kind": "door", "door": 0, "closed": "yes"}, "closed"),
        ({"kind": "door", "door": 0, "closed": True}, "closed"),  # already closed
    ):
        with pytest.raises(InputError) as refused:
            enc.fork().act(action)
        assert refused.value.field == field
    plain = Encounter.create(FIGHT)
    with pytest.raises(InputError) as refused:
        plain.act({"kind": "door", "door": 0, "closed": False})
    assert refused.value.field == "door"


@pytest.mark.parametrize("door_first", [True, False])
def test_a_door_and_a_newcomer_both_stay_whatever_their_order(door_first: bool, tmp_path: Path) -> None:
    """A door opened before or after a combatant joins: the fight keeps the newcomer and the open door, live, when
    restored from the stored events, and in `tohit replay` of the exported log."""
    enc = Encounter.create(fight())
    heroes = enc.fight.roster.side_names[0]
    newcomer = copy.deepcopy(FIGHT["sides"][0]["combatants"][0])
    newcomer.update(name="Impa", position=[1, 3])
    door: dict[str, Any] = {"kind": "door", "door": 0, "closed": False}
    join: dict[str, Any] = {"kind": "join", "side": heroes, "combatant": newcomer}
    for action in (door, join) if door_first else (join, door):
        enc.act(action)
    again = Encounter.restore(enc.data, enc.events)
    for found in (enc, again):
        assert "Impa" in found.fight.roster.names
        assert found.state_json()["fight"]["door_0"] == 0
        assert read_models.map_view(found, "Link", None, None)["doors"][0]["closed"] is False
        assert "Impa" in found.state_json()["combatants"]
    log = tmp_path / "events.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in chained(enc.exported())))
    found = replay(log)
    assert found.matches and not found.mismatches
