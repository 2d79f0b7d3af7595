"""The players' map shows what their characters see (issue 37, item 5; server/players_map.py, engine/vision.py): a
foe behind a closed door is not on the players' map until the door opens; what was seen stays, dimmed; the GM's
map shows everything with the party's sight; the players' picture is black where they never looked."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from fastapi.testclient import TestClient

from tests.grid.uvtt_fixtures import CELLAR_SPOTS, PPG, cellar, cellar_fight
from tohit.engine import vision
from tohit.engine.encounter import Encounter
from tohit.server.pictures import with_uvtt

#: The cellar with the Moblin in the east room, in sight of the door once it opens (the Bokoblin Archer stays in
#: the corner the diagonal wall shuts off).
SPOTS = {**CELLAR_SPOTS, "Moblin": [7, 1]}


def opened(client: TestClient) -> tuple[str, dict[str, str], dict[str, str]]:
    made = client.post("/v1/encounters", json={"fight": cellar_fight(SPOTS), "uvtt": cellar()}).json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    view = {"Authorization": f"Bearer {made['view_token']}"}
    return made["id"], gm, view


def drawn(client: TestClient, eid: str, token: dict[str, str], attacker: str = "Link") -> dict[str, Any]:
    answer = client.post(f"/v1/encounters/{eid}/map", json={"attacker": attacker}, headers=token)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def act(client: TestClient, eid: str, gm: dict[str, str], action: dict[str, Any]) -> None:
    answer = client.post(f"/v1/encounters/{eid}/actions", json=action, headers=gm)
    assert answer.status_code == 201, answer.text


def names(found: dict[str, Any]) -> list[str]:
    return [c["name"] for c in found["creatures"]]


def test_players_map_a_foe_behind_a_closed_door_is_absent_and_appears_when_the_door_opens(client: TestClient) -> None:
    eid, gm, view = opened(client)
    before = drawn(client, eid, view)
    assert names(before) == ["Link", "Zelda", "Bokoblin"]
    assert "Moblin" not in str(before) and "Bokoblin Archer" not in str(before)  # not even a cover line's name
    assert before["sight"] == {"party": ["Link", "Zelda"], "rows": ["2222200000", "2222200000", "2200200000",
                                                                    "2222200000"]}  # fmt: skip
    act(client, eid, gm, {"kind": "door", "door": 0, "closed": False})
    after = drawn(client, eid, view)
    assert names(after) == ["Link", "Zelda", "Bokoblin", "Moblin"]  # the Archer stays behind the diagonal wall
    assert after["sight"]["rows"][1] == "2222222220"


def test_players_map_what_was_seen_stays_explored_and_undo_takes_it_back(client: TestClient) -> None:
    eid, gm, view = opened(client)
    act(client, eid, gm, {"kind": "door", "door": 0, "closed": False})
    act(client, eid, gm, {"kind": "door", "door": 0, "closed": True})
    shut = drawn(client, eid, view)
    assert shut["sight"]["rows"][1] == "2222211110"  # seen through the door: explored, dimmed
    assert names(shut) == ["Link", "Zelda", "Bokoblin"]  # no creature drawn where the party no longer looks
    assert [w for w in shut["walls"] if w[0] >= 7] == [[7.0, 0.0, 10.0, 3.0]]  # the explored room's wall kept
    act(client, eid, gm, {"kind": "undo"})  # the door open again
    act(client, eid, gm, {"kind": "undo"})  # never opened: nothing seen through it
    assert drawn(client, eid, view)["sight"]["rows"][1] == "2222200000"
    assert [w for w in drawn(client, eid, view)["walls"] if w[0] >= 7] == []  # the unexplored room's walls: dark


def test_players_map_the_gms_map_shows_everyone_with_the_partys_sight(client: TestClient) -> None:
    eid, gm, view = opened(client)
    found = drawn(client, eid, gm)
    assert names(found) == ["Link", "Zelda", "Bokoblin", "Bokoblin Archer", "Moblin"]
    assert found["sight"] == drawn(client, eid, view)["sight"]
    assert len(found["walls"]) > len(drawn(client, eid, view)["walls"])


def test_players_map_an_attack_from_out_of_sight_is_not_drawn(client: TestClient) -> None:
    eid, gm, view = opened(client)
    act(client, eid, gm, {"kind": "reveal", "combatant": "Moblin", "to_players": True})  # its stats, not its place
    found = drawn(client, eid, view, attacker="Moblin")
    assert found["squares"] == [] and found["reached"] == [] and found["cover"] == {}
    assert "Moblin" not in names(found)


def test_players_map_best_aim_is_refused_while_a_creature_is_out_of_sight(client: TestClient) -> None:
    eid, gm, view = opened(client)
    for name in ("Bokoblin", "Bokoblin Archer", "Moblin"):
        act(client, eid, gm, {"kind": "reveal", "combatant": name, "to_players": True})
    answer = client.post(f"/v1/encounters/{eid}/aim", json={"attacker": "Link"}, headers=view)
    assert answer.status_code == 403 and answer.json()["error"]["field"] == "attack", answer.text
    assert "out of the party's sight" in answer.json()["error"]["message"]
    assert client.post(f"/v1/encounters/{eid}/aim", json={"attacker": "Link"}, headers=gm).status_code == 200


def test_players_map_the_players_picture_is_black_where_never_seen(client: TestClient) -> None:
    from PIL import Image

    eid, gm, view = opened(client)

    def pixels(token: dict[str, str]) -> np.ndarray:
        answer = client.get(f"/v1/encounters/{eid}/picture", headers=token)
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
        return np.asarray(Image.open(io.BytesIO(answer.content)).convert("RGB"))

    def square(image: np.ndarray, x: int, y: int) -> list[int]:
        return [int(v) for v in image[y * PPG + PPG // 2, x * PPG + PPG // 2]]

    assert square(pixels(gm), 7, 1) == [200, 170, 120]
    assert square(pixels(view), 7, 1) == [0, 0, 0] and square(pixels(view), 1, 1) == [200, 170, 120]
    act(client, eid, gm, {"kind": "door", "door": 0, "closed": False})
    assert square(pixels(view), 7, 1) == [200, 170, 120]  # seen through the open door
    assert square(pixels(view), 8, 0) == [0, 0, 0]  # the corner behind the diagonal wall


def test_players_map_each_squares_sight_is_worked_out_once_however_long_the_fight() -> None:
    """The party's sight after each event depends on the doors and the squares its characters stand on: a fight
    that goes back and forth between two squares works out two squares' sight for the mover, whatever its length."""
    enc = Encounter.create(with_uvtt(cellar_fight(SPOTS), cellar()), seed=1)
    with vision.MEMO.lock:
        vision.MEMO.boards.clear()  # nothing kept from another test of the same map
    vision.vision(enc)
    before = vision.work()
    for _ in range(10):
        enc.act({"kind": "move", "combatant": "Link", "to": [1, 1]})
        vision.vision(enc)
        enc.act({"kind": "move", "combatant": "Link", "to": [0, 0]})
        vision.vision(enc)
    done = vision.work()
    assert done.squares - before.squares == 1 and done.lines - before.lines == 40  # (1, 1): one line to each square
    assert len(vision.moments(enc)) == len(enc.events)
