"""An evening exported mid-fight replays (issue 27, item 4): the server's events.jsonl of an unfinished encounter
closes with where the fight stands, and `tohit replay` checks every event and that state, exits 0 and says
"unfinished: round R, X's turn"; tampering still fails it."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tohit.cli.app import app


def test_server_log_exported_mid_fight_replays_and_says_where_it_stands(client: TestClient, tmp_path: Path) -> None:
    made = client.post("/v1/encounters", json={"example": "file/kaiser-party-vs-bandits", "seed": 3}).json()
    eid, gm = made["id"], {"Authorization": f"Bearer {made['gm_token']}"}
    for _ in range(4):
        client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=gm)
        if client.get(f"/v1/encounters/{eid}", headers=gm).json()["over"]:
            client.post(f"/v1/encounters/{eid}/undo", headers=gm)
            break
    now = client.get(f"/v1/encounters/{eid}", headers=gm).json()
    assert not now["over"]
    log = tmp_path / "evening.jsonl"
    log.write_text(client.get(f"/v1/encounters/{eid}/events.jsonl", headers=gm).text)
    result = CliRunner().invoke(app, ["replay", str(log), "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    round_ = now["state"]["fight"]["round"]
    assert found["standing"] == f"unfinished: round {round_}, {now['turn']}'s turn" and found["finished"] is False
    lines = log.read_text().splitlines()
    swapped = [*lines[:2], lines[3], lines[2], *lines[4:]]
    for bad in (swapped, lines[:2] + lines[3:]):
        (tmp_path / "bad.jsonl").write_text("\n".join(bad) + "\n")
        refused = CliRunner().invoke(app, ["replay", str(tmp_path / "bad.jsonl")])
        assert refused.exit_code == 2 and "the log was edited" in refused.output


def test_a_players_export_is_refused_by_replay_in_one_clear_line(client: TestClient, tmp_path: Path) -> None:
    """Issue 37, Done when #3: the view token's events.jsonl leaves out what the GM hides; `tohit replay` refuses it
    in one line saying so (exit 2), never taken as a full log; the GM's export of the same evening replays."""
    made = client.post("/v1/encounters", json={"example": "file/kaiser-party-vs-bandits", "seed": 3}).json()
    eid, gm = made["id"], {"Authorization": f"Bearer {made['gm_token']}"}
    client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=gm)
    view = {"Authorization": f"Bearer {made['view_token']}"}
    (tmp_path / "players.jsonl").write_text(client.get(f"/v1/encounters/{eid}/events.jsonl", headers=view).text)
    (tmp_path / "gm.jsonl").write_text(client.get(f"/v1/encounters/{eid}/events.jsonl", headers=gm).text)
    refused = CliRunner().invoke(app, ["replay", str(tmp_path / "players.jsonl")])
    assert refused.exit_code == 2, refused.output
    assert len(refused.output.strip().splitlines()) == 1 and "players' export" in refused.output, refused.output
    assert "Traceback" not in refused.output
    assert CliRunner().invoke(app, ["replay", str(tmp_path / "gm.jsonl")]).exit_code == 0
