"""FullPlate target conditions (fullplate.txt, Circumstantial Modifiers: Prone Stance, Kneeling Stance, Balance,
Condition): set from the table in a live encounter, or given in a target block's `conditions`, each gives the row
that fits the attack, in the preview and in the roll alike (issue 36, item 3)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.engine.encounter import Encounter
from tohit.engine.odds import odds
from tohit.engine.scenario import from_dict
from tohit.systems.fullplate.circumstances import attacker_condition_row, condition_row

SKIRMISH: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / "fullplate-skirmish.yaml").read_text())


def with_orc(**target: Any) -> dict[str, Any]:
    """The skirmish with the Orc's target block given these fields besides its own."""
    data = copy.deepcopy(SKIRMISH)
    data["sides"][1]["combatants"][1]["target"].update(target)
    return data


def knight_strikes(enc: Encounter, face: int) -> dict[str, Any]:
    """The Knight's long sword on the Orc, the To-Hit die showing `face`: the attack event."""
    events = enc.act(
        {"kind": "attack", "attacker": "Knight", "targets": ["Orc"], "dice": {"to_hit": [face], "damage": [4]}}
    )
    return next(e for e in events if e["kind"] == "attack")


def test_fullplate_target_prone_melee_set_from_the_table_changes_the_preview_as_the_file_does() -> None:
    """ "Target is Prone (Melee Attack) +4" [Circumstantial Modifiers, Prone Stance]: the Knight (THAC0 15) on the
    Orc (AC 7) hits on 15 - d20 <= 7, d20 >= 8 (13 in 20 less the natural 1: 13/20); the Orc set Prone from the
    table, on d20 >= 4 (17/20): exactly the odds of the fight whose file has the Orc Prone, by its `conditions` or
    by the row itself."""
    enc = Encounter.create(SKIRMISH, seed=1)
    assert enc.preview("Knight", None, ["Orc"])[0]["result"]["hit"] * 20 == 13
    enc.act({"kind": "condition", "combatant": "Orc", "condition": "Prone", "on": True})
    live = enc.preview("Knight", None, ["Orc"])
    assert live[0]["result"]["hit"] * 20 == 17
    assert Encounter.create(with_orc(conditions=["prone"]), seed=1).preview("Knight", None, ["Orc"]) == live
    knight, orc = SKIRMISH["sides"][0]["combatants"][0], SKIRMISH["sides"][1]["combatants"][1]
    for prone in ({"conditions": ["prone"]}, {"circumstances": ["target_prone_melee"]}):
        scenario = {
            "system": "fullplate",
            "attacker": knight["attacker"],
            "attack": {},
            "targets": [{"name": "Orc", **orc["target"], **prone}],
        }
        exact = odds(from_dict(scenario)).targets[0]
        assert {str(k): v for k, v in exact.distribution("result")} == live[0]["result"]


@pytest.mark.parametrize(("prone", "hit"), [(False, False), (True, True)])
def test_fullplate_target_prone_melee_set_from_the_table_changes_the_roll(prone: bool, hit: bool) -> None:
    """The roll reads it as the preview does: a d20 of 5 is 15 - 5 = 10 > AC 7, a miss; on a Prone Orc the
    effective THAC0 is 11, 11 - 5 = 6 <= 7, a hit, and the trace names the row."""
    enc = Encounter.create(SKIRMISH, seed=1)
    if prone:
        enc.act({"kind": "condition", "combatant": "Orc", "condition": "prone", "on": True})
    attack = knight_strikes(enc, 5)
    assert (attack["outcome"]["result"] == "hit") == hit
    assert attack["outcome"]["effective_thac0"] == (11 if prone else 15)
    assert any("target_prone_melee" in str(step) for step in attack["trace"]) == prone


def test_fullplate_a_condition_given_in_the_file_starts_set_and_is_cleared_from_the_table() -> None:
    """A target block's `conditions` is where the live encounter starts: the GM clears Stunned ("Target is Stunned
    +4") and the odds are the plain ones again."""
    enc = Encounter.create(with_orc(conditions=["stunned"], flatfooted=True), seed=1)
    assert enc.state_json()["combatants"]["Orc"]["stunned"] == 1
    assert enc.state_json()["combatants"]["Orc"]["flatfooted"] == 1
    assert enc.preview("Knight", None, ["Orc"])[0]["result"]["hit"] * 20 == 17
    enc.act({"kind": "condition", "combatant": "Orc", "condition": "Stunned", "on": False})
    assert enc.preview("Knight", None, ["Orc"])[0]["result"]["hit"] * 20 == 13


