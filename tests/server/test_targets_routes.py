"""Several targets through the HTTP routes (issue 29): the sheet says per attack how many targets it may take (the
game's `max_targets`); an attack on several is an action like the others (its events, undo, the export); every
refusal is a 422 naming `targets`, nothing appended, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def made(client: TestClient, example: str) -> tuple[str, dict[str, str]]:
    answer = client.post("/v1/encounters", json={"example": example, "seed": 3})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], bearer(answer.json()["gm_token"])


def test_the_sheet_says_how_many_targets_each_attack_may_take(client: TestClient) -> None:
    eid, gm = made(client, "file/rtw-bokoblin-camp")
    sheet = {c["name"]: c for c in client.get(f"/v1/encounters/{eid}/sheet", headers=gm).json()["combatants"]}
    assert sheet["Zelda"]["attacks"] == ["Fireball", "Magic Salvo"] and sheet["Zelda"]["max_targets"] == [2, 1]
    assert sheet["Link"]["max_targets"] == [1]
    eid, gm = made(client, "file/last-odyssey-cops")
    sheet = {c["name"]: c for c in client.get(f"/v1/encounters/{eid}/sheet", headers=gm).json()["combatants"]}
    assert sheet["Ilse"]["max_targets"][0] > 1 and sheet["Mariana"]["max_targets"] == [1]


def test_an_attack_on_several_targets_is_an_event_undone_and_exported_like_the_others(client: TestClient) -> None:
    """The preview of the two cops named has a row each; the attack's events attack those two; the export carries
    them as any attack; undo sets the state back."""
    eid, gm = made(client, "file/last-odyssey-cops")
    start = client.get(f"/v1/encounters/{eid}", headers=gm).json()["state"]
    chosen = {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1", "Cop 3"]}
    preview = client.post(f"/v1/encounters/{eid}/preview", json=chosen, headers=gm)
    assert preview.status_code == 200, preview.text
    assert [t["name"] for t in preview.json()["targets"]] == ["Cop 1", "Cop 3"]
    answer = client.post(f"/v1/encounters/{eid}/actions", json={"kind": "attack", **chosen}, headers=gm)
    assert answer.status_code == 201, answer.text
    assert [e["target"] for e in answer.json()["events"] if e["kind"] == "attack"] == ["Cop 1", "Cop 3"]
    lines = [
        json.loads(line) for line in client.get(f"/v1/encounters/{eid}/events.jsonl", headers=gm).text.splitlines()
    ]
    assert [e["target"] for e in lines if e.get("kind") == "attack"] == ["Cop 1", "Cop 3"]
    undo = client.post(f"/v1/encounters/{eid}/undo", json={}, headers=gm)
    assert undo.status_code == 201, undo.text
    assert client.get(f"/v1/encounters/{eid}", headers=gm).json()["state"] == start


@pytest.mark.parametrize(
    ("example", "action", "words"),
    [
        (
            "file/rtw-bokoblin-camp",
            {"attacker": "Zelda", "attack": "Fireball", "targets": ["Bokoblin 1", "Bokoblin 2", "Moblin"]},
            "Fireball hits at most 2 foes in Abstract Combat",
        ),
        ("file/rtw-bokoblin-camp", {"attacker": "Link", "targets": ["Moblin", "Bokoblin 1"]}, "not an area attack"),
        (
            "file/last-odyssey-cops",
            {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1", "Cop 1"]},
            "named twice",
        ),
        (
            "file/last-odyssey-cops",
            {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1", "Mariana"]},
            "cannot use Fire Wave on Mariana",
        ),
        ("file/last-odyssey-cops", {"attacker": "Mariana", "targets": ["Cop 1", "Cop 2"]}, "not a Multi ability"),
        ("file/kaiser-duel", {"attacker": "Ceil", "targets": ["Bandit chief", "Ceil"]}, "takes one target"),
    ],
)
def test_several_targets_refused_is_a_422_naming_targets(
    client: TestClient, example: str, action: dict[str, Any], words: str
) -> None:
    eid, gm = made(client, example)
    before = client.get(f"/v1/encounters/{eid}", headers=gm).json()
    answer = client.post(f"/v1/encounters/{eid}/actions", json={"kind": "attack", **action}, headers=gm)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["field"] == "targets" and words in error["message"], error
    assert client.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"] == before["seq"]


def test_a_fallen_target_among_several_is_a_422_naming_targets(client: TestClient) -> None:
    eid, gm = made(client, "file/rtw-bokoblin-camp")
    adjust = {"kind": "adjust", "combatant": "Bokoblin 2", "stat": "health", "value": 0}
    assert client.post(f"/v1/encounters/{eid}/actions", json=adjust, headers=gm).status_code == 201
    body = {"kind": "attack", "attacker": "Zelda", "attack": "Fireball", "targets": ["Moblin", "Bokoblin 2"]}
    answer = client.post(f"/v1/encounters/{eid}/actions", json=body, headers=gm)
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "targets", answer.text
    assert "Bokoblin 2" in answer.json()["error"]["message"]


def test_an_isolated_foe_named_with_others_is_a_422_naming_targets(client: TestClient) -> None:
    """Abstract Combat Ranges: an isolated foe "cannot be included in an attack with other foes" (the fight file's
    `abstract.isolated`): named with another, a 422 naming `targets` in those words, nothing appended."""
    fight = yaml.safe_load((EXAMPLES / "fights" / "rtw-bokoblin-camp.yaml").read_text())
    fight["abstract"] = {"isolated": ["Moblin"]}
    created = client.post("/v1/encounters", json={"fight": fight, "seed": 3})
    assert created.status_code == 201, created.text
    eid, gm = created.json()["id"], bearer(created.json()["gm_token"])
    body = {"kind": "attack", "attacker": "Zelda", "attack": "Fireball", "targets": ["Bokoblin 1", "Moblin"]}
    answer = client.post(f"/v1/encounters/{eid}/actions", json=body, headers=gm)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == {
        **answer.json()["error"],
        "field": "targets",
        "message": "Moblin is isolated: it cannot be included in an attack with other foes",
    }
    assert client.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"] == 0
