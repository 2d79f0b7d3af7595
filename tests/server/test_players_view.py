"""The players' view hides what the GM hides (issue 29): with the view token, every read carries for a hidden
combatant no stat values; the GM sees everything."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.players_said import numbers_left, shown_numbers
from tohit.core.fight.contract import rules_for
from tohit.engine import registry
from tohit.server.players_view import WORDS, health_word

FIGHTS = [
    "wsswnn-kulu-brute", "rtw-bokoblin-camp", "last-odyssey-cops", "kaiser-duel", "fullplate-skirmish", "rtw-map",
]  # fmt: skip


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def fight(name: str) -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text())
    return found


def played(client: TestClient, data: dict[str, Any], steps: int = 6) -> tuple[str, str, str, dict[str, Any]]:
    """An encounter with a few auto steps, a roll and a GM's adjust-by of the first combatant: (id, gm, view,
    the encounter as the GM reads it)."""
    created = client.post("/v1/encounters", json={"fight": data, "seed": 3}).json()
    eid, gm, view = created["id"], created["gm_token"], created["view_token"]
    for _ in range(steps):
        r = client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=bearer(gm))
        if r.status_code != 201:
            break
    client.post(f"/v1/encounters/{eid}/actions", json={"kind": "dice", "expression": "2d6+3"}, headers=bearer(gm))
    return eid, gm, view, client.get(f"/v1/encounters/{eid}", headers=bearer(gm)).json()


def attack_reads(client: TestClient, eid: str, head: dict[str, str], sheet: dict[str, Any]) -> dict[str, Any]:
    """What the view token may ask about attacks, for every attacker and attack on every other combatant: the
    preview and the dice; on a map, the map of each attack and Best aim. Each answer is a 200, or a 403 (naming
    the hidden combatant) or 422 (an attack the fight refuses, e.g. by a fallen combatant)."""
    found: dict[str, Any] = {}
    route = f"/v1/encounters/{eid}"
    for one in sheet["combatants"]:
        for attack in one["attacks"]:
            asked = {"attacker": one["name"], "attack": attack}
            for other in sheet["combatants"]:
                if other["name"] == one["name"]:
                    continue
                for kind in ("preview", "dice"):
                    r = client.post(f"{route}/{kind}", json={**asked, "targets": [other["name"]]}, headers=head)
                    assert r.status_code in (200, 403, 422), (kind, r.text)
                    found[f"{kind} {one['name']}/{attack} on {other['name']}"] = r.json()
            if sheet["map"]:
                for kind in ("map", "aim"):
                    r = client.post(f"{route}/{kind}", json=asked, headers=head)
                    assert r.status_code in (200, 403, 422), (kind, r.text)
                    found[f"{kind} {one['name']}/{attack}"] = r.json()
    return found


def assert_attack_reads(reads: dict[str, Any], hidden: set[str], names: list[str]) -> None:
    """A preview, dice or Best aim about a hidden attacker or target is a 403 naming it; a preview row of a hidden
    creature the attack also reaches is its name only; the map of a hidden attacker's attack, the board only."""
    drawn: list[str] = []  # the maps of a hidden attacker's attacks answered
    for where, found in reads.items():
        kind, _, rest = where.partition(" ")
        attacker, target = rest.split("/")[0], rest.partition(" on ")[2]
        refused = "hidden" in found.get("error", {}).get("message", "")
        message = found.get("error", {}).get("message", "")
        if any(h in message for h in hidden):  # no number of a hidden combatant in an error either
            rest = re.sub("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)), "", message)
            assert not re.search(r"\d", rest), (where, message)
        if kind in ("preview", "dice") and (attacker in hidden or target in hidden):
            assert refused, (where, found)
            assert (attacker if attacker in hidden else target) in found["error"]["message"], (where, found)
        if kind == "dice" and "targets" in found:  # answered: nothing about a hidden creature, not even its name
            assert not hidden & set(found["targets"]), (where, found)
            assert not (isinstance(found.get("needed"), dict) and hidden & set(found["needed"])), (where, found)
        if kind == "aim" and hidden:
            assert refused, (where, found)
        if kind == "preview" and "targets" in found:
            for row in found["targets"]:
                assert row["name"] not in hidden or row == {"name": row["name"], "hidden": True}, (where, row)
        if kind == "map" and attacker in hidden and "error" not in found:
            drawn.append(where)
            attack = (found["range"], found["range_type"], found["squares"], found["reached"], found["cover"])
            assert attack == ("", "", [], [], {}), where
            assert found["creatures"], where  # the board and where each creature stands stay
    if any(w.startswith("map ") and w.partition(" ")[2].split("/")[0] in hidden for w in reads):
        assert drawn  # some hidden attacker stands: its map was drawn, the board only


def view_reads(client: TestClient, eid: str, token: str) -> dict[str, Any]:
    """Every read the view token has: GET, sheet, events, the export, the stream (to the last event), and what it
    may ask about attacks (preview, dice, map, aim)."""
    head = bearer(token)
    found: dict[str, Any] = {
        "get": client.get(f"/v1/encounters/{eid}", headers=head).json(),
        "sheet": client.get(f"/v1/encounters/{eid}/sheet", headers=head).json(),
        "events": client.get(f"/v1/encounters/{eid}/events", headers=head).json(),
        "export": [
            json.loads(x) for x in client.get(f"/v1/encounters/{eid}/events.jsonl", headers=head).text.splitlines()
        ],
    }
    last = found["get"]["seq"]
    streamed: list[dict[str, Any]] = []
    with client.stream("GET", f"/v1/encounters/{eid}/stream", params={"after": -1}, headers=head) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                streamed.append(json.loads(line[len("data: ") :]))
                if streamed[-1]["n"] >= last:
                    break
    found["stream"] = streamed
    found["attacks"] = attack_reads(client, eid, head, found["sheet"])
    return found


def walk(value: Any) -> list[Any]:
    """Every dict and string inside a JSON value."""
    out: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            out.append(item)
    return out


def assert_hidden(reads: dict[str, Any], hidden: set[str], names: list[str]) -> None:
    """No stat value of a hidden combatant: its state row and card are a health word, its changes have no
    from/to, a text naming it has no number outside the combatants' names."""
    for where, found in reads.items():
        for item in walk(found):
            if isinstance(item, dict):
                if item.get("who") in hidden:
                    assert "from" not in item and "to" not in item, (where, item)
                combatants = item.get("combatants")
                if isinstance(combatants, dict):
                    for name in hidden & set(combatants):
                        assert combatants[name] in ({"health": w} for w in WORDS), (where, combatants[name])
                by_hand = item.get("kind") in ("adjust", "condition")
                whose = item.get("combatant") or next((ch.get("who") for ch in item.get("changes", [])), None)
                if by_hand and whose in hidden:  # a number or a status's level: a value too (issue 37: told in words)
                    assert str(item["text"]).endswith("(by the GM)") and "?" not in item["text"], (where, item)
                text = item.get("text")
                own = item.get("kind") in ("start", "end", "stalemate", "unfinished")  # sides, rounds, winner
                if isinstance(text, str) and not own and any(h in text for h in hidden):
                    assert not numbers_left(text, names, shown_numbers(item, hidden)), (where, text)
                    assert "?" not in text, (where, text)  # issue 37: no "?" standing for a word or a number
        shown = reads["get"]["shown"]
        for name in hidden:
            assert [c["text"] for c in shown[name]] in ([w] for w in WORDS)
            assert not any(c["name"] == name and c["start"] for c in reads["sheet"]["combatants"])
    assert_attack_reads(reads["attacks"], hidden, names)


def test_players_view_hides_every_stat_value_of_a_hidden_combatant_in_every_read(client: TestClient) -> None:
    """With the view token every read (GET, /events, /events.jsonl, /stream) carries for a hidden combatant no
    stat values: the Kulu brute's Life (4,321, a number found nowhere else) and a newcomer's joining on its side
    (5,678) never appear, in any of their values, in anything the players read; the GM reads them."""
    data = fight("wsswnn-kulu-brute")
    data["sides"][1]["combatants"][0]["target"]["life"] = 4321
    eid, gm, view, summary = played(client, data, steps=6)
    newcomer = copy.deepcopy(data["sides"][1]["combatants"][0])
    newcomer["name"], newcomer["target"]["life"] = "Kulu runt", 5678  # joins hidden, on the second side
    join = {"kind": "join", "side": "Kulu brute", "combatant": newcomer}
    assert client.post(f"/v1/encounters/{eid}/actions", json=join, headers=bearer(gm)).status_code == 201
    for _ in range(8):
        client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=bearer(gm))
    summary = client.get(f"/v1/encounters/{eid}", headers=bearer(gm)).json()
    gm_events = client.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    foes = ("Kulu brute", "Kulu runt")
    lives = {4321, 5678} | {
        v for e in gm_events for ch in e["changes"] if ch["who"] in foes for v in (ch["from"], ch["to"])
    }
    lives |= {v for foe in foes for v in summary["state"]["combatants"][foe].values()}
    lives = {v for v in lives if v >= 100}  # the brute's distinctive values (its Life, 4,321 and below it)
    assert len(lives) > 1  # the Heroes hurt it: its Life took several values
    assert "5678" in json.dumps(gm_events)  # the GM reads the newcomer's block
    reads = view_reads(client, eid, view)
    text = json.dumps(reads)
    for v in lives:
        assert not re.search(rf"(?<![\d.]){v}(?![\d])|{v:,}", text), v
    assert_hidden(reads, set(foes), ["Wandu", "Chom", *foes])
    assert reads["get"]["hidden"] == sorted(foes)
    assert reads["get"]["shown"]["Kulu brute"][0]["text"] in WORDS


