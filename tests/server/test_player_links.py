"""A link per player (issue 37, item 4): the GM makes, lists, replaces and revokes a token per combatant of the
players' side; with it the player reads what the players read plus every number of their own character, and plays
that character's turn (attack, move, end turn): everything else, and anything out of turn, is a 403 with a
reason. The links hold across a restart from the store (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.conftest import client_for
from tests.server.test_server_abuse import follow
from tohit.engine.fight.replay import replay
from tohit.server.security import hash_token
from tohit.store.db import PlayerLink, open_store

MAP = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())  # Link's turn first; Link next to Bokoblin


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: TestClient) -> dict[str, Any]:
    """The map fight with a player's link for Link and one for Zelda: id, gm, view, link, zelda (headers)."""
    created = client.post("/v1/encounters", json={"fight": MAP, "seed": 3}).json()
    eid, gm = created["id"], bearer(created["gm_token"])
    links = {}
    for name in ("Link", "Zelda"):
        r = client.post(f"/v1/encounters/{eid}/player_token", json={"combatant": name}, headers=gm)
        assert r.status_code == 201, r.text
        assert r.json()["combatant"] == name
        links[name.lower()] = bearer(r.json()["player_token"])
    return {"id": eid, "gm": gm, "view": bearer(created["view_token"]), **links}


def error(r: Any, status: int, field: str) -> str:
    assert r.status_code == status, r.text
    found = r.json()["error"]
    assert found["field"] == field, found
    message: str = found["message"]
    return message


def acted(client: TestClient, t: dict[str, Any], who: str, body: dict[str, Any]) -> Any:
    return client.post(f"/v1/encounters/{t['id']}/actions", json=body, headers=t[who])


# -- the GM's links ---------------------------------------------------------------------------------------------
def test_the_gm_makes_a_players_link_lists_it_and_reads_it_again(client: TestClient) -> None:
    t = new_table(client)
    listed = client.get(f"/v1/encounters/{t['id']}/player_tokens", headers=t["gm"]).json()["player_tokens"]
    assert [x["combatant"] for x in listed] == ["Link", "Zelda"]
    assert {x["combatant"]: bearer(x["player_token"]) for x in listed} == {"Link": t["link"], "Zelda": t["zelda"]}
    again = client.get(f"/v1/encounters/{t['id']}/player_tokens", headers=t["gm"]).json()["player_tokens"]
    assert again == listed  # read again, not replaced
    sheet = client.get(f"/v1/encounters/{t['id']}/sheet", headers=t["link"]).json()
    assert (sheet["role"], sheet["player"]) == ("player", "Link")


def test_a_players_link_made_again_replaces_the_old_one(client: TestClient) -> None:
    t = new_table(client)
    r = client.post(f"/v1/encounters/{t['id']}/player_token", json={"combatant": "Link"}, headers=t["gm"])
    new = bearer(r.json()["player_token"])
    assert new != t["link"]
    error(client.get(f"/v1/encounters/{t['id']}", headers=t["link"]), 403, "Authorization")
    error(acted(client, t, "link", {"kind": "end_turn"}), 403, "Authorization")
    assert client.get(f"/v1/encounters/{t['id']}", headers=new).status_code == 200
    assert acted(client, {**t, "new": new}, "new", {"kind": "end_turn"}).status_code == 201


def test_a_revoked_players_link_opens_nothing_and_never_comes_back(client: TestClient) -> None:
    t = new_table(client)
    assert client.delete(f"/v1/encounters/{t['id']}/player_tokens/Link", headers=t["gm"]).status_code == 204
    error(client.get(f"/v1/encounters/{t['id']}/sheet", headers=t["link"]), 403, "Authorization")
    error(acted(client, t, "link", {"kind": "end_turn"}), 403, "Authorization")
    listed = client.get(f"/v1/encounters/{t['id']}/player_tokens", headers=t["gm"]).json()["player_tokens"]
    assert [x["combatant"] for x in listed] == ["Zelda"]
    error(client.delete(f"/v1/encounters/{t['id']}/player_tokens/Link", headers=t["gm"]), 404, "combatant")
    r = client.post(f"/v1/encounters/{t['id']}/player_token", json={"combatant": "Link"}, headers=t["gm"])
    assert bearer(r.json()["player_token"]) != t["link"]  # a new generation: the revoked token stays dead
    error(client.get(f"/v1/encounters/{t['id']}", headers=t["link"]), 403, "Authorization")


