"""A live encounter (engine/encounter.py, issue 16): the game's own turn and step applied to a stored state,
actions appended as events, undo as one more event, and an export `tohit replay` checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained, replay

FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))


def fight_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / name).read_text())
    return data


def test_encounter_attack_with_hand_rolled_dice_applies_the_games_consequences() -> None:
    """Ceil's long sword, the GM's dice 8 vs 5: 3 DoS... the bandit chief loses LP and 1 AP (kaiser.md)."""
    enc = Encounter.create(fight_data("kaiser-duel.yaml"), seed=1)
    before = enc.state_json()["combatants"]["Bandit chief"]
    events = enc.act(
        {"kind": "attack", "attacker": "Ceil", "attack": "long sword", "targets": ["Bandit chief"],
         "dice": {"offense": [4, 4], "defense": [2, 3]}}
    )  # fmt: skip
    kinds = [e["kind"] for e in events]
    assert "attack" in kinds and "damage" in kinds and "ap_lost" in kinds
    after = enc.state_json()["combatants"]["Bandit chief"]
    assert after["lp"] < before["lp"] and after["ap"] == before["ap"] - 1
    attack = next(e for e in events if e["kind"] == "attack")
    assert attack["dice"]["offense"] == [4, 4] and all(step["clause"] for step in attack["trace"])


def test_encounter_undo_sets_back_the_last_action_and_keeps_both_in_the_log() -> None:
    enc = Encounter.create(fight_data("kaiser-duel.yaml"), seed=1)
    start = enc.state_json()
    enc.act({"kind": "auto"})
    enc.act({"kind": "adjust", "combatant": "Ceil", "stat": "lp", "value": 3})
    assert enc.state_json()["combatants"]["Ceil"]["lp"] == 3
    enc.act({"kind": "undo"})
    enc.act({"kind": "undo"})
    assert enc.state_json() == start
    assert [e["kind"] for e in enc.events].count("undo") == 2
    with pytest.raises(InputError, match="nothing to undo"):
        enc.act({"kind": "undo"})


@pytest.mark.parametrize("path", FIGHTS, ids=[p.stem for p in FIGHTS])
def test_encounter_played_to_the_end_restores_and_replays(path: Path, tmp_path: Path) -> None:
    data = yaml.safe_load(path.read_text())
    enc = Encounter.create(data, seed=3)
    for _ in range(400):
        if enc.over:
            break
        enc.act({"kind": "auto"})
    assert enc.over and enc.next_turn() is None
    assert Encounter.restore(data, enc.events).state_json() == enc.state_json()
    log = tmp_path / "evening.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in chained(enc.events)))
    rebuilt = replay(log)
    assert rebuilt.matches, rebuilt.mismatches


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"kind": "dance"}, "kind"),
        ({"kind": "attack", "attacker": "Nobody", "targets": ["Ceil"]}, "attacker"),
        ({"kind": "attack", "attacker": "Ceil", "attack": "axe", "targets": ["Bandit chief"]}, "attack"),
        ({"kind": "attack", "attacker": "Ceil", "targets": []}, "targets"),
        ({"kind": "attack", "attacker": "Ceil", "targets": ["Ceil"]}, "targets"),
        ({"kind": "attack", "attacker": "Ceil", "targets": ["Bandit chief", "Bandit chief"]}, "targets"),
        ({"kind": "attack", "attacker": "Ceil", "targets": ["Bandit chief"], "dice": {"offense": "x"}}, "dice.offense"),
        ({"kind": "adjust", "combatant": "Ceil", "stat": "charm", "value": 3}, "stat"),
        ({"kind": "adjust", "combatant": "Ceil", "stat": "lp", "value": True}, "value"),
    ],
)
def test_encounter_bad_actions_are_input_errors_naming_the_field(action: dict[str, Any], field: str) -> None:
    enc = Encounter.create(fight_data("kaiser-duel.yaml"), seed=1)
    with pytest.raises(InputError) as err:
        enc.act(action)
    assert err.value.field == field
    assert enc.seq == 0  # nothing appended


def test_encounter_a_downed_combatant_cannot_attack() -> None:
    enc = Encounter.create(fight_data("kaiser-party-vs-bandits.yaml"), seed=1)
    enc.act({"kind": "adjust", "combatant": "Ceil", "stat": "lp", "value": 0})
    with pytest.raises(InputError, match=r"cannot act: it is down \(LP 0\)"):
        enc.act({"kind": "attack", "attacker": "Ceil", "targets": ["Bandit"]})


def test_encounter_a_combatant_out_of_ap_is_told_so() -> None:
    """A combatant who cannot act is a refusal naming why: out of AP for every attack (kaiser: action_points.md)."""
    enc = Encounter.create(fight_data("kaiser-duel.yaml"), seed=1)
    enc.act({"kind": "adjust", "combatant": "Ceil", "stat": "ap", "value": 0})
    with pytest.raises(InputError, match="none of its attacks now") as err:
        enc.act({"kind": "attack", "attacker": "Ceil", "targets": ["Bandit chief"]})
    assert err.value.field == "attacker"
