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