@pytest.mark.parametrize("name", FIGHTS)
def test_players_view_by_default_hides_every_combatant_not_on_the_first_side(client: TestClient, name: str) -> None:
    """By default, every combatant not on the first side is hidden; the first side's stats are shown."""
    eid, _, view, summary = played(client, fight(name))
    sides = client.get(f"/v1/encounters/{eid}/sheet", headers=bearer(view)).json()
    first = sides["sides"][0]
    hidden = {c["name"] for c in sides["combatants"] if c["side"] != first}
    names = [c["name"] for c in sides["combatants"]]
    reads = view_reads(client, eid, view)
    assert set(reads["get"]["hidden"]) == hidden
    assert_hidden(reads, hidden, names)
    mine = next(c["name"] for c in sides["combatants"] if c["side"] == first)
    shown = {k: v for k, v in summary["state"]["combatants"][mine].items() if k != "dealt"}  # issue 37: not told
    assert reads["get"]["state"]["combatants"][mine] == shown


def test_players_view_shows_a_revealed_combatant_and_hides_it_again(client: TestClient) -> None:
    """`reveal` with to_players true shows a combatant's stats to the players; false hides it; undo takes it back."""
    eid, gm, view, summary = played(client, fight("rtw-bokoblin-camp"), steps=2)
    act = f"/v1/encounters/{eid}/actions"
    r = client.post(act, json={"kind": "reveal", "combatant": "Bokoblin 1", "to_players": True}, headers=bearer(gm))
    assert r.status_code == 201, r.text
    got = client.get(f"/v1/encounters/{eid}", headers=bearer(view)).json()
    assert "Bokoblin 1" not in got["hidden"]
    shown = {k: v for k, v in summary["state"]["combatants"]["Bokoblin 1"].items() if k != "dealt"}  # not told
    assert got["state"]["combatants"]["Bokoblin 1"] == shown
    again = client.post(act, json={"kind": "reveal", "combatant": "Bokoblin 1", "to_players": True}, headers=bearer(gm))
    assert again.status_code == 422 and again.json()["error"]["field"] == "to_players"
    client.post(f"/v1/encounters/{eid}/undo", headers=bearer(gm))
    assert "Bokoblin 1" in client.get(f"/v1/encounters/{eid}", headers=bearer(view)).json()["hidden"]
    client.post(act, json={"kind": "reveal", "combatant": "Link", "to_players": False}, headers=bearer(gm))
    got = client.get(f"/v1/encounters/{eid}", headers=bearer(view)).json()
    assert "Link" in got["hidden"] and got["state"]["combatants"]["Link"]["health"] in WORDS


