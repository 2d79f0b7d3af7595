"""The routes the web table adds to `tohit serve` (issue 17), through FastAPI's TestClient: the bundled examples,
a new encounter from a file's text or an example, the sheet, the dice roles, a new share token, the admin list with
round and standing, and the map and aim of an encounter whose game has map rules. Bad input is a 422 naming the
field, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN
from tohit.core.fight.contract import rules_for
from tohit.core.fight.readings import label_of
from tohit.engine import registry

#: Each combatant's weapons in the bokoblin camp (one each).
WEAPONS = {
    "Link": ["traveler's sword"], "Zelda": ["rod"], "Bokoblin 1": ["boko club"], "Bokoblin 2": ["boko spear"],
    "Moblin": ["moblin club"],
}  # fmt: skip
MAP_FIGHT = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def made(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/v1/encounters", json=body)
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_table_examples_list_every_games_starter_fight(client: TestClient) -> None:
    listed = client.get("/v1/examples").json()
    starters = {e["system"] for e in listed if e["id"].startswith("starter/")}
    assert starters == {s.id for s in registry.systems().values() if s.starter(fight=True) is not None}
    assert any(e["id"] == "file/rtw-map" for e in listed)  # a checkout's examples/fights
    one = made(client, example="file/kaiser-duel")
    assert one["state"]["combatants"]
    missing = client.post("/v1/encounters", json={"example": "file/nothing"})
    assert missing.status_code == 422 and missing.json()["error"]["field"] == "example"


def test_table_create_from_text_names_the_file_and_field_as_the_cli_does(client: TestClient) -> None:
    text = (EXAMPLES / "fights" / "kaiser-duel.yaml").read_text()
    assert made(client, name="duel.yaml", text=text)["seq"] == 0
    bad = client.post("/v1/encounters", json={"name": "bad.yaml", "text": "system: kaiser\nsides: 3\n"})
    assert bad.status_code == 422
    assert bad.json()["error"] == {"source": "bad.yaml", "field": "sides", "message": bad.json()["error"]["message"]}
    broken = client.post("/v1/encounters", json={"name": "broken.json", "text": "{"})
    assert broken.status_code == 422 and broken.json()["error"]["source"] == "broken.json"
    both = client.post("/v1/encounters", json={"text": text, "example": "starter/kaiser"})
    assert both.status_code == 422 and both.json()["error"]["field"] == "fight"
    assert client.get("/v1/encounters", headers=bearer(ADMIN)).json().__len__() == 1


def test_table_sheet_dice_and_faces_off_their_die(client: TestClient) -> None:
    one = made(client, example="starter/fullplate")
    eid, gm, view = one["id"], bearer(one["gm_token"]), bearer(one["view_token"])
    sheet = client.get(f"/v1/encounters/{eid}/sheet", headers=view).json()
    assert sheet["role"] == "view" and client.get(f"/v1/encounters/{eid}/sheet", headers=gm).json()["role"] == "gm"
    first, last = sheet["combatants"][0], sheet["combatants"][-1]
    assert sheet["health"] in first["start"] and first["attacks"] and sheet["map"] is False
    body = {"attacker": first["name"], "targets": [last["name"]]}
    roles = client.post(f"/v1/encounters/{eid}/dice", json=body, headers=gm).json()["roles"]
    hidden = client.post(f"/v1/encounters/{eid}/dice", json=body, headers=view)  # the last is a hidden foe
    assert hidden.status_code == 403 and hidden.json()["error"]["field"] == "targets"
    assert last["name"] in hidden.json()["error"]["message"]
    assert all(r["sides"] for r in roles)  # FullPlate rolls plain dice: each face is checked against its die
    role, sides = roles[0]["role"], roles[0]["sides"]
    off = {"kind": "attack", **body, "dice": {role: [s + 1 for s in sides]}}
    refused = client.post(f"/v1/encounters/{eid}/actions", json=off, headers=gm)
    assert refused.status_code == 422 and refused.json()["error"]["field"] == f"dice.{role}"
    unknown = client.post(f"/v1/encounters/{eid}/actions", json={**off, "dice": {"nope": [1]}}, headers=gm)
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "dice.nope"
    assert client.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"] == 0
    fitting = {"kind": "attack", **body, "dice": {r["role"]: [1 for _ in r["sides"]] for r in roles}}
    assert client.post(f"/v1/encounters/{eid}/actions", json=fitting, headers=gm).status_code == 201


def test_table_admin_lists_round_and_standing_and_acts_as_gm(client: TestClient) -> None:
    one = made(client, example="starter/kaiser")
    listed = client.get("/v1/encounters", headers=bearer(ADMIN)).json()
    assert listed[0]["round"] == 1 and len(listed[0]["standing"]) == 2 and listed[0]["over"] is False
    acted = client.post(f"/v1/encounters/{one['id']}/actions", json={"kind": "auto"}, headers=bearer(ADMIN))
    assert acted.status_code == 201
    assert client.get("/v1/encounters", headers=bearer(one["view_token"])).status_code == 403


def test_table_new_view_token_replaces_the_old(client: TestClient) -> None:
    one = made(client, example="starter/kaiser")
    eid = one["id"]
    assert client.post(f"/v1/encounters/{eid}/view_token", headers=bearer(one["view_token"])).status_code == 403
    fresh = client.post(f"/v1/encounters/{eid}/view_token", headers=bearer(one["gm_token"])).json()["view_token"]
    assert client.get(f"/v1/encounters/{eid}", headers=bearer(fresh)).status_code == 200
    assert client.get(f"/v1/encounters/{eid}", headers=bearer(one["view_token"])).status_code == 403


def test_table_conditions_are_the_games_condition_stats(client: TestClient) -> None:
    one = made(client, example="starter/rtw")
    eid, gm = one["id"], bearer(one["gm_token"])
    name = next(iter(one["state"]["combatants"]))
    adjust = {"kind": "adjust", "combatant": name, "stat": "helpless", "value": 1}
    assert client.post(f"/v1/encounters/{eid}/actions", json=adjust, headers=gm).status_code == 201
    assert client.get(f"/v1/encounters/{eid}", headers=gm).json()["conditions"][name] == ["Helpless"]


def test_table_shown_reads_each_stat_as_a_player_does(client: TestClient) -> None:
    """A card's words (`shown`, the game's readings): each stat not internal with its label and text; a stat the
    file does not track is "—", a flag "yes"/"no", health against its maximum; a condition is a chip while set;
    never the state's bare code (-1 for none) nor a state key as a label."""
    one = made(client, example="file/rtw-bokoblin-camp")
    eid, gm = one["id"], bearer(one["gm_token"])
    got = client.get(f"/v1/encounters/{eid}", headers=gm).json()
    rules = rules_for(registry.get("rtw"))
    for name, entries in got["shown"].items():
        state = got["state"]["combatants"][name]
        assert {e["stat"] for e in entries} == {
            s for s in state if rules.readings[s.rstrip("0123456789")].kind != "internal"
        }
        weapons = WEAPONS[name]  # a stat per weapon is labelled with its weapon's name
        assert all(label_of(rules.readings, e["stat"], (), weapons) == e["label"] for e in entries)
        assert all("_" not in e["label"] for e in entries)
    assert {e["label"] for e in got["shown"]["Link"] if e["stat"] == "durability0"} == {"Durability (traveler's sword)"}
    name = next(n for n, stats in got["state"]["combatants"].items() if stats["magic"] == -1)
    words = {e["stat"]: e for e in got["shown"][name]}
    assert (words["magic"]["text"], words["helpless"]["chips"]) == ("—", [])
    health = got["state"]["combatants"][name]["health"]
    assert words["health"]["text"] == f"{health} / {health}" and words["health"]["label"] == "Health"
    assert "-1" not in [e["text"] for entries in got["shown"].values() for e in entries]
    assert "used0" not in words
    adjust = {"kind": "adjust", "combatant": name, "stat": "helpless", "value": 1}
    assert client.post(f"/v1/encounters/{eid}/actions", json=adjust, headers=gm).status_code == 201
    after = {e["stat"]: e for e in client.get(f"/v1/encounters/{eid}", headers=gm).json()["shown"][name]}
    assert after["helpless"]["chips"] == ["Helpless"]


