"""Dice typed by hand for an attack on several targets: a set per target name where the rules roll per target
(rtw: "If an Attack targets multiple foes, you must roll all To-Hit checks once for each foe"), typed once where
one roll serves them all (Last Odyssey's Multi: one hit die for every target). Each typed face reaches the roll it
was typed for (the event's faces are the faces typed), a bad set is refused naming `dice.<target>.<role>` with
nothing appended, and the log replays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_encounter_targets import attacked, encounter, fight_data
from tohit.core.errors import InputError
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained, replay

FIREBALL = {"kind": "attack", "attacker": "Zelda", "attack": "Fireball"}
FIRE_WAVE = {"kind": "attack", "attacker": "Ilse", "attack": "Fire Wave"}


def test_each_rtw_foe_rolls_the_to_hit_check_typed_for_it() -> None:
    """Two foes named (the primary first), a set each: each attack event carries its own foe's faces, whatever
    order the rules roll them in, and the third foe is untouched."""
    enc = encounter("rtw-bokoblin-camp")
    dice = {"Moblin": {"to_hit": [1, 2]}, "Bokoblin 1": {"to_hit": [6, 5]}}
    found = attacked(enc.act({**FIREBALL, "targets": ["Moblin", "Bokoblin 1"], "dice": dice}), "Zelda")
    assert sorted(e["target"] for e in found) == ["Bokoblin 1", "Moblin"]
    assert {e["target"]: e["dice"] for e in found} == dice
    assert enc.state_json()["combatants"]["Bokoblin 2"] == enc.events[0]["state"]["combatants"]["Bokoblin 2"]


def test_the_same_faces_swapped_between_the_foes_swap_their_results() -> None:
    """The set follows its foe's name, not the order of the rolls: swapping the two sets swaps the faces each
    foe's roll reads."""
    dice = {"Moblin": {"to_hit": [1, 1]}, "Bokoblin 1": {"to_hit": [6, 6]}}
    swapped = {"Moblin": dice["Bokoblin 1"], "Bokoblin 1": dice["Moblin"]}
    for typed in (dice, swapped):
        enc = encounter("rtw-bokoblin-camp")
        found = attacked(enc.act({**FIREBALL, "targets": ["Bokoblin 1", "Moblin"], "dice": typed}), "Zelda")
        assert {e["target"]: e["dice"] for e in found} == typed


def test_a_multi_ability_reads_one_hit_die_typed_once_for_every_foe_it_reaches() -> None:
    """Multi: one roll of the hit die serves every target: typed once (in the first foe's set), every foe Fire
    Wave reaches from one named reads that face."""
    enc = encounter("last-odyssey-cops")
    found = attacked(enc.act({**FIRE_WAVE, "targets": ["Cop 2"], "dice": {"Cop 2": {"hit": [7]}}}), "Ilse")
    assert sorted(e["target"] for e in found) == ["Cop 1", "Cop 2", "Cop 3"]
    assert [e["dice"] for e in found] == [{"hit": [7]}] * 3


def test_the_hit_die_typed_under_a_later_foe_still_serves_the_first_roll() -> None:
    enc = encounter("last-odyssey-cops")
    dice: dict[str, Any] = {"Cop 1": {}, "Cop 3": {"hit": [2]}}
    found = attacked(enc.act({**FIRE_WAVE, "targets": ["Cop 1", "Cop 3"], "dice": dice}), "Ilse")
    assert [e["dice"] for e in found] == [{"hit": [2]}, {"hit": [2]}]


@pytest.mark.parametrize(
    ("name", "action", "dice", "field", "words"),
    [
        ("rtw-bokoblin-camp", FIREBALL, {"Moblin": {"to_hit": [7, 1]}}, "dice.Moblin.to_hit", "not on a d6"),
        ("rtw-bokoblin-camp", FIREBALL, {"Moblin": {"to_hit": [7, 1]}}, "dice.Moblin.to_hit", "Roll To-Hit: face 7"),
        ("rtw-bokoblin-camp", FIREBALL, {"Moblin": {"hit": [1]}}, "dice.Moblin.hit", "no dice role 'hit'"),
        ("rtw-bokoblin-camp", FIREBALL, {"Moblin": {"hit": [1]}}, "dice.Moblin.hit", "roles: to_hit (Roll To-Hit)"),
        ("rtw-bokoblin-camp", FIREBALL, {"Ganon": {"to_hit": [1, 1]}}, "dice.Ganon", "no combatant 'Ganon'"),
        ("rtw-bokoblin-camp", FIREBALL, {"Bokoblin 2": {"to_hit": [1, 1]}}, "dice.Bokoblin 2", "no roll"),
        ("last-odyssey-cops", FIRE_WAVE, {"Cop 1": {"hit": [1]}, "Cop 2": {"hit": [1]}}, "dice.Cop 2.hit", "once"),
        ("last-odyssey-cops", FIRE_WAVE, {"Cop 1": {"hit": [1]}, "Cop 2": {"hit": [1]}}, "dice.Cop 2.hit", "hit die"),
    ],
)
def test_a_bad_set_names_its_target_and_role_and_appends_nothing(
    name: str, action: dict[str, Any], dice: dict[str, Any], field: str, words: str
) -> None:
    enc = encounter(name)
    seq, state = enc.seq, enc.state_json()
    targets = ["Moblin", "Bokoblin 1"] if name.startswith("rtw") else ["Cop 1", "Cop 2"]
    with pytest.raises(InputError) as err:
        enc.act({**action, "targets": targets, "dice": dice})
    assert err.value.field == field and words in err.value.message, (err.value.field, err.value.message)
    assert enc.seq == seq and enc.state_json() == state


def test_one_set_for_the_whole_attack_still_reads_as_before() -> None:
    """The single-set form stays: role -> faces is the first roll's."""
    enc = encounter("last-odyssey-cops")
    found = attacked(enc.act({**FIRE_WAVE, "targets": ["Cop 1", "Cop 2"], "dice": {"hit": [4]}}), "Ilse")
    assert [e["dice"] for e in found] == [{"hit": [4]}, {"hit": [4]}]


def test_dice_by_target_replay(tmp_path: Path) -> None:
    """A log whose attacks were typed by target rebuilds and replays (`tohit replay`)."""
    data = fight_data("rtw-bokoblin-camp")
    enc = Encounter.create(data, seed=4)
    enc.act(
        {
            **FIREBALL,
            "targets": ["Moblin", "Bokoblin 1"],
            "dice": {"Moblin": {"to_hit": [6, 6]}, "Bokoblin 1": {"to_hit": [2, 3]}},
        }
    )
    for _ in range(3):
        if not enc.over:
            enc.act({"kind": "auto"})
    assert Encounter.restore(data, enc.events).state_json() == enc.state_json()
    log = tmp_path / "typed.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in chained(enc.events)))
    rebuilt = replay(log)
    assert rebuilt.matches, rebuilt.mismatches


def test_auto_refuses_dice_typed_per_target_and_appends_nothing() -> None:
    """`auto` lets the game choose its target, so a set typed per target could be dropped unread: refused naming
    `dice`, nothing appended; one set for the whole turn is still taken."""
    enc = encounter("rtw-bokoblin-camp")
    before = len(enc.events)
    with pytest.raises(InputError) as err:
        enc.act({"kind": "auto", "dice": {"Moblin": {"to_hit": [1, 2]}}})
    assert err.value.field == "dice" and "names its targets" in err.value.message
    assert len(enc.events) == before
    enc.act({"kind": "auto", "dice": {"to_hit": [1, 2]}})
    assert len(enc.events) > before
