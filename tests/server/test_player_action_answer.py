"""A player's action is answered in the players' words (docs/players.md, "A link per player"): its events, trace
and state as that player's stream and GET tell them, never the GM's numbers of a foe the GM keeps (its health,
its Evasion in the trace), which their page would show in its result and log."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.test_player_links import acted, new_table


def test_a_players_attack_on_a_kept_foe_is_answered_in_the_players_words(client: TestClient) -> None:
    t = new_table(client)  # Link's turn; the Bokoblin's numbers kept from the players (the default for a foe)
    body = {
        "kind": "attack",
        "attacker": "Link",
        "attack": "Strike",
        "targets": ["Bokoblin"],
        "dice": {"to_hit": [6, 6]},
    }
    r = acted(client, t, "link", body)
    assert r.status_code == 201, r.text
    answer = r.json()
    gm = client.get(f"/v1/encounters/{t['id']}/events", headers=t["gm"]).json()
    said = client.get(f"/v1/encounters/{t['id']}/events", headers=t["link"]).json()
    mine = [e for e in said if e.get("action") == answer["events"][0]["action"]]
    assert [e["text"] for e in answer["events"]] == [e["text"] for e in mine]  # as their own read tells them
    hurt = next(e for e in gm if e["kind"] == "damage")["changes"][0]
    assert (hurt["who"], hurt["stat"]) == ("Bokoblin", "health")
    assert all(ch.keys() == {"who", "stat"} for e in answer["events"] for ch in e["changes"] if ch["who"] == "Bokoblin")
    assert answer["trace"] == [] and "Evasion" not in r.text  # the trace reads the foe's Evasion: the GM's
    assert answer["state"]["combatants"]["Bokoblin"] == {"health": "down"}
    assert answer["state"]["combatants"]["Link"]["health"] > 0  # their own: every number
    attack = next(e for e in answer["events"] if e["kind"] == "attack")
    assert attack["dice"] == {"to_hit": [6, 6]} and attack["player"] == "Link"  # the faces they typed
