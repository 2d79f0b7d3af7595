"""Where a creature stands is told to the players only while its square is seen (docs/players.md, "Out of sight";
server/players_sight.py), and a side named after a creature hidden entirely reads "side N" (docs/players.md,
"Hidden entirely")."""

from __future__ import annotations

import gc
from typing import Any

import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.grid.uvtt_fixtures import CELLAR_SPOTS, cellar, cellar_fight
from tests.server.test_players_view import bearer
from tohit.engine import vision
from tohit.engine.encounter import Encounter
from tohit.server.pictures import with_uvtt
from tohit.server.players_view import PlayersView

#: The cellar (tests/grid/uvtt_fixtures.py): the Moblin in the east room where the open door shows it, the
#: Bokoblin Archer in the corner the diagonal wall shuts off.
SPOTS = {**CELLAR_SPOTS, "Moblin": [7, 1]}
FOES = ("Bokoblin", "Bokoblin Archer", "Moblin")


def shown(client: TestClient, spots: dict[str, list[int]]) -> tuple[str, dict[str, str], dict[str, str]]:
    """The cellar with every foe shown to the players (their numbers, squares included, are theirs to read)."""
    made = client.post("/v1/encounters", json={"fight": cellar_fight(spots), "uvtt": cellar(), "seed": 4}).json()
    eid, gm, view = made["id"], bearer(made["gm_token"]), bearer(made["view_token"])
    for foe in FOES:
        act(client, eid, gm, {"kind": "reveal", "combatant": foe, "to_players": True})
    return eid, gm, view


def act(client: TestClient, eid: str, gm: dict[str, str], action: dict[str, Any]) -> None:
    answer = client.post(f"/v1/encounters/{eid}/actions", json=action, headers=gm)
    assert answer.status_code == 201, answer.text


def squares(client: TestClient, eid: str, view: dict[str, str]) -> dict[str, Any]:
    state = client.get(f"/v1/encounters/{eid}", headers=view).json()["state"]["combatants"]
    return {name: (stats.get("x"), stats.get("y")) for name, stats in state.items()}


def test_out_of_sight_a_foe_shown_to_the_players_has_no_square_in_their_state_sheet_or_events(
    client: TestClient,
) -> None:
    """Behind the closed door the Moblin, shown to the players, has no x, y in their state, in the start's state
    row nor in the sheet's starting stats (it started out of sight); the door opens: its square is told; the
    Archer behind the diagonal wall never has one. The GM reads every square."""
    eid, gm, view = shown(client, SPOTS)
    assert squares(client, eid, view) == {
        "Link": (0, 0), "Zelda": (0, 3), "Bokoblin": (3, 1), "Bokoblin Archer": (None, None), "Moblin": (None, None)
    }  # fmt: skip
    start = client.get(f"/v1/encounters/{eid}/events", headers=view).json()[0]["state"]["combatants"]
    assert "x" not in start["Moblin"] and start["Bokoblin"]["x"] == 3
    sheet = {
        c["name"]: c["start"] for c in client.get(f"/v1/encounters/{eid}/sheet", headers=view).json()["combatants"]
    }
    assert "x" not in sheet["Moblin"] and "y" not in sheet["Bokoblin Archer"] and sheet["Link"]["x"] == 0
    act(client, eid, gm, {"kind": "door", "door": 0, "closed": False})
    assert squares(client, eid, view)["Moblin"] == (7, 1)
    assert squares(client, eid, view)["Bokoblin Archer"] == (None, None)
    assert squares(client, eid, gm)["Bokoblin Archer"] == (8, 0)


def test_out_of_sight_a_move_tells_only_what_the_party_sees(client: TestClient) -> None:
    """The GM moves the Moblin: behind the closed door, nothing is told (the stream's `quiet`); through the open
    door, out of sight ("moves out of sight", no square where it ends), into sight ("comes into sight at"), and
    in sight at both ends in the game's words."""
    eid, gm, view = shown(client, SPOTS)
    act(client, eid, gm, {"kind": "move", "combatant": "Moblin", "to": [6, 2]})  # behind the closed door
    act(client, eid, gm, {"kind": "door", "door": 0, "closed": False})
    act(client, eid, gm, {"kind": "move", "combatant": "Moblin", "to": [7, 3]})  # out of sight
    act(client, eid, gm, {"kind": "move", "combatant": "Moblin", "to": [7, 1]})
    act(client, eid, gm, {"kind": "move", "combatant": "Moblin", "to": [6, 1]})
    moves = [e for e in client.get(f"/v1/encounters/{eid}/events", headers=view).json() if e["kind"] == "move"]
    assert [e["text"] for e in moves] == [
        "Moblin moves out of sight",
        "Moblin comes into sight at (7, 1)",
        "Moblin moves from (7, 1) to (6, 1) (moved by the GM)",
    ]
    out, into, seen = moves
    assert "to" not in out and out["from"] == [6, 2]  # seen where it started, once the door opened
    assert [sorted(ch) for ch in out["changes"]] == [["from", "stat", "who"]] * 2
    assert "from" not in into and into["to"] == [7, 1] and [ch["to"] for ch in into["changes"]] == [1]
    assert seen["from"] == [7, 1] and seen["to"] == [6, 1]
    kinds = []
    with client.stream("GET", f"/v1/encounters/{eid}/stream", params={"after": -1}, headers=view) as r:
        for line in r.iter_lines():
            kinds += [line.removeprefix("event: ")] if line.startswith("event: ") else []
            if len(kinds) == len(FOES) + 2:  # the start, the reveals, the move behind the closed door
                break
    assert kinds[-1] == "quiet", kinds