def test_table_shown_names_the_combatant_a_reference_points_at(client: TestClient) -> None:
    """wsswnn's Grappling reads as the foe held (`Grappling: Kulu`), never its number; Guard against its
    maximum; its maximum itself internal."""
    one = made(client, example="file/wsswnn-grapple-and-archer")
    eid, gm = one["id"], bearer(one["gm_token"])
    names = list(one["state"]["combatants"])
    adjust = {"kind": "adjust", "combatant": names[0], "stat": "grappling", "value": 2}
    assert client.post(f"/v1/encounters/{eid}/actions", json=adjust, headers=gm).status_code == 201
    got = client.get(f"/v1/encounters/{eid}", headers=gm).json()
    words = {e["stat"]: e for e in got["shown"][names[0]]}
    assert words["grappling"]["chips"] == [f"Grappling: {names[1]}"] and words["grappling"]["text"] == names[1]
    guard = got["state"]["combatants"][names[0]]
    assert words["guard"]["text"] == f"{guard['guard']} / {guard['max_guard']}" and "max_guard" not in words


def test_table_map_and_aim_of_an_encounter_on_a_map(client: TestClient) -> None:
    one = made(client, name="rtw-map.yaml", fight=MAP_FIGHT)
    eid, view, gm = one["id"], bearer(one["view_token"]), bearer(one["gm_token"])
    assert client.get(f"/v1/encounters/{eid}/sheet", headers=view).json()["map"] is True
    body = {"attacker": "Zelda", "attack": "Fireball", "placement": {"at": [2, 1]}}
    found = client.post(f"/v1/encounters/{eid}/map", json=body, headers=view).json()
    assert (found["width"], found["height"], found["solid"]) == (8, 5, [[4, 2]])
    assert found["placement_fields"] == ["at"] and sorted(found["reached"]) == ["Bokoblin", "Link"]
    assert found["cover"]["Bokoblin Archer"]["square"] == [4, 2]  # the rock hides the archer from Zelda
    best = client.post(f"/v1/encounters/{eid}/aim", json={**body, "n": 2}, headers=gm).json()["best"]
    assert len(best) == 2 and best[0]["score"]["float"] >= best[1]["score"]["float"]


