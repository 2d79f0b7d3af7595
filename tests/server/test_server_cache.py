"""The server's memory is bounded (issue 27, item 7): an LRU of encounters, each with its fight's memo. While
encounters pile up the cache stays at its size, and an encounter it forgot is read again from the store and
plays on as if it had never been forgotten."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN
from tohit.server.app import Settings, create_app
from tohit.server.cache import Lru


def test_lru_forgets_the_least_recently_used_first() -> None:
    lru: Lru[str, int] = Lru(2)
    lru["a"], lru["b"] = 1, 2
    assert lru.get("a") == 1  # read: now the most recent
    lru["c"] = 3
    assert "b" not in lru and lru.get("a") == 1 and lru.get("c") == 3 and len(lru) == 2


def test_server_cache_stays_flat_while_encounters_pile_up(tmp_path: Path) -> None:
    settings = Settings(db=f"sqlite:///{tmp_path / 'tohit.db'}", admin_token=ADMIN, workers=0, cached_encounters=4)
    with TestClient(create_app(settings)) as client:
        made = []
        for k in range(30):
            enc = client.post("/v1/encounters", json={"example": "file/kaiser-duel", "seed": k}).json()
            gm = {"Authorization": f"Bearer {enc['gm_token']}"}
            assert (
                client.post(f"/v1/encounters/{enc['id']}/actions", json={"kind": "auto"}, headers=gm).status_code == 201
            )
            assert client.get(f"/v1/encounters/{enc['id']}", headers=gm).status_code == 200
            made.append((enc["id"], gm))
            assert len(client.app.state.encounters) <= 4  # type: ignore[attr-defined]
            assert len(client.app.state.locks) == 0  # type: ignore[attr-defined]  # no write holds or waits for one
        first, gm = made[0]  # long forgotten: read again from the store, and it plays on
        before = client.get(f"/v1/encounters/{first}", headers=gm).json()
        assert before["seq"] >= 1 and before["turn"] in before["standing"]
        played = client.post(f"/v1/encounters/{first}/actions", json={"kind": "auto"}, headers=gm)
        assert played.status_code == 201 and played.json()["seq"] > before["seq"]
        assert len(client.app.state.encounters) == 4  # type: ignore[attr-defined]
