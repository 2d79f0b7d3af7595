"""Hidden entirely (issue 37, item 3; engine/presence.py, docs/players.md): `hide` and a fight file's
`hidden: true` take a combatant out of every players' read until `reveal` brings it in; undo restores exactly."""

from __future__ import annotations

from typing import Any

import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.test_players_view import bearer
from tohit.engine.encounter import Encounter
from tohit.server.players_view import PlayersView


def made(client: TestClient, **changes: Any) -> tuple[str, dict[str, str], dict[str, str]]:
    data = yaml.safe_load((EXAMPLES / "fights" / "last-odyssey-cops.yaml").read_text())
    data["sides"][1]["combatants"][2].update(changes)
    created = client.post("/v1/encounters", json={"fight": data, "seed": 3}).json()
    return created["id"], bearer(created["gm_token"]), bearer(created["view_token"])


def names(client: TestClient, eid: str, view: dict[str, str]) -> set[str]:
    return set(client.get(f"/v1/encounters/{eid}", headers=view).json()["state"]["combatants"])


def test_hide_takes_a_combatant_out_of_the_players_view_and_reveal_brings_it_in(client: TestClient) -> None:
    """hide -> absent (a second hide refused, naming `combatant`); undo -> present again; hide, then reveal with
    to_players false -> present with its numbers kept (a health word); reveal to_players true -> numbers shown."""
    eid, gm, view = made(client)
    act = f"/v1/encounters/{eid}/actions"
    assert client.post(act, json={"kind": "hide", "combatant": "Cop 3"}, headers=gm).status_code == 201
    assert "Cop 3" not in names(client, eid, view)
    assert client.get(f"/v1/encounters/{eid}", headers=gm).json()["hidden_entirely"] == ["Cop 3"]
    again = client.post(act, json={"kind": "hide", "combatant": "Cop 3"}, headers=gm)
    assert again.status_code == 422 and again.json()["error"]["field"] == "combatant"
    assert client.post(f"/v1/encounters/{eid}/undo", headers=gm).status_code == 201
    assert "Cop 3" in names(client, eid, view)
    client.post(act, json={"kind": "hide", "combatant": "Cop 3"}, headers=gm)
    shown = {"kind": "reveal", "combatant": "Cop 3", "to_players": False}
    assert client.post(act, json=shown, headers=gm).status_code == 201
    got = client.get(f"/v1/encounters/{eid}", headers=view).json()
    assert got["state"]["combatants"]["Cop 3"] == {"health": "unhurt"} and "Cop 3" in got["hidden"]
    assert client.post(act, json={**shown, "to_players": True}, headers=gm).status_code == 201
    assert "hp" in client.get(f"/v1/encounters/{eid}", headers=view).json()["state"]["combatants"]["Cop 3"]


def test_a_fight_files_hidden_combatant_is_absent_and_named_by_no_answer(client: TestClient) -> None:
    """`hidden: true` in the fight file: absent from the players' state, sheet, turn order and events from the
    start; a preview naming it is refused as a name the players' view does not have, in the same words as a name
    the fight never had."""
    eid, gm, view = made(client, hidden=True)
    for _ in range(3):
        client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=gm)
    assert names(client, eid, view) == {"Mariana", "Ilse", "Cop 1", "Cop 2"}
    sheet = client.get(f"/v1/encounters/{eid}/sheet", headers=view).json()
    assert "Cop 3" not in [c["name"] for c in sheet["combatants"]] + sheet["order"]
    assert "Cop 3" not in client.get(f"/v1/encounters/{eid}/events", headers=view).text
    assert "Cop 3" in client.get(f"/v1/encounters/{eid}/events", headers=gm).text
    asked = {"attacker": "Ilse", "attack": "Fire Wave"}
    ambusher = client.post(f"/v1/encounters/{eid}/preview", json={**asked, "targets": ["Cop 3"]}, headers=view)
    nobody = client.post(f"/v1/encounters/{eid}/preview", json={**asked, "targets": ["Cop 9"]}, headers=view)
    assert ambusher.status_code == nobody.status_code == 422
    assert ambusher.json()["error"]["message"].replace("Cop 3", "X") == nobody.json()["error"]["message"].replace(
        "Cop 9", "X"
    )


def test_dice_typed_for_a_name_hidden_entirely_are_refused_as_for_a_name_the_fight_never_had(
    client: TestClient,
) -> None:
    """The dice route's faces per target, keyed by the ambusher's name, get the same answer as faces keyed by a
    name the fight never had: the refusal tells nothing of who stands in the dark."""
    eid, _, view = made(client, hidden=True)
    asked = {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Mariana"]}  # a target whose numbers they read

    def typed(name: str) -> Any:
        return client.post(f"/v1/encounters/{eid}/dice", json={**asked, "dice": {name: {"d10": [3]}}}, headers=view)

    ambusher, nobody = typed("Cop 3"), typed("Cop 9")
    assert ambusher.status_code == nobody.status_code == 422
    said = ambusher.json()["error"], nobody.json()["error"]
    assert said[0]["field"] == said[1]["field"] == "dice"
    assert said[0]["message"].replace("Cop 3", "X") == said[1]["message"].replace("Cop 9", "X")


def test_one_players_own_character_reads_every_number_even_hidden_from_the_others() -> None:
    """One player's audience (`own`, docs/players.md): their own character's every number, even while the GM keeps
    it from the shared players' view; the others' stay a health word. Its loss to a hidden foe's attack is told to
    that player only."""
    data = yaml.safe_load((EXAMPLES / "fights" / "wsswnn-kulu-brute.yaml").read_text())
    enc = Encounter.create(data, seed=3)
    enc.act({"kind": "reveal", "combatant": "Wandu", "to_players": False})
    enc.act({"kind": "attack", "attacker": "Kulu brute", "targets": ["Wandu"], "dice": {"attack": [12]}})
    shared, mine = PlayersView(enc), PlayersView(enc, own={"Wandu"})
    assert shared.row(enc.state_json())["combatants"]["Wandu"].keys() == {"health"}
    assert "life" in mine.row(enc.state_json())["combatants"]["Wandu"]
    assert mine.row(enc.state_json())["combatants"]["Kulu brute"].keys() == {"health"}
    lines = [e["text"] for e in mine.events(enc.events)]
    assert any(line.startswith("Wandu: Life ") for line in lines), lines
    assert not any(line.startswith("Wandu: Life ") for line in (e["text"] for e in shared.events(enc.events)))