@pytest.mark.parametrize(
    ("value", "top", "word"), [(10, 10, "unhurt"), (9, 10, "wounded"), (5, 10, "bloodied"), (0, 10, "down")]
)
def test_health_word_reads_health_against_its_top(value: int, top: int, word: str) -> None:
    assert health_word(value, top) == word


def test_rename_an_encounter_takes_the_gm_token(client: TestClient) -> None:
    """PATCH /v1/encounters/{id} with {"name"} renames it (the GM token); the view token is refused."""
    created = client.post("/v1/encounters", json={"fight": fight("kaiser-duel")}).json()
    eid = created["id"]
    r = client.patch(f"/v1/encounters/{eid}", json={"name": "Duel at dawn"}, headers=bearer(created["gm_token"]))
    assert r.status_code == 200 and r.json()["name"] == "Duel at dawn"
    assert client.get(f"/v1/encounters/{eid}", headers=bearer(created["view_token"])).json()["name"] == "Duel at dawn"
    r = client.patch(f"/v1/encounters/{eid}", json={"name": "x"}, headers=bearer(created["view_token"]))
    assert r.status_code == 403
    r = client.patch(f"/v1/encounters/{eid}", json={"name": ""}, headers=bearer(created["gm_token"]))
    assert r.status_code == 422 and r.json()["error"]["field"] == "name"


