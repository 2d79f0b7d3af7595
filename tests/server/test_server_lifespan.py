"""The server's start and end: the store it opened is closed at its end (its connections, and their files, are
not held by a server that has stopped), and a store given to it stays open for its giver."""

from __future__ import annotations

import os
from pathlib import Path

from fastapi.testclient import TestClient

from tests.server.conftest import client_for
from tohit.server.app import Settings, create_app
from tohit.store.db import open_store


def held(path: Path) -> list[str]:
    """The files of this process open on `path` (the database, its WAL and shared memory)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # closed since the listing
        if target.startswith(str(path)):
            found.append(target)
    return found


def test_the_server_closes_the_store_it_opened_at_its_end(tmp_path: Path) -> None:
    db = tmp_path / "tohit.db"
    with client_for(f"sqlite:///{db}") as client:
        made = client.post("/v1/encounters", json={"example": "starter/kaiser"})
        assert made.status_code == 201, made.text
        assert held(db)  # open while it serves
    assert held(db) == []


def test_a_store_given_to_the_server_stays_open_for_its_giver(tmp_path: Path) -> None:
    db = tmp_path / "tohit.db"
    store = open_store(f"sqlite:///{db}")
    with TestClient(create_app(Settings(db=f"sqlite:///{db}", workers=0), store=store)) as client:
        assert client.post("/v1/encounters", json={"example": "starter/kaiser"}).status_code == 201
    assert len(store.all()) == 1  # still usable
    store.close()
    assert held(db) == []


def test_a_server_started_again_opens_its_store_again_and_closes_it(tmp_path: Path) -> None:
    db = tmp_path / "tohit.db"
    client = client_for(f"sqlite:///{db}")
    for _ in range(2):
        with client:
            assert client.post("/v1/encounters", json={"example": "starter/kaiser"}).status_code == 201
        assert held(db) == []