def test_out_of_sight_an_attacks_odds_are_as_far_as_the_party_sees(client: TestClient) -> None:
    """Zelda's Fireball (Blast 2 at (4, 1)) catches the Bokoblin and the Moblin beyond the closed door: the
    players' preview and dice name the Bokoblin only; odds on, or by, the Moblin out of sight are refused (403);
    the GM reads them all."""
    spots = {**CELLAR_SPOTS, "Zelda": [3, 2], "Moblin": [5, 1], "Bokoblin": [4, 2]}
    eid, gm, view = shown(client, spots)
    asked = {"attacker": "Zelda", "attack": "Fireball", "targets": ["Bokoblin"], "placement": "Blast 2 at (4, 1)"}
    for route in ("preview", "dice"):
        whole = client.post(f"/v1/encounters/{eid}/{route}", json=asked, headers=gm).json()["targets"]
        seen = client.post(f"/v1/encounters/{eid}/{route}", json=asked, headers=view).json()["targets"]
        assert [t if isinstance(t, str) else t["name"] for t in whole] == ["Bokoblin", "Moblin"]
        assert [t if isinstance(t, str) else t["name"] for t in seen] == ["Bokoblin"]
    on = client.post(f"/v1/encounters/{eid}/preview", json={**asked, "targets": ["Moblin"]}, headers=view)
    by = client.post(f"/v1/encounters/{eid}/preview", json={"attacker": "Moblin", "targets": ["Zelda"]}, headers=view)
    assert on.status_code == by.status_code == 403, (on.text, by.text)
    assert (on.json()["error"]["field"], by.json()["error"]["field"]) == ("targets", "attacker")
    assert "out of the party's sight" in on.json()["error"]["message"]


def test_a_side_named_after_a_creature_hidden_entirely_reads_side_n_until_it_is_brought_in(
    client: TestClient,
) -> None:
    """WSSWNN's Kulu brute, hidden entirely, is alone on its side "Kulu brute": the players read "side 2" in the
    sheet, the start ("Heroes vs side 2: round 1") and its sides; no read names it. Brought in, the sheet names
    its side again."""
    data = yaml.safe_load((EXAMPLES / "fights" / "wsswnn-kulu-brute.yaml").read_text())
    data["sides"][1]["combatants"][0]["hidden"] = True
    made = client.post("/v1/encounters", json={"fight": data, "seed": 4}).json()
    eid, gm, view = made["id"], bearer(made["gm_token"]), bearer(made["view_token"])
    for _ in range(4):
        act(client, eid, gm, {"kind": "auto"})
    sheet = client.get(f"/v1/encounters/{eid}/sheet", headers=view).json()
    assert sheet["sides"] == ["Heroes", "side 2"]
    events = client.get(f"/v1/encounters/{eid}/events", headers=view).json()
    assert events[0]["text"] == "Heroes vs side 2: round 1" and list(events[0]["sides"]) == ["Heroes", "side 2"]
    for path in ("", "/sheet", "/events", "/events.jsonl"):
        assert "Kulu" not in client.get(f"/v1/encounters/{eid}{path}", headers=view).text, path
    act(client, eid, gm, {"kind": "reveal", "combatant": "Kulu brute", "to_players": False})
    assert client.get(f"/v1/encounters/{eid}/sheet", headers=view).json()["sides"] == ["Heroes", "Kulu brute"]


def test_out_of_sight_the_partys_sight_per_event_is_walked_once_and_gone_on_from(monkeypatch: Any) -> None:
    """The players' reads ask the party's sight after every event (`vision.timeline`): the log is walked once,
    and a read after one more event walks that event only (a stream reads the encounter per event); nothing is
    kept once the encounter is gone."""
    enc = Encounter.create(with_uvtt(cellar_fight(SPOTS), cellar()), seed=1)
    walked: list[str] = []
    step = vision._Walk.step
    monkeypatch.setattr(vision._Walk, "step", lambda self, e, kept: walked.append(e["kind"]) or step(self, e, kept))
    for i in range(5):
        enc.act({"kind": "move", "combatant": "Link", "to": [1, 1] if i % 2 else [0, 0]})
    PlayersView(enc).events(enc.events)
    assert len(walked) == len(enc.events)
    enc.act({"kind": "door", "door": 0, "closed": False})
    found = PlayersView(enc).summary({"state": enc.state_json()})
    assert walked[len(enc.events) - 1 :] == ["door"] and found["state"]["combatants"]["Moblin"]["health"]
    key = id(enc)
    del enc
    gc.collect()
    assert key not in vision._TIMELINES  # kept only while the encounter lives