def test_a_players_link_is_refused_for_an_unknown_combatant_a_foe_and_one_who_left(client: TestClient) -> None:
    t = new_table(client)
    made = f"/v1/encounters/{t['id']}/player_token"
    assert "no combatant 'Ganon'" in error(
        client.post(made, json={"combatant": "Ganon"}, headers=t["gm"]), 422, "combatant"
    )
    foe = error(client.post(made, json={"combatant": "Moblin"}, headers=t["gm"]), 422, "combatant")
    assert foe == "Moblin is on the side Bokoblins, not the players' side Heroes: a player's link plays one of Heroes"
    assert acted(client, t, "gm", {"kind": "leave", "combatant": "Zelda"}).status_code == 201
    left = error(client.post(made, json={"combatant": "Zelda"}, headers=t["gm"]), 422, "combatant")
    assert left == "Zelda has left the fight: a player's link is for a combatant in it"
    error(client.post(made, json={"combatant": "Link", "more": 1}, headers=t["gm"]), 422, "more")
    error(client.post(made, json={}, headers=t["gm"]), 422, "combatant")


def test_only_the_gm_token_makes_lists_and_revokes_players_links(client: TestClient) -> None:
    t = new_table(client)
    for who in ("view", "link"):
        error(client.post(f"/v1/encounters/{t['id']}/player_token", json={"combatant": "Link"}, headers=t[who]), 403,
              "Authorization")  # fmt: skip
        error(client.get(f"/v1/encounters/{t['id']}/player_tokens", headers=t[who]), 403, "Authorization")
        error(client.delete(f"/v1/encounters/{t['id']}/player_tokens/Zelda", headers=t[who]), 403, "Authorization")
    error(client.get(f"/v1/encounters/{t['id']}/player_tokens"), 401, "Authorization")


