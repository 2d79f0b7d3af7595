"""The GM's new actions over HTTP (issue 29): each a 201 with its events, each refusal a 422 naming the field; a
roster change reaches the GET, the sheet, the events and the stream."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def made(client: TestClient, example: str = "file/rtw-bokoblin-camp") -> tuple[str, dict[str, str], dict[str, str]]:
    found = client.post("/v1/encounters", json={"example": example, "seed": 2}).json()
    return f"/v1/encounters/{found['id']}", bearer(found["gm_token"]), bearer(found["view_token"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "adjust", "combatant": "Link", "stat": "helpless", "by": 5}, "by"),
        ({"kind": "adjust", "combatant": "Link", "stat": "health", "by": True}, "by"),
        ({"kind": "adjust", "combatant": "Link", "stat": "health"}, "by"),
        ({"kind": "dice", "expression": "2d6+"}, "expression"),
        ({"kind": "dice", "expression": 7}, "expression"),
        ({"kind": "condition", "combatant": "Link", "condition": "Sleepy", "on": True}, "condition"),
        ({"kind": "condition", "combatant": "Link", "condition": "Helpless", "on": "yes"}, "on"),
        ({"kind": "reveal", "combatant": "Nobody", "to_players": True}, "combatant"),
        ({"kind": "join", "side": "Heroes", "combatant": {"name": "Link"}}, "combatant.name"),
        ({"kind": "join", "side": "Villains", "combatant": {"name": "Sheik"}}, "side"),
        ({"kind": "leave", "combatant": "Nobody"}, "combatant"),
        ({"kind": "adjust", "combatant": "Link", "stat": "used0", "value": 1}, "stat"),
        ({"kind": "adjust", "combatant": "Link", "stat": "used0", "by": 1}, "stat"),
        ({"kind": "condition", "combatant": "Link", "condition": "Weapon used", "on": True}, "condition"),
    ],
)
def test_gm_hand_refusals_are_422_naming_the_field(client: TestClient, body: dict[str, Any], field: str) -> None:
    url, gm, _ = made(client)
    got = client.post(f"{url}/actions", json=body, headers=gm)
    assert got.status_code == 422, got.text
    assert got.json()["error"]["field"] == field, got.text
    assert client.get(url, headers=gm).json()["seq"] == 0  # nothing half-written


def test_a_stat_the_game_keeps_internal_has_no_range_and_is_refused_in_words(client: TestClient) -> None:
    """rtw's weapon use (`used0`) and position (`x`, `y`: the map's move) are the rules': the sheet's range is
    null, and an adjust is a 422 naming `stat` that says so in words."""
    found = client.post("/v1/encounters", json={"example": "file/rtw-map", "seed": 2}).json()
    url, gm = f"/v1/encounters/{found['id']}", bearer(found["gm_token"])
    ranges = client.get(f"{url}/sheet", headers=gm).json()["ranges"]
    assert ranges["used0"] is None and ranges["x"] is None and ranges["y"] is None
    assert ranges["health"] is not None and ranges["durability0"] is not None
    for stat in ("used0", "x", "y"):
        body = {"kind": "adjust", "combatant": "Link", "stat": stat, "value": 1}
        got = client.post(f"{url}/actions", json=body, headers=gm)
        assert got.status_code == 422 and got.json()["error"]["field"] == "stat", got.text
        assert "kept by the game's rules" in got.json()["error"]["message"]
    assert client.get(url, headers=gm).json()["seq"] == 0


def test_gm_hand_actions_over_http_and_the_stream(client: TestClient) -> None:
    """adjust by, dice, condition, join and leave: each a 201; a newcomer is in the GET, the sheet and the order;
    the stream carries the join event."""
    url, gm, view = made(client)
    for body in (
        {"kind": "adjust", "combatant": "Moblin", "stat": "health", "by": -7},
        {"kind": "dice", "expression": "2d6+3", "label": "Perception"},
        {"kind": "condition", "combatant": "Link", "condition": "Peril", "on": True},
    ):
        got = client.post(f"{url}/actions", json=body, headers=gm)
        assert got.status_code == 201, got.text
    state = client.get(url, headers=gm).json()
    assert state["state"]["combatants"]["Moblin"]["health"] == 13
    weapon = {"name": "kunai", "attack_power": 3, "acc": 3, "damage_type": "sharp"}
    newcomer = {
        "name": "Sheik",
        "attacker": {"accuracy": 3, "combat": 2, "weapon": weapon},
        "target": {"evasion": 13, "defense": 1, "hearts": 3},
        "attacks": [{"name": "Strike"}],
    }
    got = client.post(f"{url}/actions", json={"kind": "join", "side": "Heroes", "combatant": newcomer}, headers=gm)
    assert got.status_code == 201, got.text
    seq = got.json()["seq"]
    state = client.get(url, headers=gm).json()
    assert "Sheik" in state["state"]["combatants"] and "Sheik" in state["standing"]
    sheet = client.get(f"{url}/sheet", headers=gm).json()
    assert "Sheik" in sheet["order"] and any(c["name"] == "Sheik" for c in sheet["combatants"])
    assert "Sheik" not in client.get(url, headers=view).json()["hidden"]  # joined the first side: shown
    with client.stream("GET", f"{url}/stream", params={"after": seq - 1}, headers=view) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                event = json.loads(line[len("data: ") :])
                break
    assert event["kind"] == "join" and event["combatant"] == "Sheik"
    got = client.post(f"{url}/actions", json={"kind": "leave", "combatant": "Sheik"}, headers=gm)
    assert got.status_code == 201, got.text
    assert "Sheik" not in client.get(url, headers=gm).json()["state"]["combatants"]
