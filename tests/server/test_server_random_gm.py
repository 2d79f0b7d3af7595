"""A seeded random game master over every bundled example fight, through HTTP (issue 27, "Done when"; issue 36):
auto, end turn, undo, adjusts to a value and by an amount, within and beyond each stat's range, GM edits that down,
heal and revive, conditions on and off, a combatant joining and one leaving, and attacks (on the turn `GET` names,
and out of turn). No answer is a 5xx; an adjust beyond a stat's range is a 422 naming the field; and while the
fight is on (never after its last foe is down), two sides stand and `turn` names a standing combatant. On SQLite
and on a throwaway PostgreSQL."""

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


#: The actions the random GM takes, with their weights.
KINDS = {
    "auto": 5, "end_turn": 2, "undo": 2, "adjust": 2, "adjust_by": 2, "beyond": 1, "down": 1, "heal": 1,
    "condition": 2, "join": 1, "leave": 1, "attack": 3, "out_of_turn": 1,
}  # fmt: skip


def _gm(client: TestClient, example: str, seed: int) -> list[str]:
    """Play one example with a random GM; the kinds of action taken (for the test to check it tried each)."""
    rnd = random.Random(f"{example}:{seed}")
    made = client.post("/v1/encounters", json={"example": example, "seed": seed})
    assert made.status_code == 201, made.text
    eid, gm = made.json()["id"], {"Authorization": f"Bearer {made.json()['gm_token']}"}
    url = f"/v1/encounters/{eid}/actions"
    blocks = {c["name"]: c for s in examples.example(example)[1]["sides"] for c in s["combatants"]}
    taken: list[str] = []
    joined = 0
    for _ in range(ACTIONS):
        sheet = client.get(f"/v1/encounters/{eid}/sheet", headers=gm).json()
        names = [c["name"] for c in sheet["combatants"]]
        attacks = {c["name"]: c["attacks"] for c in sheet["combatants"]}
        side = {c["name"]: c["side"] for c in sheet["combatants"]}
        ranges: dict[str, list[int] | None] = sheet["ranges"]
        now = client.get(f"/v1/encounters/{eid}", headers=gm)
        assert now.status_code == 200, now.text
        enc = now.json()
        sides_up = {side[name] for name in enc["standing"]}
        if not enc["over"]:  # the fight is on: two sides stand, and it is somebody's turn (issue 36)
            assert len(sides_up) > 1, (example, enc["seq"], enc["standing"])
            assert enc["turn"] in enc["standing"], (example, enc["seq"], enc["turn"], enc["standing"])
        kind = rnd.choices(list(KINDS), list(KINDS.values()))[0]
        if enc["over"] and kind != "undo":
            kind = "undo"
        taken.append(kind)
        body: dict[str, Any]
        who = rnd.choice(names)
        health = next(stat for stat, r in ranges.items() if r is not None and stat in HEALTH)
        if kind == "undo":
            got = client.post(f"/v1/encounters/{eid}/undo", headers=gm)
            assert got.status_code < 500, (example, got.text)
            continue
        if kind in ("auto", "end_turn"):
            body = {"kind": kind}
        elif kind in ("adjust", "adjust_by", "beyond"):
            stat = rnd.choice(sorted(ranges))
            bounds = ranges[stat]
            now_value = int(enc["state"]["combatants"][who][stat])
            if kind == "adjust_by":
                body = {"kind": "adjust", "combatant": who, "stat": stat, "by": rnd.randint(-6, 6)}
            elif kind == "adjust":
                if bounds is None:
                    continue
                near = (max(bounds[0], now_value - 5), min(bounds[1], now_value + 5))
                value = rnd.choice([bounds[0], bounds[1], rnd.randint(*near) if near[0] <= near[1] else bounds[0]])
                body = {"kind": "adjust", "combatant": who, "stat": stat, "value": value}
            else:
                value = 0 if bounds is None else rnd.choice([bounds[0] - 1, bounds[1] + 1])
                body = {"kind": "adjust", "combatant": who, "stat": stat, "value": value}
            got = client.post(url, headers=gm, json=body)
            assert got.status_code < 500, (example, body, got.text)
            if kind == "beyond" and stat != health:  # health's top is each combatant's own maximum
                assert got.status_code == 422, (example, body, got.text)
                assert got.json()["error"]["field"] in ("value", "stat"), got.text
            continue
        elif kind == "down":  # the GM downs one, or revives one that is down
            body = {"kind": "adjust", "combatant": who, "stat": health, "value": 0}
        elif kind == "heal":
            body = {"kind": "adjust", "combatant": who, "stat": health, "by": rnd.randint(1, 40)}
        elif kind == "condition":
            body = {"kind": "condition", "combatant": who, "condition": rnd.choice(sheet["conditions"] or ["none"]),
                    "on": rnd.random() < 0.5}  # fmt: skip
        elif kind == "join":
            joined += 1
            model = dict(blocks[rnd.choice(sorted(blocks))], name=f"Newcomer {joined}")
            body = {"kind": "join", "side": rnd.choice(sorted(set(side.values()))), "combatant": model}
        elif kind == "leave":
            body = {"kind": "leave", "combatant": who}
        else:
            up = enc["standing"]
            attacker = enc["turn"] if kind == "attack" and enc["turn"] else rnd.choice(up)
            body = {
                "kind": "attack",
                "attacker": attacker,
                "attack": rnd.choice(attacks[attacker]),
                "targets": [rnd.choice(names)],
            }
        got = client.post(url, headers=gm, json=body)
        assert got.status_code < 500, (example, body, got.text)
    return taken


#: Each game's health stat (the one a GM downs and heals).
HEALTH = ("health", "lp", "hp", "life")


def _play_all(client: TestClient) -> None:
    kinds: set[str] = set()
    for k, example in enumerate(EXAMPLES):
        kinds.update(_gm(client, example, seed=27 + k))
    assert set(KINDS) <= kinds


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
    assert got.json()["error"]["message"] == "AP takes 0 or more; got -1"