@pytest.mark.parametrize(
    ("condition", "kind", "distance", "row"),
    [
        ("prone", "melee", None, "target_prone_melee"),
        ("prone", "bow_like", 10, "target_prone_ranged_near"),
        ("prone", "bow_like", 60, "target_prone_ranged_far"),
        ("prone", "thrown", None, "target_prone_ranged_far"),
        ("kneeling", "melee", None, "target_kneeling_melee"),
        ("kneeling", "gun_like", 5, "target_kneeling_ranged_near"),
        ("helpless", "melee", None, "target_helpless_melee"),
        ("helpless", "gun_like", 30, "target_helpless_ranged"),
        ("stunned", "bow_like", 30, "target_stunned"),
        ("off_balance", "melee", None, "target_off_balance"),
    ],
)
def test_fullplate_target_condition_gives_the_row_that_fits_the_attack(
    condition: str, kind: str, distance: int | None, row: str
) -> None:
    """Circumstantial Modifiers: a Prone or Kneeling target is +4 / +2 to a melee attack, +0 to a ranged one
    within 10 feet, -2 / -1 beyond (without a distance: the row beyond, the worse for the attacker); Helpless is
    +10 to melee, +5 to ranged; Stunned and Off-Balance one row for any attack."""
    assert condition_row(condition, kind, distance).id == row


def test_fullplate_unknown_condition_in_a_target_block_is_refused_naming_the_field() -> None:
    with pytest.raises(InputError) as err:
        Encounter.create(with_orc(conditions=["asleep"]), seed=1)
    assert "conditions" in str(err.value.field)


@pytest.mark.parametrize(
    ("condition", "kind", "size", "row"),
    [
        ("prone", "melee", "smaller", "attacker_prone_melee_weapon_smaller"),
        ("prone", "melee", "same", "attacker_prone_melee_weapon_same_size"),
        ("prone", "thrown", "larger", "attacker_prone_melee_weapon_larger"),
        ("prone", "gun_like", "same", "attacker_prone_gun_like"),
        ("prone", "bow_like", "same", "attacker_prone_bow_like"),
        ("kneeling", "melee", "same", "attacker_kneeling_melee"),
        ("kneeling", "gun_like", "same", "attacker_kneeling_gun_like"),
        ("kneeling", "bow_like", "same", "attacker_kneeling_bow_like"),
        ("off_balance", "bow_like", "same", "attacker_off_balance"),
    ],
)
def test_fullplate_attacker_condition_gives_its_stance_row_by_its_weapon(
    condition: str, kind: str, size: str, row: str
) -> None:
    """Circumstantial Modifiers, Prone Stance: "Attacker is Prone and Attacking with Melee/Throwing Weapon (Size <
    Attacker Size) +0 ... (Size = Attacker Size) -2 ... (Size > Attacker Size) -4", gun-like +4, bow and sling -4;
    Kneeling Stance: melee or throwing +0, gun-like +2, other ranged +0; Balance: "Attacker is Off-Balance -2"."""
    assert attacker_condition_row(condition, kind, size).id == row


@pytest.mark.parametrize(
    ("who", "attacker", "target", "twentieths"),
    [
        ("Archer", "Archer", "Orc", 10),  # bow_like, Prone: -4 (effective THAC0 14 -> 18: d20 >= 11)
        ("Knight", "Knight", "Orc", 11),  # a long sword sized for him, Prone: -2 (d20 >= 8 -> 10)
    ],
)
def test_fullplate_prone_attacker_set_from_the_table_reads_its_stance_row(
    who: str, attacker: str, target: str, twentieths: int
) -> None:
    """Prone Stance: a combatant set Prone from the table attacks with its stance row, as the scenario with the
    attacker block's `conditions: [prone]` does (its exact odds)."""
    enc = Encounter.create(SKIRMISH, seed=1)
    enc.act({"kind": "condition", "combatant": who, "condition": "Prone", "on": True})
    live = enc.preview(attacker, None, [target])
    assert live[0]["result"]["hit"] * 20 == twentieths
    comb = next(c for side in SKIRMISH["sides"] for c in side["combatants"] if c["name"] == attacker)
    orc = SKIRMISH["sides"][1]["combatants"][1]
    scenario = {
        "system": "fullplate",
        "attacker": {**comb["attacker"], "conditions": ["prone"]},
        "attack": comb["attacks"][0].get("attack", {}),
        "targets": [{"name": "Orc", **orc["target"]}],
    }
    exact = odds(from_dict(scenario)).targets[0]
    assert {str(k): v for k, v in exact.distribution("result")} == live[0]["result"]


def test_fullplate_both_prone_add_their_rows_on_their_scales() -> None:
    """Rows on different scales add (the page: "a prone target attacking with a crossbow ... +5"): the Knight Prone
    (attacker's stance, -2) on the Orc Prone (target's stance, melee +4): +2, d20 >= 6 (15/20)."""
    enc = Encounter.create(SKIRMISH, seed=1)
    for who in ("Knight", "Orc"):
        enc.act({"kind": "condition", "combatant": who, "condition": "prone", "on": True})
    assert enc.preview("Knight", None, ["Orc"])[0]["result"]["hit"] * 20 == 15
    attack = knight_strikes(enc, 6)
    assert attack["outcome"]["result"] == "hit" and attack["outcome"]["effective_thac0"] == 13