def test_a_side_named_after_an_ambusher_reads_side_n_on_the_players_map(client: TestClient) -> None:
    """The cellar's foes as "Moblin's band", the Moblin hidden entirely: the Bokoblin in sight stands on the
    players' map on "side 2", and no players' read names the Moblin; the GM's map names the side."""
    fight = cellar_fight(SPOTS)
    fight["sides"][1]["name"] = "Moblin's band"
    next(c for c in fight["sides"][1]["combatants"] if c["name"] == "Moblin")["hidden"] = True
    made = client.post("/v1/encounters", json={"fight": fight, "uvtt": cellar(), "seed": 4}).json()
    eid, gm, view = made["id"], bearer(made["gm_token"]), bearer(made["view_token"])
    act(client, eid, gm, {"kind": "door", "door": 0, "closed": False})  # the Moblin's square is seen: still absent
    drawn = client.post(f"/v1/encounters/{eid}/map", json={"attacker": "Link"}, headers=view).json()
    assert {c["name"]: c["side"] for c in drawn["creatures"]} == {
        "Link": "Heroes",
        "Zelda": "Heroes",
        "Bokoblin": "side 2",
    }
    for path in ("", "/sheet", "/events", "/events.jsonl"):
        assert "Moblin" not in client.get(f"/v1/encounters/{eid}{path}", headers=view).text, path
    whole = client.post(f"/v1/encounters/{eid}/map", json={"attacker": "Link"}, headers=gm).json()
    assert {c["side"] for c in whole["creatures"]} == {"Heroes", "Moblin's band"}


def test_out_of_sight_a_newcomer_joining_beyond_the_door_has_no_square_in_its_join(client: TestClient) -> None:
    """A second Moblin joins behind the closed door and is shown to the players: its join event keeps its file
    block without its `position`, its state row without its square; the GM's keeps both."""
    eid, gm, view = shown(client, SPOTS)
    block = {**next(c for c in cellar_fight(SPOTS)["sides"][1]["combatants"] if c["name"] == "Moblin")}
    act(client, eid, gm, {"kind": "join", "side": "Bokoblins", "combatant": {**block, "name": "Moblin 2",
                                                                                "position": [8, 3]}})  # fmt: skip
    act(client, eid, gm, {"kind": "reveal", "combatant": "Moblin 2", "to_players": True})
    joined = next(e for e in client.get(f"/v1/encounters/{eid}/events", headers=view).json() if e["kind"] == "join")
    assert "position" not in joined["block"] and "x" not in joined["state"]["combatants"]["Moblin 2"]
    told = next(e for e in client.get(f"/v1/encounters/{eid}/events", headers=gm).json() if e["kind"] == "join")
    assert told["block"]["position"] == [8, 3] and told["state"]["combatants"]["Moblin 2"]["x"] == 8


def test_an_attacks_dice_leave_out_a_creature_hidden_entirely_as_far_as_the_players_know(client: TestClient) -> None:
    """Ilse's Fire Wave (Multi) reaches every cop; Cop 3 is hidden entirely, Cop 1 and Cop 2 shown: the view
    token's dice answer names Cop 1 and Cop 2 only, never refused for the ambusher (a refusal would tell that
    something more stands there); the GM's names all three."""
    data = yaml.safe_load((EXAMPLES / "fights" / "last-odyssey-cops.yaml").read_text())
    data["sides"][1]["combatants"][2]["hidden"] = True
    made = client.post("/v1/encounters", json={"fight": data, "seed": 3}).json()
    eid, gm, view = made["id"], bearer(made["gm_token"]), bearer(made["view_token"])
    for cop in ("Cop 1", "Cop 2"):
        act(client, eid, gm, {"kind": "reveal", "combatant": cop, "to_players": True})
    asked = {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1"]}
    seen = client.post(f"/v1/encounters/{eid}/dice", json=asked, headers=view)
    assert seen.status_code == 200 and sorted(seen.json()["targets"]) == ["Cop 1", "Cop 2"], seen.text
    whole = client.post(f"/v1/encounters/{eid}/dice", json=asked, headers=gm).json()
    assert sorted(whole["targets"]) == ["Cop 1", "Cop 2", "Cop 3"]
