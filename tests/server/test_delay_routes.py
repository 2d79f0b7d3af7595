"""Delay in the three games whose round goes in the file's order (issue 39, item 5), over HTTP: Reclaim the Wild,
FullPlate and Kaiser give no initiative and forbid no delay (docs/<game>.md#silent-turn-order), so a live encounter
keeps the file's order as its own. Per game: a delay moves the one whose turn comes after the next one, or after one
named; the summary's order and whose turn follow it; an undo sets it back exactly; the store restores it on a new
server; the GM's export with a delay replays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import client_for
from tests.server.test_gm_evening_routes import made
from tohit.engine.fight.replay import replay

EXAMPLES = ["file/rtw-bokoblin-camp", "file/fullplate-skirmish", "file/kaiser-party-vs-bandits"]


def delay(client: TestClient, url: str, gm: dict[str, str], **body: Any) -> dict[str, Any]:
    got = client.post(f"{url}/actions", json={"kind": "delay", **body}, headers=gm)
    assert got.status_code == 201, got.text
    (event,) = got.json()["events"]
    return dict(event)


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_delay_in_a_round_of_the_files_order_moves_undoes_restores_and_replays(example: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'delay.db'}"
    with client_for(db) as client:
        url, gm, _, _ = made(client, example=example)
        start = client.get(url, headers=gm).json()
        order, first = start["order"], start["turn"]
        assert client.get(f"{url}/sheet", headers=gm).json()["delay"] is None and order[0] == first
        assert start["delay_after"] == order[1:]
        # after the next one: it acts now, the delayed one right after it
        event = delay(client, url, gm, combatant=first)
        now = client.get(url, headers=gm).json()
        assert event["after"] == now["turn"] == order[1] and now["order"] == [order[1], first, *order[2:]]
        # an undo sets the order, the turn and every stat back exactly
        assert client.post(f"{url}/undo", headers=gm).status_code == 201
        back = client.get(url, headers=gm).json()
        assert (back["state"], back["order"], back["turn"]) == (start["state"], order, first)
        # after one named: the last of the round
        delay(client, url, gm, combatant=first, after=order[-1])
        moved = client.get(url, headers=gm).json()
        assert moved["order"] == [*order[1:], first] and moved["turn"] == order[1]
        # the game's own turn plays the order as moved
        played = client.post(f"{url}/actions", json={"kind": "auto"}, headers=gm).json()["events"]
        assert any(e["kind"] == "turn" and e["text"].startswith(f"{order[1]}'s turn") for e in played)
        kept = client.get(url, headers=gm).json()
    with client_for(db) as client:  # a new server: the encounter rebuilt from the store
        again = client.get(url, headers=gm).json()
        assert (again["state"], again["order"], again["turn"]) == (kept["state"], kept["order"], kept["turn"])
        log = tmp_path / "delay.jsonl"
        log.write_text(client.get(f"{url}/events.jsonl", headers=gm).text)
        rebuilt = replay(log)
        assert "delay" in [e["kind"] for e in rebuilt.events] and rebuilt.matches, rebuilt.mismatches


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_delay_refused_names_the_field_and_writes_nothing(example: str, client: TestClient) -> None:
    """Not the combatant whose turn comes, or after one who acts before it in a round that does not go round: a
    422 naming the field, and no event."""
    url, gm, _, _ = made(client, example=example)
    start = client.get(url, headers=gm).json()
    other = start["order"][1]
    bad = [({"combatant": other}, "combatant"), ({"combatant": start["turn"], "after": "Nobody"}, "after")]
    for body, field in bad:
        got = client.post(f"{url}/actions", json={"kind": "delay", **body}, headers=gm)
        assert got.status_code == 422 and got.json()["error"]["field"] == field, got.text
    assert client.get(url, headers=gm).json()["seq"] == start["seq"]
