"""Dice typed per target through the HTTP routes: the dice route lists the creatures the attack rolls against
(each its own set where the rules roll per target), says per target what a set still needs, and the attack reads
each set for its own target; a bad set is a 422 naming `dice.<target>.<role>` (or `dice.<target>`), nothing
appended, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.test_targets_routes import bearer, made
from tests.test_encounter_targets import fight_data
from tohit.server import limits

FIREBALL = {"attacker": "Zelda", "attack": "Fireball", "targets": ["Moblin", "Bokoblin 1"]}
FIRE_WAVE = {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 2"]}


def blast(client: TestClient) -> tuple[str, dict[str, str]]:
    """The Bokoblin camp with Zelda's Fireball a Basic Attack over a Blast (the example's spell hits whatever the
    To-Hit dice show, so no die of it is asked): its To-Hit check is rolled for each foe named."""
    data = fight_data("rtw-bokoblin-camp")
    fireball = data["sides"][0]["combatants"][1]["attacks"][0]
    fireball["attack"] = {"kind": "basic", "range": "blast", "area": True, "damage": {"trait": "willpower"}}
    answer = client.post("/v1/encounters", json={"fight": data, "seed": 3})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], bearer(answer.json()["gm_token"])


def test_the_dice_route_lists_every_creature_the_attack_rolls_against(client: TestClient) -> None:
    eid, gm = blast(client)
    answer = client.post(f"/v1/encounters/{eid}/dice", json=FIREBALL, headers=gm)
    assert answer.status_code == 200, answer.text
    assert answer.json()["targets"] == ["Moblin", "Bokoblin 1"]
    assert [(r["role"], r["scope"]) for r in answer.json()["roles"]] == [("to_hit", "target")]
    eid, gm = made(client, "file/last-odyssey-cops")
    answer = client.post(f"/v1/encounters/{eid}/dice", json=FIRE_WAVE, headers=gm)
    assert answer.status_code == 200, answer.text
    assert sorted(answer.json()["targets"]) == ["Cop 1", "Cop 2", "Cop 3"]
    assert answer.json()["targets"][0] == "Cop 2"
    assert [(r["role"], r["scope"]) for r in answer.json()["roles"]] == [("hit", "attack")]


def test_what_each_set_still_needs_is_per_target(client: TestClient) -> None:
    eid, gm = blast(client)
    dice = {"Moblin": {"to_hit": [3, 4]}, "Bokoblin 1": {}}
    answer = client.post(f"/v1/encounters/{eid}/dice", json={**FIREBALL, "dice": dice}, headers=gm)
    assert answer.status_code == 200, answer.text
    assert answer.json()["needed"] == {"Moblin": [], "Bokoblin 1": ["to_hit"]}
    eid, gm = made(client, "file/last-odyssey-cops")
    dice = {"Cop 2": {"hit": [3]}, "Cop 1": {}, "Cop 3": {}}
    answer = client.post(f"/v1/encounters/{eid}/dice", json={**FIRE_WAVE, "dice": dice}, headers=gm)
    assert answer.status_code == 200, answer.text
    assert answer.json()["needed"] == {"Cop 2": [], "Cop 1": [], "Cop 3": []}  # the one hit die serves all


def test_the_attack_reads_each_targets_own_set(client: TestClient) -> None:
    eid, gm = blast(client)
    dice = {"Moblin": {"to_hit": [1, 1]}, "Bokoblin 1": {"to_hit": [6, 6]}}
    body = {"kind": "attack", **FIREBALL, "dice": dice}
    answer = client.post(f"/v1/encounters/{eid}/actions", json=body, headers=gm)
    assert answer.status_code == 201, answer.text
    rolled = {e["target"]: e["dice"] for e in answer.json()["events"] if e["kind"] == "attack"}
    assert rolled == dice


@pytest.mark.parametrize(
    ("example", "chosen", "dice", "field"),
    [
        ("blast", FIREBALL, {"Moblin": {"to_hit": [9, 1]}}, "dice.Moblin.to_hit"),
        ("blast", FIREBALL, {"Moblin": {"crit": [1]}}, "dice.Moblin.crit"),
        ("blast", FIREBALL, {"Ganon": {"to_hit": [1, 1]}}, "dice.Ganon"),
        ("blast", FIREBALL, {"Bokoblin 2": {"to_hit": [1, 1]}}, "dice.Bokoblin 2"),
        ("blast", FIREBALL, {"Moblin": {"to_hit": ["1"]}}, "dice.Moblin.to_hit"),
        ("blast", FIREBALL, {"Moblin": {"to_hit": [1.5]}, "Bokoblin 1": {"to_hit": [1, 2]}}, "dice.Moblin.to_hit"),
        ("blast", FIREBALL, {"Moblin [1]": {"to_hit": ["x"]}}, "dice.Moblin [1].to_hit"),
        ("file/last-odyssey-cops", FIRE_WAVE, {"Cop 2": {"hit": [1]}, "Cop 3": {"hit": [2]}}, "dice.Cop 3.hit"),
    ],
)
def test_a_bad_set_is_a_422_naming_its_target_and_role(
    client: TestClient, example: str, chosen: dict[str, Any], dice: dict[str, Any], field: str
) -> None:
    eid, gm = blast(client) if example == "blast" else made(client, example)
    seq = client.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"]
    for route, body in (("actions", {"kind": "attack", **chosen, "dice": dice}), ("dice", {**chosen, "dice": dice})):
        answer = client.post(f"/v1/encounters/{eid}/{route}", json=body, headers=gm)
        assert answer.status_code == 422, (route, answer.text)
        assert answer.json()["error"]["field"] == field, (route, answer.json())
    assert client.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"] == seq


@pytest.mark.parametrize(
    "targets", [["Moblin", "Bokoblin 1"], ["Moblin", "Moblin"], ["Moblin", "Ganon"]], ids=["two", "twice", "unknown"]
)
def test_the_dice_route_checks_the_targets_as_the_attack_does(client: TestClient, targets: list[str]) -> None:
    """Link's Strike takes one foe: naming two (or one twice, or no combatant) is the attack's own 422 naming
    `targets` on the dice route too, never a list of targets the attack cannot take."""
    eid, gm = made(client, "file/rtw-bokoblin-camp")
    chosen = {"attacker": "Link", "attack": "Strike", "targets": targets}
    for route, body in (("actions", {"kind": "attack", **chosen}), ("dice", chosen)):
        answer = client.post(f"/v1/encounters/{eid}/{route}", json=body, headers=gm)
        assert answer.status_code == 422, (route, answer.text)
        assert answer.json()["error"]["field"] == "targets", (route, answer.json())


def test_auto_with_dice_per_target_is_a_422_naming_dice(client: TestClient) -> None:
    eid, gm = blast(client)
    seq = client.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"]
    body = {"kind": "auto", "dice": {"Moblin": {"to_hit": [1, 1]}}}
    answer = client.post(f"/v1/encounters/{eid}/actions", json=body, headers=gm)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "dice" and "names its targets" in answer.json()["error"]["message"]
    assert client.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"] == seq


def test_the_dice_route_is_capped_as_a_preview_is(client: TestClient) -> None:
    """The dice route tries the attack many times per target, so its targets have the preview's cap: past it
    (in `targets`, or in the targets of a set per target) is a 422 naming the field and the cap, never run."""
    eid, gm = blast(client)
    many = [f"Bokoblin {k}" for k in range(limits.PREVIEW_TARGETS + 1)]
    over = {
        "targets": ({**FIREBALL, "targets": many}, "targets"),
        "name": ({**FIREBALL, "targets": ["B" * (limits.PREVIEW_NAME + 1)]}, "targets"),
        "dice": ({**FIREBALL, "dice": {name: {"to_hit": [1, 1]} for name in many}}, "dice"),
    }
    for what, (body, field) in over.items():
        answer = client.post(f"/v1/encounters/{eid}/dice", json=body, headers=gm)
        assert answer.status_code == 422, (what, answer.text)
        error = answer.json()["error"]
        assert error["field"] == field and "preview-" in error["message"], (what, error)
    at_cap = {**FIREBALL, "dice": {name: {"to_hit": [1, 1]} for name in many[: limits.PREVIEW_TARGETS]}}
    answer = client.post(f"/v1/encounters/{eid}/dice", json=at_cap, headers=gm)  # at the cap: its sets are read
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "dice.Bokoblin 0", answer.text