# -- what a player reads ------------------------------------------------------------------------------------------
def test_a_player_reads_what_the_players_read_plus_every_number_of_their_own(client: TestClient) -> None:
    t = new_table(client)
    hide = {"kind": "reveal", "combatant": "Link", "to_players": False}  # the GM hides Link from the players' view
    assert acted(client, t, "gm", hide).status_code == 201
    state = {
        who: client.get(f"/v1/encounters/{t['id']}", headers=t[who]).json() for who in ("gm", "view", "link", "zelda")
    }
    assert state["view"]["state"]["combatants"]["Link"] == {"health": "unhurt"}
    assert state["zelda"]["state"]["combatants"]["Link"] == {"health": "unhurt"}
    gm_link = state["gm"]["state"]["combatants"]["Link"]
    untold = {k: v for k, v in gm_link.items() if k != "dealt"}  # Damage dealt: never the players' (docs/players.md)
    assert state["link"]["state"]["combatants"]["Link"] == untold and "dealt" in gm_link
    assert "Link" not in state["link"]["hidden"] and "Moblin" in state["link"]["hidden"]
    assert state["link"]["state"]["combatants"]["Moblin"] == state["view"]["state"]["combatants"]["Moblin"]
    sheet = client.get(f"/v1/encounters/{t['id']}/sheet", headers=t["link"]).json()
    own = next(c for c in sheet["combatants"] if c["name"] == "Link")
    assert own["start"] and not own.get("hidden")
    events = client.get(f"/v1/encounters/{t['id']}/events", headers=t["link"]).json()
    assert all("seed" not in e for e in events)  # no seed, as the view token's read
    assert "notes" not in state["link"]
    body = {"attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]}
    error(client.post(f"/v1/encounters/{t['id']}/preview", json=body, headers=t["link"]), 403, "targets")


def test_a_player_previews_attacks_on_a_revealed_foe(client: TestClient) -> None:
    t = new_table(client)
    assert acted(client, t, "gm", {"kind": "reveal", "combatant": "Bokoblin", "to_players": True}).status_code == 201
    body = {"attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]}
    r = client.post(f"/v1/encounters/{t['id']}/preview", json=body, headers=t["link"])
    assert r.status_code == 200, r.text
    assert r.json()["targets"][0]["name"] == "Bokoblin" and r.json()["targets"][0]["result"]
    assert client.post(f"/v1/encounters/{t['id']}/dice", json=body, headers=t["link"]).status_code == 200
    assert client.post(f"/v1/encounters/{t['id']}/map", json={"attacker": "Link"}, headers=t["link"]).status_code == 200


# -- what a player does -------------------------------------------------------------------------------------------
def test_a_player_attacks_on_their_turn_and_the_event_says_their_player_played_it(client: TestClient) -> None:
    t = new_table(client)
    r = acted(client, t, "link", {"kind": "attack", "attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]})
    assert r.status_code == 201, r.text
    assert r.json()["events"] and all(e["player"] == "Link" for e in r.json()["events"])
    attack = next(e for e in r.json()["events"] if e["kind"] == "attack")
    gm_events = client.get(f"/v1/encounters/{t['id']}/events", headers=t["gm"]).json()
    assert next(e for e in gm_events if e["n"] == attack["n"])["player"] == "Link"
    auto = acted(client, t, "gm", {"kind": "end_turn"})
    assert all("player" not in e for e in auto.json()["events"])  # the GM's own carry no player


def test_a_player_types_their_own_dice(client: TestClient) -> None:
    t = new_table(client)
    body = {"kind": "attack", "attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]}
    dice = client.post(f"/v1/encounters/{t['id']}/dice", json=body, headers=t["gm"]).json()
    typed = {role["role"]: [1] * len(role["sides"] or [1]) for role in dice["roles"] if role["when"] == "always"}
    r = acted(client, t, "link", {**body, "dice": typed})
    assert r.status_code == 201, r.text
    attack = next(e for e in r.json()["events"] if e["kind"] == "attack")
    assert all(attack["dice"][role] == faces for role, faces in typed.items())


def test_a_player_moves_their_token_and_ends_their_turn(client: TestClient) -> None:
    t = new_table(client)
    r = acted(client, t, "link", {"kind": "move", "combatant": "Link", "to": [2, 0]})
    assert r.status_code == 201, r.text
    assert r.json()["events"][0]["text"] == "Link moves from (2, 1) to (2, 0) (moved by Link's player)"
    where = client.post(f"/v1/encounters/{t['id']}/map", json={"attacker": "Link"}, headers=t["gm"]).json()
    assert next(c for c in where["creatures"] if c["name"] == "Link")["squares"] == [[2, 0]]
    r = acted(client, t, "link", {"kind": "end_turn"})
    assert r.status_code == 201, r.text
    assert r.json()["events"][0]["text"] == "Link's turn ends (Link's player moves on)"
    assert client.get(f"/v1/encounters/{t['id']}", headers=t["gm"]).json()["turn"] != "Link"


def test_a_player_cannot_act_out_of_turn(client: TestClient) -> None:
    t = new_table(client)
    assert client.get(f"/v1/encounters/{t['id']}", headers=t["gm"]).json()["turn"] == "Link"
    message = "it is Link's turn: Zelda's player acts on Zelda's turn only"
    assert error(acted(client, t, "zelda", {"kind": "end_turn"}), 403, "kind") == message
    body = {"kind": "attack", "attacker": "Zelda", "attack": "Magic Salvo", "targets": ["Bokoblin"]}
    assert error(acted(client, t, "zelda", body), 403, "attacker") == message
    assert (
        error(acted(client, t, "zelda", {"kind": "move", "combatant": "Zelda", "to": [1, 4]}), 403, "combatant")
        == message
    )
    assert client.get(f"/v1/encounters/{t['id']}", headers=t["gm"]).json()["seq"] == 0  # nothing written


def test_a_player_cannot_act_for_another_combatant(client: TestClient) -> None:
    t = new_table(client)
    body = {"kind": "attack", "attacker": "Zelda", "attack": "Magic Salvo", "targets": ["Bokoblin"]}
    assert error(acted(client, t, "link", body), 403, "attacker") == "this player's link plays Link, not Zelda"
    move = {"kind": "move", "combatant": "Bokoblin", "to": [5, 0]}
    assert error(acted(client, t, "link", move), 403, "combatant") == "this player's link plays Link, not Bokoblin"


GM_ONLY = [
    {"kind": "auto"},
    {"kind": "adjust", "combatant": "Link", "stat": "hearts", "value": 9},
    {"kind": "join", "copy_of": "Moblin"},
    {"kind": "leave", "combatant": "Moblin"},
    {"kind": "condition", "combatant": "Link", "condition": "Paralyzed", "on": True},
    {"kind": "dice", "expression": "2d6"},
    {"kind": "reveal", "combatant": "Moblin", "to_players": True},
    {"kind": "note", "combatant": "Link", "text": "brave"},
    {"kind": "delay", "combatant": "Link"},
    {"kind": "door", "door": 0, "closed": True},
    {"kind": "undo"},
]


def test_every_other_action_is_the_gms_even_on_the_players_turn(client: TestClient) -> None:
    t = new_table(client)
    for body in GM_ONLY:
        words = body["kind"].replace("_", " ")
        message = error(acted(client, t, "link", body), 403, "kind")
        assert message == f"a player's link attacks, moves and ends the turn of Link only: {words!r} is the GM's to do"
    assert client.get(f"/v1/encounters/{t['id']}", headers=t["gm"]).json()["seq"] == 0  # nothing written


def test_the_gms_routes_are_403_for_a_player_with_a_reason(client: TestClient) -> None:
    t = new_table(client)
    route = f"/v1/encounters/{t['id']}"
    reason = "a player's link plays Link's turn (attack, move, end turn); only the GM token does this"
    for r in (
        client.post(f"{route}/undo", headers=t["link"]),
        client.post(f"{route}/view_token", headers=t["link"]),
        client.get(f"{route}/view_token", headers=t["link"]),
        client.patch(route, json={"name": "mine"}, headers=t["link"]),
        client.delete(route, headers=t["link"]),
    ):
        assert error(r, 403, "Authorization") == reason
    assert client.get(route, headers=t["gm"]).status_code == 200


def test_the_gm_undoes_a_players_attack(client: TestClient) -> None:
    t = new_table(client)
    before = client.get(f"/v1/encounters/{t['id']}", headers=t["gm"]).json()["state"]
    r = acted(client, t, "link", {"kind": "attack", "attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]})
    assert r.status_code == 201
    undone = client.post(f"/v1/encounters/{t['id']}/undo", headers=t["gm"])
    assert undone.status_code == 201, undone.text
    assert undone.json()["events"][0]["undoes"] == r.json()["events"][0]["action"]
    assert client.get(f"/v1/encounters/{t['id']}", headers=t["gm"]).json()["state"] == before


def test_the_gm_export_of_a_players_actions_replays(client: TestClient, tmp_path: Path) -> None:
    t = new_table(client)
    acted(client, t, "link", {"kind": "attack", "attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]})
    acted(client, t, "link", {"kind": "end_turn"})
    text = client.get(f"/v1/encounters/{t['id']}/events.jsonl", headers=t["gm"]).text
    log = [json.loads(line) for line in text.splitlines()]
    assert any(e.get("player") == "Link" for e in log)
    (tmp_path / "log.jsonl").write_text(text)
    replay(tmp_path / "log.jsonl")


# -- live, and held in the store --------------------------------------------------------------------------------------
def test_the_gm_sees_a_players_action_land_live_and_a_revoked_players_stream_ends(client: TestClient) -> None:
    t = new_table(client)
    gm_seen: list[str] = []
    mine: list[str] = []
    gm_token, link = (t[who]["Authorization"].removeprefix("Bearer ") for who in ("gm", "link"))
    keeper, player = follow(client, t["id"], gm_token, gm_seen), follow(client, t["id"], link, mine)
    time.sleep(0.3)
    acted(client, t, "link", {"kind": "attack", "attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]})
    for _ in range(100):
        if '"player": "Link"' in "".join(gm_seen) and "event: attack" in "".join(mine):
            break
        time.sleep(0.05)
    assert '"player": "Link"' in "".join(gm_seen)
    assert "event: attack" in "".join(mine)
    assert client.delete(f"/v1/encounters/{t['id']}/player_tokens/Link", headers=t["gm"]).status_code == 204
    player.join(10)
    assert not player.is_alive()
    assert "no longer opens" in "".join(mine)
    assert keeper.is_alive()
    assert client.delete(f"/v1/encounters/{t['id']}", headers=t["gm"]).status_code == 204
    keeper.join(10)


def test_players_links_hold_across_a_restart_from_the_store(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tohit.db'}"
    with client_for(db) as client:
        t = new_table(client)
        assert client.delete(f"/v1/encounters/{t['id']}/player_tokens/Zelda", headers=t["gm"]).status_code == 204
    with client_for(db) as client:
        listed = client.get(f"/v1/encounters/{t['id']}/player_tokens", headers=t["gm"]).json()["player_tokens"]
        assert [(x["combatant"], bearer(x["player_token"])) for x in listed] == [("Link", t["link"])]
        assert acted(client, t, "link", {"kind": "end_turn"}).status_code == 201
        error(client.get(f"/v1/encounters/{t['id']}", headers=t["zelda"]), 403, "Authorization")


def test_the_store_keeps_players_links_made_replaced_revoked_and_deleted_with_the_encounter(url: str) -> None:
    with client_for(url) as client:
        t = new_table(client)
        client.delete(f"/v1/encounters/{t['id']}/player_tokens/Zelda", headers=t["gm"])
    store = open_store(url)
    try:
        row = store.get(t["id"])
        assert row is not None
        link = hash_token(t["link"]["Authorization"].removeprefix("Bearer "))
        assert row.players == (PlayerLink("Link", link, 0), PlayerLink("Zelda", None, 0))
        store.set_player_link(t["id"], PlayerLink("Link", "a" * 64, 1))
        again = store.get(t["id"])
        assert again is not None and again.players[0] == PlayerLink("Link", "a" * 64, 1)
        assert store.delete(t["id"])
        with store.engine.connect() as db:
            from sqlalchemy import text

            assert db.execute(text("SELECT count(*) FROM player_links")).scalar() == 0
    finally:
        store.close()


def test_a_store_made_before_players_links_is_migrated_and_its_encounters_have_none(tmp_path: Path) -> None:
    from importlib import resources

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, inspect

    url = f"sqlite:///{tmp_path / 'old.db'}"
    with client_for(url) as client:
        created = client.post("/v1/encounters", json={"fight": MAP, "seed": 3}).json()
    config = Config()
    config.set_main_option("script_location", str(resources.files("tohit.store") / "migrations"))
    engine = create_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")  # the store as it was before players' links, with its encounter
    assert "player_links" not in inspect(engine).get_table_names()
    engine.dispose()
    with client_for(url) as client:  # the server migrates it at its start
        eid, gm = created["id"], bearer(created["gm_token"])
        assert client.get(f"/v1/encounters/{eid}/player_tokens", headers=gm).json() == {"player_tokens": []}
        made = client.post(f"/v1/encounters/{eid}/player_token", json={"combatant": "Link"}, headers=gm).json()
        assert client.get(f"/v1/encounters/{eid}", headers=bearer(made["player_token"])).status_code == 200
