"""A seeded random game master over every bundled example fight, through HTTP (issue 27, "Done when"): auto,
end turn, undo, adjusts within and beyond each stat's range, and attacks (on the turn `GET` names, and out of
turn). No answer is a 5xx; an adjust beyond a stat's range is a 422 naming the field; and while the fight is on,
`turn` names a standing combatant. On SQLite and on a throwaway PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import client_for
from tohit.server import examples

#: Every example a new encounter may start from: the fight files of examples/fights and each game's starter.
EXAMPLES = [e["id"] for e in examples.list_examples()]
#: Actions per example (bounded: the whole run stays well under a minute on each store).
ACTIONS = 30


@pytest.fixture(scope="module")
def sqlite_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_for(f"sqlite:///{tmp_path_factory.mktemp('gm') / 'tohit.db'}") as c:
        yield c


@pytest.fixture(scope="module")
def pg_client(postgres: str) -> Iterator[TestClient]:
    with client_for(postgres) as c:
        yield c


def _gm(client: TestClient, example: str, seed: int) -> list[str]:
    """Play one example with a random GM; the kinds of action taken (for the test to check it tried each)."""
    rnd = random.Random(f"{example}:{seed}")
    made = client.post("/v1/encounters", json={"example": example, "seed": seed})
    assert made.status_code == 201, made.text
    eid, gm = made.json()["id"], {"Authorization": f"Bearer {made.json()['gm_token']}"}
    sheet = client.get(f"/v1/encounters/{eid}/sheet", headers=gm).json()
    names = [c["name"] for c in sheet["combatants"]]
    attacks = {c["name"]: c["attacks"] for c in sheet["combatants"]}
    side = {c["name"]: c["side"] for c in sheet["combatants"]}
    ranges: dict[str, list[int] | None] = sheet["ranges"]
    taken: list[str] = []
    for _ in range(ACTIONS):
        now = client.get(f"/v1/encounters/{eid}", headers=gm)
        assert now.status_code == 200, now.text
        enc = now.json()
        sides_up = {side[name] for name in enc["standing"]}
        if not enc["over"] and len(sides_up) > 1:  # the fight is on (an adjust may decide it; the next step ends it)
            assert enc["turn"] in enc["standing"], (example, enc["seq"], enc["turn"], enc["standing"])
        kind = rnd.choices(
            ["auto", "end_turn", "undo", "adjust", "beyond", "attack", "out_of_turn"], [5, 2, 2, 2, 1, 3, 1]
        )[0]
        if enc["over"] and kind != "undo":
            kind = "undo"
        taken.append(kind)
        body: dict[str, Any]
        if kind == "undo":
            got = client.post(f"/v1/encounters/{eid}/undo", headers=gm)
            assert got.status_code < 500, (example, got.text)
            continue
        if kind in ("auto", "end_turn"):
            body = {"kind": kind}
        elif kind in ("adjust", "beyond"):
            stat = rnd.choice(sorted(ranges))
            bounds = ranges[stat]
            who = rnd.choice(names)
            if kind == "adjust":
                if bounds is None:
                    continue
                now_value = int(enc["state"]["combatants"][who][stat])
                near = (max(bounds[0], now_value - 5), min(bounds[1], now_value + 5))
                value = rnd.choice([bounds[0], bounds[1], rnd.randint(*near) if near[0] <= near[1] else bounds[0]])
            else:
                value = 0 if bounds is None else rnd.choice([bounds[0] - 1, bounds[1] + 1])
            body = {"kind": "adjust", "combatant": who, "stat": stat, "value": value}
            got = client.post(f"/v1/encounters/{eid}/actions", headers=gm, json=body)
            assert got.status_code < 500, (example, body, got.text)
            if kind == "beyond":
                assert got.status_code == 422, (example, body, got.text)
                assert got.json()["error"]["field"] in ("value", "stat"), got.text
            continue
        else:
            up = enc["standing"]
            attacker = enc["turn"] if kind == "attack" and enc["turn"] else rnd.choice(up)
            body = {
                "kind": "attack",
                "attacker": attacker,
                "attack": rnd.choice(attacks[attacker]),
                "targets": [rnd.choice(names)],
            }
        got = client.post(f"/v1/encounters/{eid}/actions", headers=gm, json=body)
        assert got.status_code < 500, (example, body, got.text)
    return taken


def _play_all(client: TestClient) -> None:
    kinds: set[str] = set()
    for k, example in enumerate(EXAMPLES):
        kinds.update(_gm(client, example, seed=27 + k))
    assert {"auto", "end_turn", "undo", "adjust", "beyond", "attack", "out_of_turn"} <= kinds


def test_server_random_gm_never_5xx_and_turn_names_a_standing_combatant_on_sqlite(sqlite_client: TestClient) -> None:
    assert any(e.startswith("starter/") for e in EXAMPLES) and any(e.startswith("file/") for e in EXAMPLES)
    _play_all(sqlite_client)


def test_server_random_gm_never_5xx_and_turn_names_a_standing_combatant_on_postgresql(pg_client: TestClient) -> None:
    _play_all(pg_client)


def test_server_random_gm_covers_every_bundled_fight() -> None:
    files = {f"file/{p.stem}" for p in (Path(__file__).resolve().parents[2] / "examples" / "fights").glob("*.yaml")}
    assert files <= set(EXAMPLES)


def test_server_action_bodies_are_the_engines_typed_actions(sqlite_client: TestClient) -> None:
    """The HTTP body of an action is the engine's union on `kind`: strict as a file (no true for a number, no field
    it does not name), each refusal a 422 naming the field in the usual error shape; an adjust beyond the stat's
    range names the stat and its range."""
    made = sqlite_client.post("/v1/encounters", json={"example": "file/kaiser-duel", "seed": 1}).json()
    url, gm = f"/v1/encounters/{made['id']}/actions", {"Authorization": f"Bearer {made['gm_token']}"}
    for body, field in (
        ({"kind": "adjust", "combatant": "Ceil", "stat": "lp", "value": True}, "value"),
        ({"kind": "auto", "speed": 3}, "speed"),
        ({"kind": "attack", "attacker": "Ceil", "targets": "Bandit chief"}, "targets"),
        ({"kind": "adjust", "combatant": "Ceil", "stat": "ap", "value": -1}, "value"),
        ({"kind": "teleport"}, "kind"),
    ):
        got = sqlite_client.post(url, json=body, headers=gm)
        assert got.status_code == 422, (body, got.text)
        assert got.json()["error"]["field"] == field, (body, got.text)
    got = sqlite_client.post(url, json={"kind": "adjust", "combatant": "Ceil", "stat": "ap", "value": -1}, headers=gm)
    assert "ap takes 0 to 1,000,000,000; got -1" in got.json()["error"]["message"]
