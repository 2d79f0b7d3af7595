"""Issue 16's "Done when", as a newcomer does it, on SQLite and on PostgreSQL: `tohit serve` as a process on
127.0.0.1, `/docs` open, an encounter made from examples/fights/kaiser-duel.yaml over HTTP, played to the end
with attacks (one with the GM's own dice), auto turns, an adjust and two undos, the log exported and accepted by
`tohit replay` (the command, in a process of its own)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.conftest import EXAMPLES, ROOT
from tests.server.conftest import free_port
from tests.server.test_server_process import ADMIN, start

DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"


def other(names: list[str], name: str) -> str:
    return next(n for n in names if n != name)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_serve_walkthrough_kaiser_duel_to_the_end_and_replay(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    db = request.getfixturevalue("postgres") if backend == "postgresql" else f"sqlite:///{tmp_path / 'tohit.db'}"
    port = free_port()
    proc = start(db, port)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            assert http.get("/docs").status_code == 200
            fight: dict[str, Any] = yaml.safe_load(DUEL.read_text())
            created = http.post("/v1/encounters", json={"name": "walk-through", "fight": fight, "keep_seed": True})
            assert created.status_code == 201, created.text
            eid, gm = created.json()["id"], {"Authorization": f"Bearer {created.json()['gm_token']}"}
            assert created.json()["seq"] == 0
            names = list(created.json()["state"]["combatants"])

            def get() -> dict[str, Any]:
                found: dict[str, Any] = http.get(f"/v1/encounters/{eid}", headers=gm).json()
                return found

            def act(action: dict[str, Any]) -> dict[str, Any]:
                response = http.post(f"/v1/encounters/{eid}/actions", json=action, headers=gm)
                assert response.status_code == 201, response.text
                found: dict[str, Any] = response.json()
                return found

            def undo() -> dict[str, Any]:
                response = http.post(f"/v1/encounters/{eid}/undo", headers=gm)
                assert response.status_code == 201, response.text
                found: dict[str, Any] = response.json()
                return found

            turn = get()["turn"]
            hand = {"offense": [4, 4], "defense": [2, 3]}  # the GM's own dice
            first = act({"kind": "attack", "attacker": turn, "targets": [other(names, turn)], "dice": hand})
            assert first["trace"] and first["out_of_turn"] is False
            after_auto = act({"kind": "auto"})
            act({"kind": "auto"})
            adjusted = act({"kind": "adjust", "combatant": names[1], "stat": "lp", "value": 1})
            assert adjusted["state"]["combatants"][names[1]]["lp"] == 1
            undo()
            back = undo()
            assert back["state"] == after_auto["state"]  # the adjust and the second auto taken back
            played = 0
            while not (now := get())["over"]:
                turn = now["turn"]
                if played % 2 and turn is not None:
                    act({"kind": "attack", "attacker": turn, "targets": [other(names, turn)]})
                else:
                    act({"kind": "auto"})
                played += 1
                assert played < 200, "the duel did not end"
            kinds = [e["kind"] for e in http.get(f"/v1/encounters/{eid}/events", headers=gm).json()]
            assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("undo") == 2 and "adjust" in kinds
            log = tmp_path / "evening.jsonl"
            log.write_text(http.get(f"/v1/encounters/{eid}/events.jsonl", headers=gm).text)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert f"/docs?token={ADMIN}" in out
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "120"}
    code = "import sys; from tohit.cli.app import main; sys.argv[0] = 'tohit'; main()"
    replayed = subprocess.run(
        [sys.executable, "-c", code, "replay", str(log)], env=env, capture_output=True, text=True, timeout=60
    )
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "rebuild the recorded end state exactly" in replayed.stdout