def test_players_view_previews_a_revealed_target_and_names_only_the_hidden_ones_also_reached(
    client: TestClient,
) -> None:
    """Fire Wave (Multi) on Cop 1, revealed: the view token reads Cop 1's odds; Cop 2 and Cop 3, still hidden and
    reached too, are rows with their names only. While Cop 1 is hidden, the preview is a 403 naming it; Best aim
    and a hidden attacker's preview are refused too, naming them."""
    created = client.post("/v1/encounters", json={"fight": fight("last-odyssey-cops"), "seed": 3}).json()
    eid, gm, view = created["id"], bearer(created["gm_token"]), bearer(created["view_token"])
    asked = {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1"]}
    refused = client.post(f"/v1/encounters/{eid}/preview", json=asked, headers=view)
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "targets"
    assert refused.json()["error"]["message"].startswith("Cop 1 is hidden from the players")
    reveal = {"kind": "reveal", "combatant": "Cop 1", "to_players": True}
    assert client.post(f"/v1/encounters/{eid}/actions", json=reveal, headers=gm).status_code == 201
    rows = client.post(f"/v1/encounters/{eid}/preview", json=asked, headers=view).json()["targets"]
    whole = client.post(f"/v1/encounters/{eid}/preview", json=asked, headers=gm).json()["targets"]
    assert [r["name"] for r in rows] == [r["name"] for r in whole] == ["Cop 1", "Cop 2", "Cop 3"]
    assert rows[0] == whole[0] and "mean_damage" in whole[1]
    assert rows[1:] == [{"name": "Cop 2", "hidden": True}, {"name": "Cop 3", "hidden": True}]
    by_cop = client.post(f"/v1/encounters/{eid}/preview", json={"attacker": "Cop 2", "targets": ["Ilse"]}, headers=view)
    assert by_cop.status_code == 403 and by_cop.json()["error"]["field"] == "attacker"
    assert "Cop 2" in by_cop.json()["error"]["message"]


def test_players_dice_are_refused_for_an_attack_reaching_a_hidden_creature_or_dice_keyed_by_one(
    client: TestClient,
) -> None:
    """Fire Wave (Multi) on Cop 1, revealed, also reaches Cop 2 and Cop 3, still hidden: the view token's dice
    route is a 403 naming `targets` (what each target's roll still needs is read from its stats), dice keyed by a
    hidden cop a 403 naming `dice`; the GM reads them all. Once every cop is revealed, the view token reads it."""
    created = client.post("/v1/encounters", json={"fight": fight("last-odyssey-cops"), "seed": 3}).json()
    eid, gm, view = created["id"], bearer(created["gm_token"]), bearer(created["view_token"])
    reveal = {"kind": "reveal", "combatant": "Cop 1", "to_players": True}
    assert client.post(f"/v1/encounters/{eid}/actions", json=reveal, headers=gm).status_code == 201
    asked: dict[str, Any] = {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1"]}
    whole = client.post(f"/v1/encounters/{eid}/dice", json=asked, headers=gm).json()
    assert sorted(whole["targets"]) == ["Cop 1", "Cop 2", "Cop 3"]
    reached = client.post(f"/v1/encounters/{eid}/dice", json=asked, headers=view)
    assert reached.status_code == 403 and reached.json()["error"]["field"] == "targets", reached.text
    assert "Cop 2, Cop 3" in reached.json()["error"]["message"]
    keyed = {**asked, "dice": {"Cop 1": {"hit": [3]}, "Cop 2": {}}}
    refused = client.post(f"/v1/encounters/{eid}/dice", json=keyed, headers=view)
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "dice", refused.text
    assert "Cop 2" in refused.json()["error"]["message"]
    for cop in ("Cop 2", "Cop 3"):
        shown = {**reveal, "combatant": cop}
        assert client.post(f"/v1/encounters/{eid}/actions", json=shown, headers=gm).status_code == 201
    answer = client.post(f"/v1/encounters/{eid}/dice", json=keyed, headers=view)
    assert answer.status_code == 200, answer.text
    assert sorted(answer.json()["targets"]) == ["Cop 1", "Cop 2", "Cop 3"]


def test_players_map_of_a_hidden_attacker_ignores_its_placement(client: TestClient) -> None:
    """The Bokoblin (hidden) strikes in melee: placed on Link (adjacent) the GM's map is drawn, on the Moblin a 422
    ("not adjacent"). The view token's map is the same board for both, never an error, so probing placements
    tells nothing of the hidden attacker's range."""
    created = client.post("/v1/encounters", json={"fight": fight("rtw-map"), "seed": 3}).json()
    eid, gm, view = created["id"], bearer(created["gm_token"]), bearer(created["view_token"])
    asked = {"attacker": "Bokoblin", "attack": "Strike"}
    near, far = ({**asked, "placement": {"target": who}} for who in ("Link", "Moblin"))
    assert client.post(f"/v1/encounters/{eid}/map", json=near, headers=gm).status_code == 200
    refused = client.post(f"/v1/encounters/{eid}/map", json=far, headers=gm)
    assert refused.status_code == 422 and "adjacent" in refused.text
    drawn = [client.post(f"/v1/encounters/{eid}/map", json=body, headers=view) for body in (asked, near, far)]
    assert [r.status_code for r in drawn] == [200, 200, 200], [r.text for r in drawn]
    assert drawn[0].json() == drawn[1].json() == drawn[2].json()
    assert drawn[1].json()["placement"] == {} and drawn[1].json()["creatures"]


HAND = {
    "last-odyssey-cops": [
        {"kind": "adjust", "combatant": "Cop 1", "stat": "body_armor", "value": 0},
        {"kind": "adjust", "combatant": "Cop 2", "stat": "statuses", "value": 1},
        {"kind": "condition", "combatant": "Cop 3", "condition": "Incapacitated", "on": True},
        {"kind": "adjust", "combatant": "Ilse", "stat": "body_armor", "value": 1},
    ],
    "wsswnn-kulu-brute": [
        {"kind": "adjust", "combatant": "Kulu brute", "stat": "grappling", "value": 1},
        {"kind": "condition", "combatant": "Kulu brute", "condition": "Disarmed", "on": True},
    ],
}


@pytest.mark.parametrize("name", sorted(HAND))
def test_players_view_hides_the_words_of_a_hidden_combatants_adjust_and_condition(
    client: TestClient, name: str
) -> None:
    """The GM's adjust of a flag, a reference and a status, and a condition set, on hidden combatants: the GM
    reads the value in words ("no -> yes", a combatant's name, a status's name); the players read what the table
    sees, told from the event's data (issue 37: a flag, whom it grapples, that it is Disarmed; that its statuses
    change, not their levels), no number, no "?", in every read; a shown combatant's adjust keeps its words."""
    created = client.post("/v1/encounters", json={"fight": fight(name), "seed": 3}).json()
    eid, gm, view = created["id"], created["gm_token"], created["view_token"]
    for action in HAND[name]:
        r = client.post(f"/v1/encounters/{eid}/actions", json=action, headers=bearer(gm))
        assert r.status_code == 201, r.text
    gm_events = client.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    hand = [e for e in gm_events if e["kind"] in ("adjust", "condition")]
    assert len(hand) == len(HAND[name])
    reads = view_reads(client, eid, view)
    hidden = set(reads["get"]["hidden"])
    seen = {e["n"]: e for e in reads["events"]}
    for e in hand:
        who = e.get("combatant") or e["changes"][0]["who"]
        told = seen[e["n"]]["text"]
        if who in hidden:
            assert told != e["text"], e["text"]
            assert told.startswith(who) and told.endswith(" (by the GM)") and "?" not in told, told
            assert not numbers_left(told, reads["get"]["state"]["combatants"], set()), told
        else:
            assert told == e["text"]
    assert_hidden(reads, hidden, list(reads["get"]["state"]["combatants"]))


def test_last_odyssey_players_read_a_foe_at_0_hp_as_downed() -> None:
    """last-odyssey: Knocking Out ("If the enemy is downed"): the players read the page's own word for HP at 0 or
    below; the other games, the common words (unhurt, wounded, bloodied, down)."""
    assert health_word(0, 10, rules_for(registry.get("last-odyssey")).health_words) == "downed"
    assert [health_word(v, 10, rules_for(registry.get("kaiser")).health_words) for v in (10, 9, 5, 0)] == [
        "unhurt", "wounded", "bloodied", "down",
    ]  # fmt: skip
    assert "downed" in WORDS
