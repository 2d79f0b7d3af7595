"""What the page after a roll and the map read from the server (issue 39, items 7 to 9): the ruler's route
(`POST /v1/encounters/{id}/measure`: squares between two squares in the game's count, rtw's 1-2-1 diagonals),
best aim's words when no placement reaches anyone and its score beside both expected damages, and an attack's
line that says a hit's damage even when it is 0 (a Kaiser hit of 0 Units)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.test_table_routes import MAP_FIGHT, bearer, made


def measured(client: TestClient, one: dict[str, Any], body: Any, token: str = "gm_token") -> Any:
    return client.post(f"/v1/encounters/{one['id']}/measure", json=body, headers=bearer(one[token]))


#: From, to, and the squares between them: straight, one diagonal, then every second diagonal counting two.
COUNTS = [([0, 0], [5, 0], 5), ([0, 0], [1, 1], 1), ([0, 0], [2, 2], 3), ([0, 0], [3, 3], 4), ([7, 4], [0, 0], 9)]
#: Bad bodies and the field each 422 names.
BAD = [
    ({"from": [0, 0], "to": [8, 0]}, "to"),  # off the 8 by 5 map
    ({"from": [-1, 0], "to": [0, 0]}, "from"),
    ({"from": [0], "to": [0, 0]}, "from"),
    ({"from": [0, 0], "to": ["a", 0]}, "to"),
    ({"from": [0, 0]}, "to"),
]


def test_measure_counts_the_games_squares_every_second_diagonal_two(client: TestClient) -> None:
    one = made(client, name="rtw-map.yaml", fight=MAP_FIGHT)
    for start, end, squares in COUNTS:
        answer = measured(client, one, {"from": start, "to": end}, token="view_token")  # the players measure too
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"seq": one["seq"], "squares": squares}


def test_measure_bad_input_is_a_422_naming_the_field(client: TestClient) -> None:
    one = made(client, name="rtw-map.yaml", fight=MAP_FIGHT)
    for body, field in BAD:
        answer = measured(client, one, body)
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["field"].startswith(field), (body, answer.text)


def test_measure_on_an_encounter_without_a_map_is_a_422_naming_the_map(client: TestClient) -> None:
    one = made(client, example="starter/kaiser")
    answer = measured(client, one, {"from": [0, 0], "to": [1, 1]})
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "map"


def test_aim_says_no_placement_reaches_anyone_else_ranks_by_the_number_it_shows(client: TestClient) -> None:
    """No placement reaching anyone: an empty `best` and the words; else the placements ranked by `score`, the
    expected damage to foes minus that to allies, both given beside it."""
    fight = copy.deepcopy(MAP_FIGHT)
    fight["sides"][1]["combatants"][0]["position"] = [7, 3]  # the Bokoblin out of Link's sword's reach
    one = made(client, name="far.yaml", fight=fight)
    aimed = f"/v1/encounters/{one['id']}/aim"
    found = client.post(aimed, json={"attacker": "Link", "attack": "Strike"}, headers=bearer(one["gm_token"])).json()
    assert found["best"] == [] and found["note"] == "no placement reaches anyone"
    body = {"attacker": "Zelda", "attack": "Fireball", "n": 20}
    found = client.post(aimed, json=body, headers=bearer(one["gm_token"])).json()
    assert found["best"] and "note" not in found
    scores = [a["score"]["float"] for a in found["best"]]
    assert scores == sorted(scores, reverse=True)
    for a in found["best"]:
        assert a["score"]["float"] == pytest.approx(a["expected_to_foes"]["float"] - a["expected_to_allies"]["float"])


def test_a_kaiser_hit_for_0_damage_says_0_damage(client: TestClient) -> None:
    one = made(client, example="starter/kaiser", keep_seed=True)
    gm = bearer(one["gm_token"])
    dice = {"offense": [6, 3], "defense": [6, 3], "critical": [3, 6]}  # DoS 4 against the chief's armour: 0 Units
    attack = {"kind": "attack", "attacker": "Ceil", "targets": ["Bandit chief"], "dice": dice}
    answer = client.post(f"/v1/encounters/{one['id']}/actions", json=attack, headers=gm)
    assert answer.status_code == 201, answer.text
    hit = next(e for e in answer.json()["events"] if e["kind"] == "attack")
    assert hit["outcome"]["result"] == "hit" and hit["outcome"]["damage"] == 0
    assert hit["text"].endswith(": hit, 0 damage")
