"""A combatant joins or leaves a live encounter mid-fight (issue 29): placed in the turn order as the game places a
newcomer, each one event that undo takes back, and a log with every new action kind replays with `tohit replay`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained, replay
from tohit.server import read_models


def data(name: str) -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text())
    return found


def newcomer(d: dict[str, Any], side: int = 1, name: str = "Newcomer") -> dict[str, Any]:
    """A copy of the side's first combatant, renamed."""
    return {**d["sides"][side]["combatants"][0], "name": name}


def exported_and_replayed(enc: Encounter, tmp_path: Path) -> Path:
    """The encounter's export written as `tohit replay` reads it: it replays, every event checked and its closing
    state matching, and the command exits 0. Its path."""
    log = tmp_path / "events.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in chained(enc.exported())))
    found = replay(log)
    assert found.matches and not found.mismatches
    result = CliRunner().invoke(app, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    return log


FIGHTS = ["rtw-bokoblin-camp", "kaiser-duel", "last-odyssey-cops", "wsswnn-kulu-brute", "fullplate-skirmish"]


@pytest.mark.parametrize("name", FIGHTS)
def test_join_adds_a_combatant_mid_fight_that_then_acts_and_is_attacked(name: str) -> None:
    """`{"kind": "join", "side", "combatant"}`: one `join` event holding the combatant's file block; the
    newcomer is in the fight (its starting stats as the game gives them), takes its turns, and the fight rebuilt
    from the log (`Encounter.restore`) is the same."""
    d = data(name)
    enc = Encounter.create(d, seed=2)
    enc.act({"kind": "auto"})
    side = enc.fight.roster.side_names[1]
    block = newcomer(d)
    (event,) = enc.act({"kind": "join", "side": side, "combatant": block})
    assert event["kind"] == "join" and event["block"] == block and "Newcomer" in event["sides"][side]
    assert "Newcomer" in enc.fight.roster.names and "Newcomer" in enc.standing()
    acted = []
    for _ in range(12):
        if enc.over:
            break
        acted += [e.get("attacker") for e in enc.act({"kind": "auto"})]
    assert "Newcomer" in acted
    again = Encounter.restore(d, enc.events)
    assert again.state_json() == enc.state_json() and again.fight.roster == enc.fight.roster


@pytest.mark.parametrize("name", FIGHTS)
def test_leave_takes_a_combatant_out_and_undo_brings_it_back(name: str) -> None:
    """`{"kind": "leave", "combatant"}`: it no longer acts nor counts; undo brings it back with its stats."""
    d = data(name)
    enc = Encounter.create(d, seed=2)
    enc.act({"kind": "join", "side": enc.fight.roster.side_names[1], "combatant": newcomer(d)})
    before = enc.state_json()
    first = enc.fight.roster.names[0]
    with pytest.raises(InputError):
        enc.act({"kind": "leave", "combatant": "Nobody"})
    (event,) = enc.act({"kind": "leave", "combatant": "Newcomer"})
    assert event["kind"] == "leave" and "Newcomer" not in enc.fight.roster.names
    assert "Newcomer" not in enc.state_json()["combatants"]
    enc.act({"kind": "undo"})
    assert enc.state_json() == before and first in enc.fight.roster.names
    enc.act({"kind": "undo"})  # the join taken back
    assert "Newcomer" not in enc.fight.roster.names
    assert Encounter.restore(d, enc.events).state_json() == enc.state_json()


def test_join_a_bad_combatant_is_refused_naming_its_field() -> None:
    d = data("kaiser-duel")
    enc = Encounter.create(d, seed=2)
    side = enc.fight.roster.side_names[0]
    with pytest.raises(InputError) as err:
        enc.act({"kind": "join", "side": "Nobody", "combatant": newcomer(d)})
    assert err.value.field == "side"
    with pytest.raises(InputError) as err:
        enc.act({"kind": "join", "side": side, "combatant": newcomer(d, name=enc.fight.roster.names[0])})
    assert err.value.field == "combatant.name"
    with pytest.raises(InputError) as err:
        enc.act({"kind": "join", "side": side, "combatant": {**newcomer(d), "banana": 1}})
    assert err.value.field is not None and err.value.field.startswith("combatant")
    assert enc.seq == len(enc.events) - 1 and "Newcomer" not in enc.fight.roster.names


def test_leave_the_last_of_a_side_is_refused() -> None:
    enc = Encounter.create(data("kaiser-duel"), seed=2)
    with pytest.raises(InputError) as err:
        enc.act({"kind": "leave", "combatant": enc.fight.roster.names[0]})
    assert err.value.field == "combatant"


def test_a_newcomer_in_a_rolled_order_acts_last_in_the_round() -> None:
    """Where the game rolls each fight's order (wsswnn's initiative), the newcomer's place is after every other's."""
    d = data("wsswnn-kulu-brute")
    enc = Encounter.create(d, seed=2)
    enc.act({"kind": "join", "side": "Kulu brute", "combatant": newcomer(d)})
    assert read_models.sheet(enc)["order"][-1] == "Newcomer"


def test_a_log_with_every_new_action_kind_replays_with_tohit_replay(tmp_path: Path) -> None:
    """adjust by, join, leave, condition, dice, reveal (and undo of each kind): the exported log replays, every
    event checked, its closing state matching."""
    d = data("wsswnn-kulu-brute")
    enc = Encounter.create(d, seed=4)
    actions: list[dict[str, Any]] = [
        {"kind": "auto"},
        {"kind": "adjust", "combatant": "Wandu", "stat": "life", "by": -3},
        {"kind": "join", "side": "Kulu brute", "combatant": newcomer(d)},
        {"kind": "auto"},
        {"kind": "condition", "combatant": "Chom", "condition": "Disarmed", "on": True},
        {"kind": "dice", "expression": "2d6+3", "label": "Perception"},
        {"kind": "reveal", "combatant": "Newcomer", "to_players": True},
        {"kind": "leave", "combatant": "Newcomer"},
        {"kind": "undo"},
        {"kind": "auto"},
        {"kind": "leave", "combatant": "Chom"},
        {"kind": "auto"},
        {"kind": "undo"},
        {"kind": "undo"},
    ]
    for action in actions:
        enc.act(action)
    kinds = {e["kind"] for e in enc.events}
    assert {"adjust", "join", "leave", "condition", "dice", "reveal", "undo"} <= kinds
    log = exported_and_replayed(enc, tmp_path)
    at_join = replay(log, until=next(e["n"] for e in enc.events if e["kind"] == "join"))
    assert "Newcomer" in at_join.roster.names


def test_kaiser_goes_on_after_the_last_slot_of_its_order_leaves() -> None:
    """A newcomer joins last in Kaiser's order and leaves when the cursor is past every slot still there: the next
    auto turn wraps to the first slot that can act (whom next_turn names), never past the order's end."""
    d = data("kaiser-duel")
    enc = Encounter.create(d, seed=1)
    enc.act({"kind": "join", "side": enc.fight.roster.side_names[0], "combatant": newcomer(d, side=0)})
    enc.act({"kind": "auto"})
    enc.act({"kind": "auto"})
    assert enc.next_turn() == "Newcomer" and enc.fight.roster.names[int(enc.fight.order_array[-1])] == "Newcomer"
    enc.act({"kind": "leave", "combatant": "Newcomer"})
    coming = enc.next_turn()
    events = enc.act({"kind": "auto"})
    assert coming is not None and any(e.get("attacker") == coming for e in events), [e["text"] for e in events]
