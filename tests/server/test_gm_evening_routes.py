"""The evening's GM tools over HTTP (issue 39, items 1-6): durations on the cards, copies and the bestiary, several
at once, notes never in a players' read, delay (tests/server/test_delay_routes.py: in each game's order), and the
players' link read again without replacing it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.conftest import client_for
from tohit.server.security import hash_token
from tohit.store.db import open_store


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def made(client: TestClient, **body: Any) -> tuple[str, dict[str, str], dict[str, str], dict[str, Any]]:
    found = client.post("/v1/encounters", json={"seed": 2, **body}).json()
    return f"/v1/encounters/{found['id']}", bearer(found["gm_token"]), bearer(found["view_token"]), found


def test_the_players_link_is_read_again_without_replacing_it(client: TestClient) -> None:
    """GET …/view_token (the GM) answers the view token the encounter was made with, again and again, and it
    still reads; after POST makes a new one, GET answers the new one and the old stops working; the view token
    itself may not ask (403)."""
    url, gm, view, found = made(client, example="file/kaiser-duel")
    for _ in range(2):
        got = client.get(f"{url}/view_token", headers=gm)
        assert got.status_code == 200 and got.json() == {"view_token": found["view_token"]}
    assert client.get(url, headers=view).status_code == 200
    assert client.get(f"{url}/view_token", headers=view).status_code == 403
    new = client.post(f"{url}/view_token", headers=gm).json()["view_token"]
    assert client.get(f"{url}/view_token", headers=gm).json() == {"view_token": new} and new != found["view_token"]
    assert client.get(url, headers=view).status_code == 403 and client.get(url, headers=bearer(new)).status_code == 200


def test_a_players_link_made_before_links_were_kept_is_a_404_naming_the_field(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'old.db'}"
    with client_for(db) as client:
        url, gm, _, found = made(client, example="file/kaiser-duel")
        store = open_store(db)
        store.set_view_hash(found["id"], hash_token("a random token of the old kind"))
        store.close()
        got = client.get(f"{url}/view_token", headers=gm)
        assert got.status_code == 404 and got.json()["error"]["field"] == "view_token", got.text
        assert "make a new one" in got.json()["error"]["message"]


def test_notes_and_durations_on_the_gms_cards_and_never_a_note_to_the_players(client: TestClient) -> None:
    url, gm, view, _ = made(client, example="file/kaiser-party-vs-bandits")
    for body in (
        {"kind": "note", "combatant": "Bandit", "text": "flees below 10 LP"},
        {"kind": "condition", "combatant": "Bandit", "condition": "Flat-Footed", "on": True, "rounds": 2, "of": "Ceil"},
    ):
        assert client.post(f"{url}/actions", json=body, headers=gm).status_code == 201
    mine = client.get(url, headers=gm).json()
    assert mine["notes"] == {"Bandit": "flees below 10 LP"}
    assert mine["durations"]["Bandit"] == [
        {"condition": "Flat-Footed", "left": 2, "text": "2 rounds", "ends": "at the end of Ceil's turn"}
    ]
    theirs = client.get(url, headers=view).json()
    assert "notes" not in theirs and theirs["durations"] == {}  # the Bandit is hidden from the players
    body = {"kind": "reveal", "combatant": "Bandit", "to_players": True}
    assert client.post(f"{url}/actions", json=body, headers=gm).status_code == 201
    theirs = client.get(url, headers=view).json()
    assert "notes" not in theirs and theirs["durations"] == mine["durations"]
    for route in ("events", "events.jsonl"):
        text = client.get(f"{url}/{route}", headers=view).text
        assert "flees" not in text and "the GM writes a note" in text


def test_several_at_once_copies_and_delay_over_http(client: TestClient) -> None:
    url, gm, _, _ = made(client, example="file/kaiser-party-vs-bandits")
    sheet = client.get(f"{url}/sheet", headers=gm).json()
    assert sheet["bestiary"] == [] and sheet["delay"] is None  # Kaiser's order, kept by the encounter, allows one
    got = client.post(f"{url}/actions", json={"kind": "adjust", "combatants": ["Ceil", "Aldo"], "stat": "LP", "by": -2},
                      headers=gm)  # fmt: skip
    assert got.status_code == 201 and len(got.json()["events"]) == 1
    bad = client.post(f"{url}/actions", json={"kind": "adjust", "combatants": ["Ceil", "Nobody"], "stat": "LP",
                                               "by": -2}, headers=gm)  # fmt: skip
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "combatants.1"
    joined = client.post(f"{url}/actions", json={"kind": "join", "copy_of": "Bandit", "count": 2}, headers=gm)
    assert [e["combatant"] for e in joined.json()["events"]] == ["Bandit 2", "Bandit 3"]
    turn = client.get(url, headers=gm).json()["turn"]
    delayed = client.post(f"{url}/actions", json={"kind": "delay", "combatant": turn}, headers=gm)
    assert delayed.status_code == 201 and client.get(url, headers=gm).json()["turn"] != turn
    refused = client.post(f"{url}/actions", json={"kind": "delay", "combatant": turn}, headers=gm)
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "combatant"


def test_a_bestiary_is_offered_on_the_sheet_and_joins_by_name(client: TestClient) -> None:
    data = yaml.safe_load((EXAMPLES / "fights" / "last-odyssey-cops.yaml").read_text())
    data["bestiary"] = [{**data["sides"][1]["combatants"][0], "name": "Sergeant"}]
    url, gm, _, _ = made(client, fight=data)
    sheet = client.get(f"{url}/sheet", headers=gm).json()
    assert sheet["bestiary"] == ["Sergeant"] and sheet["delay"] is None
    body = {"kind": "join", "combatant": "Sergeant", "side": sheet["sides"][1]}
    assert client.post(f"{url}/actions", json=body, headers=gm).status_code == 201
    turn = client.get(url, headers=gm).json()["turn"]
    delayed = client.post(f"{url}/actions", json={"kind": "delay", "combatant": turn}, headers=gm)
    assert delayed.status_code == 201, delayed.text
    assert client.get(url, headers=gm).json()["turn"] != turn


def test_several_at_once_on_a_hidden_combatant_reads_no_value_to_the_players(client: TestClient) -> None:
    """A condition set on Ceil and the hidden Bandit at once: the players read Ceil's words, and for the Bandit
    what the table sees, told from the event's data (issue 37: no "?" standing for a word), none of the parts'
    texts, which the GM reads."""
    url, gm, view, _ = made(client, example="file/kaiser-party-vs-bandits")
    body = {"kind": "condition", "combatants": ["Ceil", "Bandit"], "condition": "Flat-Footed", "on": True}
    assert client.post(f"{url}/actions", json=body, headers=gm).status_code == 201
    event = client.get(f"{url}/events", headers=view).json()[-1]
    assert event["text"] == "Ceil is Flat-Footed (set by the GM); Bandit: Flat-Footed (by the GM)"
    assert "each" not in event
