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
from tohit.server.players_view import WORDS, health_word

FIGHTS = ["wsswnn-kulu-brute", "rtw-bokoblin-camp", "last-odyssey-cops", "kaiser-duel", "fullplate-skirmish"]


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


def view_reads(client: TestClient, eid: str, token: str) -> dict[str, Any]:
    """Every read the view token has: GET, sheet, events, the export, and the stream (to the last event)."""
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
                text = item.get("text")
                own = item.get("kind") in ("start", "end", "stalemate", "unfinished")  # sides, rounds, winner
                if isinstance(text, str) and not own and any(h in text for h in hidden):
                    rest = re.sub("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)), "", text)
                    assert not re.search(r"\d", rest), (where, text)
        shown = reads["get"]["shown"]
        for name in hidden:
            assert [c["text"] for c in shown[name]] in ([w] for w in WORDS)
            assert not any(c["name"] == name and c["start"] for c in reads["sheet"]["combatants"])


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
    assert reads["get"]["state"]["combatants"][mine] == summary["state"]["combatants"][mine]


def test_players_view_shows_a_revealed_combatant_and_hides_it_again(client: TestClient) -> None:
    """`reveal` with to_players true shows a combatant's stats to the players; false hides it; undo takes it back."""
    eid, gm, view, summary = played(client, fight("rtw-bokoblin-camp"), steps=2)
    act = f"/v1/encounters/{eid}/actions"
    r = client.post(act, json={"kind": "reveal", "combatant": "Bokoblin 1", "to_players": True}, headers=bearer(gm))
    assert r.status_code == 201, r.text
    got = client.get(f"/v1/encounters/{eid}", headers=bearer(view)).json()
    assert "Bokoblin 1" not in got["hidden"]
    assert got["state"]["combatants"]["Bokoblin 1"] == summary["state"]["combatants"]["Bokoblin 1"]
    again = client.post(act, json={"kind": "reveal", "combatant": "Bokoblin 1", "to_players": True}, headers=bearer(gm))
    assert again.status_code == 422 and again.json()["error"]["field"] == "to_players"
    client.post(f"/v1/encounters/{eid}/undo", headers=bearer(gm))
    assert "Bokoblin 1" in client.get(f"/v1/encounters/{eid}", headers=bearer(view)).json()["hidden"]
    client.post(act, json={"kind": "reveal", "combatant": "Link", "to_players": False}, headers=bearer(gm))
    got = client.get(f"/v1/encounters/{eid}", headers=bearer(view)).json()
    assert "Link" in got["hidden"] and got["state"]["combatants"]["Link"]["health"] in WORDS


@pytest.mark.parametrize(
    ("value", "top", "word"), [(10, 10, "unhurt"), (9, 10, "hurt"), (5, 10, "badly hurt"), (0, 10, "down")]
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
