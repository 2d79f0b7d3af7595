"""The players' view tells each Kaiser and Last Odyssey event about a hidden foe in the game's own players' words
(issue 37, item 2; docs/players.md, the table): through the view token's events, what the table sees of it, no
number of its own; an event about nobody hidden in the game master's words."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.server.test_players_view import bearer, fight

#: Per fight: a kind of the game's own and what the players read of it about a hidden foe.
SAID = {
    "kaiser-troll": ("ap_spent", "{} spends AP"),
    "last-odyssey-ogre": ("ap", "{} spends an AP"),
}


@pytest.mark.parametrize("name", sorted(SAID))
def test_players_view_tells_a_hidden_foes_own_kinds_in_the_games_players_words(client: TestClient, name: str) -> None:
    created = client.post("/v1/encounters", json={"fight": fight(name), "seed": 3}).json()
    eid, gm, view = created["id"], created["gm_token"], created["view_token"]
    for _ in range(12):
        if client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=bearer(gm)).status_code != 201:
            break
    gm_events = {e["n"]: e for e in client.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()}
    hidden = set(client.get(f"/v1/encounters/{eid}", headers=bearer(view)).json()["hidden"])
    kind, words = SAID[name]
    checked = 0
    for event in client.get(f"/v1/encounters/{eid}/events", headers=bearer(view)).json():
        gm_event = gm_events[event["n"]]
        who = gm_event.get("combatant")
        if gm_event["kind"] != kind or "combatants" in gm_event:
            continue
        if who in hidden:
            assert event["text"] == words.format(who)
            assert not re.search(r"\d", event["text"])
            checked += 1
        else:
            assert event["text"] == gm_event["text"]
    assert checked