@pytest.mark.parametrize(
    ("placement", "field"),
    [({"at": [7, 4]}, "attack.range.at"), ({"at": "x"}, "attack.range"), ({"nope": 1}, "attack.range")],
)
def test_table_a_bad_placement_is_a_422_naming_the_field(
    client: TestClient, placement: dict[str, Any], field: str
) -> None:
    one = made(client, name="rtw-map.yaml", fight=MAP_FIGHT)
    body = {"attacker": "Zelda", "attack": "Fireball", "placement": placement}
    answer = client.post(f"/v1/encounters/{one['id']}/map", json=body, headers=bearer(one["gm_token"]))
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"].startswith(field)


def test_table_a_gridless_encounter_has_no_map(client: TestClient) -> None:
    one = made(client, example="starter/kaiser")
    body = {"attacker": next(iter(one["state"]["combatants"]))}
    answer = client.post(f"/v1/encounters/{one['id']}/map", json=body, headers=bearer(one["gm_token"]))
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "map"


def test_table_pages_and_their_files_are_served_locally(client: TestClient) -> None:
    for path in ("/", "/encounters/anything"):
        page = client.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "http://" not in page.text and "https://" not in page.text  # no CDN
    total = 0
    for name in ("api.js", "home.js", "tracker.js", "map.js", "table.css"):
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200
        assert "https://" not in answer.text
        total += len(answer.content)
    assert total < 300_000
    assert "/encounters/{encounter_id}" not in client.get("/openapi.json").json()["paths"]


def test_table_the_gm_rolls_an_attack_placed_on_the_map(client: TestClient) -> None:
    one = made(client, name="rtw-map.yaml", fight=MAP_FIGHT)
    eid, gm = one["id"], bearer(one["gm_token"])
    body = {"attacker": "Zelda", "attack": "Fireball", "placement": {"at": [2, 1]}}
    placed = client.post(f"/v1/encounters/{eid}/map", json=body, headers=gm).json()
    attack = {"kind": "attack", "attacker": "Zelda", "attack": "Fireball", "targets": ["Bokoblin"]}
    rolled = client.post(f"/v1/encounters/{eid}/actions", json={**attack, "placement": placed["range"]}, headers=gm)
    assert rolled.status_code == 201, rolled.text
    hit = sorted(e["target"] for e in rolled.json()["events"] if e.get("attack") == "Fireball")
    assert hit == sorted(placed["reached"])  # the squares shown are the squares rolled
    for placement, says in (("Blast 2 at (5, 5)", "no placement"), ("Projectile 6 at Moblin", "not a placement")):
        refused = client.post(f"/v1/encounters/{eid}/actions", json={**attack, "placement": placement}, headers=gm)
        assert refused.status_code == 422 and refused.json()["error"]["field"] == "placement"
        assert says in refused.json()["error"]["message"]
    gridless = made(client, example="starter/kaiser")
    names = list(gridless["state"]["combatants"])
    off_map = {"kind": "attack", "attacker": names[0], "targets": [names[1]], "placement": "Blast 2 at (2, 1)"}
    refused = client.post(
        f"/v1/encounters/{gridless['id']}/actions", json=off_map, headers=bearer(gridless["gm_token"])
    )
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "placement"


