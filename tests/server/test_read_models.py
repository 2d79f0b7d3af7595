"""Issue 27, item 9: "Read-models for pages (`sheet`, `shown`, `conditions`, `map_view`) move out of the engine
into the server." The engine's `Encounter` keeps what the rules and the fight need; what only a page reads is a
function of an encounter in `server/read_models.py`, and the routes answer with it, unchanged."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tohit.engine.encounter import Encounter
from tohit.server import read_models

#: What only the server's pages read of an encounter.
PAGE_READS = (
    "sheet",
    "ranges",
    "round_order",
    "shown",
    "starts",
    "conditions",
    "rows",
    "cards",
    "dice",
    "dice_needed",
    "map_view",
    "aim",
)


@pytest.mark.parametrize("name", PAGE_READS)
def test_read_models_for_pages_move_out_of_the_engine_into_the_server(name: str) -> None:
    assert not hasattr(Encounter, name)
    assert callable(getattr(read_models, name))


def test_read_models_are_what_the_routes_answer(client: TestClient) -> None:
    data = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())
    made: dict[str, Any] = client.post("/v1/encounters", json={"fight": data, "seed": 3}).json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    enc = Encounter.create(data, seed=3)
    found = client.get(f"/v1/encounters/{made['id']}", headers=gm).json()
    assert found["shown"] == read_models.shown(enc)
    assert found["conditions"] == read_models.conditions(enc)
    sheet = client.get(f"/v1/encounters/{made['id']}/sheet", headers=gm).json()
    assert sheet == {**read_models.sheet(enc), "map": True, "role": "gm"}
    names = enc.fight.roster.names
    body = {"attacker": names[0], "attack": None}
    drawn = client.post(f"/v1/encounters/{made['id']}/map", json=body, headers=gm).json()
    assert drawn == {"seq": enc.seq, **read_models.map_view(enc, names[0], None, None)}


@pytest.mark.parametrize(
    ("fight", "stat", "value", "chip"),
    [
        ("kaiser-duel", "flat_footed", 1, "Flat-Footed"),
        ("wsswnn-wrestler-and-axe", "disarmed", 1, "Disarmed"),
        ("rtw-bokoblin-camp", "helpless", 1, "Helpless"),
    ],
)
def test_conditions_read_in_the_games_words(fight: str, stat: str, value: int, chip: str) -> None:
    """An encounter's `conditions` are its cards' chips, in the game's words: "Flat-Footed", never the state key
    "flat footed" (issue 36, item 7)."""
    enc = Encounter.create(yaml.safe_load((EXAMPLES / "fights" / f"{fight}.yaml").read_text()), seed=1)
    who = enc.fight.roster.names[0]
    enc.act({"kind": "adjust", "combatant": who, "stat": stat, "value": value})
    assert read_models.conditions(enc)[who] == [chip]
    card = next(row for row in read_models.shown(enc)[who] if row["stat"] == stat)
    assert card["chips"] == [chip]


def test_rows_read_in_the_games_words(client: TestClient) -> None:
    """Last Odyssey's Rows panel: each side's rows as the cards word them ("front row", "back row"), from the server
    (the page holds no rules: it shows the server's words, never the row stat's number), the players' read without
    the combatants the GM hides; a game without rows has none (issue 36, item 7)."""
    from pathlib import Path

    data = yaml.safe_load((EXAMPLES / "fights" / "last-odyssey-cops.yaml").read_text())
    made: dict[str, Any] = client.post("/v1/encounters", json={"fight": data, "seed": 3}).json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    found = client.get(f"/v1/encounters/{made['id']}", headers=gm).json()["rows"]
    assert found == [
        {
            "side": "Party",
            "rows": [{"label": "front row", "names": ["Mariana"]}, {"label": "back row", "names": ["Ilse"]}],
        },
        {
            "side": "Cops",
            "rows": [{"label": "front row", "names": ["Cop 1", "Cop 2"]}, {"label": "back row", "names": ["Cop 3"]}],
        },
    ]
    players = client.get(f"/v1/encounters/{made['id']}", headers={"Authorization": f"Bearer {made['view_token']}"})
    assert players.json()["rows"] == found[:1]  # the Cops are hidden from the players until revealed
    kaiser = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    assert read_models.rows(Encounter.create(kaiser, seed=1)) == []
    page = (Path(read_models.__file__).parents[1] / "web" / "static" / "tracker.js").read_text()
    assert "`row ${" not in page and not re.search(r"\.row\b", page)