def test_table_the_gm_moves_a_creature_on_the_map(tmp_path: Any) -> None:
    """A move is one event changing the creature's position stats (x, y); the board follows it, after a restart
    too; an undo moves back;
    a square off the map, solid or taken is a 422 naming `to`; the exported log still replays."""
    from tests.server.conftest import client_for
    from tohit.engine.fight.replay import replay

    db = f"sqlite:///{tmp_path / 'moves.db'}"

    def moblin(client: TestClient, eid: str, gm: dict[str, str]) -> Any:
        found = client.post(f"/v1/encounters/{eid}/map", json={"attacker": "Zelda"}, headers=gm).json()
        return next(c["squares"] for c in found["creatures"] if c["name"] == "Moblin")

    with client_for(db) as client:
        one = made(client, name="rtw-map.yaml", fight=MAP_FIGHT)
        eid, gm = one["id"], bearer(one["gm_token"])
        moved = client.post(
            f"/v1/encounters/{eid}/actions", json={"kind": "move", "combatant": "Moblin", "to": [5, 4]}, headers=gm
        )
        assert moved.status_code == 201
        assert moved.json()["events"][0]["changes"] == [{"who": "Moblin", "stat": "x", "from": 2, "to": 5}]
        assert moblin(client, eid, gm) == [[5, 4]]
        for square in ([4, 2], [9, 9], [2, 1]):  # solid, off the map, Link's
            bad = {"kind": "move", "combatant": "Moblin", "to": square}
            refused = client.post(f"/v1/encounters/{eid}/actions", json=bad, headers=gm)
            assert refused.status_code == 422 and refused.json()["error"]["field"] == "to"
    with client_for(db) as client:  # a new server: the board rebuilt from the events
        assert moblin(client, eid, gm) == [[5, 4]]
        assert client.post(f"/v1/encounters/{eid}/undo", headers=gm).status_code == 201
        assert moblin(client, eid, gm) == [[2, 4]]
        for _ in range(100):
            if client.get(f"/v1/encounters/{eid}", headers=gm).json()["over"]:
                break
            client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=gm)
        log = tmp_path / "moves.jsonl"
        log.write_text(client.get(f"/v1/encounters/{eid}/events.jsonl", headers=gm).text)
        assert replay(log).matches
        gridless = made(client, example="starter/kaiser")
        who = next(iter(gridless["state"]["combatants"]))
        off_map = {"kind": "move", "combatant": who, "to": [1, 1]}
        path = f"/v1/encounters/{gridless['id']}/actions"
        refused = client.post(path, json=off_map, headers=bearer(gridless["gm_token"]))
        assert refused.status_code == 422 and refused.json()["error"]["field"] == "kind"


def test_table_a_forced_attack_on_the_map_is_played_whatever_the_policy(client: TestClient) -> None:
    """On a map, the GM's attack and target are played even for a combatant whose policy is `best` (Zelda): the
    policy used to pick its own attack instead."""
    one = made(client, name="rtw-map.yaml", fight=MAP_FIGHT)
    attack = {"kind": "attack", "attacker": "Zelda", "attack": "Magic Salvo", "targets": ["Moblin"]}
    played = client.post(f"/v1/encounters/{one['id']}/actions", json=attack, headers=bearer(one["gm_token"])).json()
    hits = [(e["attack"], e["target"]) for e in played["events"] if e.get("attack")]
    assert hits == [("Magic Salvo", "Moblin")]


def test_table_dice_say_when_each_role_is_needed(client: TestClient) -> None:
    """Issue 29: the dice route tells which roles every roll needs and which only after some faces (FullPlate's
    damage after a hit); with the faces typed so far it names the roles still needed; bad faces are a 422
    naming the role."""
    one = made(client, example="starter/fullplate", seed=3)
    eid, gm = one["id"], bearer(one["gm_token"])
    sheet = client.get(f"/v1/encounters/{eid}/sheet", headers=gm).json()
    me, foe = (
        sheet["combatants"][0],
        next(c for c in sheet["combatants"] if c["side"] != sheet["combatants"][0]["side"]),
    )
    body = {"attacker": me["name"], "attack": me["attacks"][0], "targets": [foe["name"]]}
    roles = client.post(f"/v1/encounters/{eid}/dice", json=body, headers=gm).json()["roles"]
    when = {r["role"]: r["when"] for r in roles}
    assert when["to_hit"] == "always" and when["damage"] == "conditional"
    hit = client.post(f"/v1/encounters/{eid}/dice", json={**body, "dice": {"to_hit": [18]}}, headers=gm).json()
    assert "damage" in hit["needed"]
    miss = client.post(f"/v1/encounters/{eid}/dice", json={**body, "dice": {"to_hit": [2]}}, headers=gm).json()
    assert miss["needed"] == []
    bad = client.post(f"/v1/encounters/{eid}/dice", json={**body, "dice": {"to_hit": [21]}}, headers=gm)
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "dice.to_hit"
    assert client.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"] == one["seq"]  # nothing stored
