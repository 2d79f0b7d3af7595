"""The store under a busy evening (issue 28, items 9 and 10), on SQLite and a real PostgreSQL: migrations run by
several processes at once on a fresh database all succeed, and writes that name no `expected_seq`, from two
processes at once, all land."""

from __future__ import annotations

import multiprocessing
import secrets
import sqlite3
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy import create_engine, text

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN
from tohit.store.db import open_store

DUEL = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
#: Processes writing at once, and the actions each sends.
PROCESSES, ACTIONS = 2, 40
#: Seconds a writer waits for the other's server to be up: a bound on a hang (a writer that never started).
BARRIER_TIMEOUT = 240


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a database with nothing in it (on PostgreSQL: a new database of the throwaway server)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fresh.db'}"
    server: str = request.getfixturevalue("postgres")
    name = f"fresh_{secrets.token_hex(6)}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as db:
        db.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return server.rsplit("/", 1)[0] + f"/{name}"


def migrate(url: str) -> str:
    """`tohit db upgrade` in a process of its own: its exit code and output."""
    from typer.testing import CliRunner

    from tohit.cli.app import app as cli

    result = CliRunner().invoke(cli, ["db", "upgrade", "--db", url])
    return f"{result.exit_code}: {result.output}"


def test_store_abuse_migrations_run_at_once_on_a_fresh_database_all_succeed(fresh_url: str, tmp_path: Path) -> None:
    urls = [fresh_url, *(another(fresh_url, tmp_path) for _ in range(2))]  # the race does not lose every time
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(3, mp_context=context) as pool:
        for url in urls:
            answers = list(pool.map(migrate, [url] * 3))
            assert all(a.startswith("0: ") for a in answers), answers


def another(url: str, tmp_path: Path) -> str:
    """One more fresh database beside `url`."""
    if url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / f'fresh-{secrets.token_hex(4)}.db'}"
    server = url.rsplit("/", 1)[0] + "/postgres"
    name = f"fresh_{secrets.token_hex(6)}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as db:
        db.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return url.rsplit("/", 1)[0] + f"/{name}"


def write(url: str, eid: str, token: str, ready: Any) -> list[int]:
    """A server of its own on the store, sending ACTIONS actions that name no seq once every writer's server is up
    (`ready`: a barrier of PROCESSES): the status of each."""
    from fastapi.testclient import TestClient

    from tohit.server.app import Settings, create_app

    with TestClient(create_app(Settings(db=url, admin_token=ADMIN, workers=0))) as client:
        gm = {"Authorization": f"Bearer {token}"}
        ready.wait(timeout=BARRIER_TIMEOUT)
        return [
            client.post(f"/v1/encounters/{eid}/actions", json={"kind": "end_turn"}, headers=gm).status_code
            for _ in range(ACTIONS)
        ]


def test_store_abuse_writes_without_expected_seq_from_two_processes_all_land(fresh_url: str) -> None:
    from fastapi.testclient import TestClient

    from tohit.server.app import Settings, create_app

    open_store(fresh_url).close()
    with TestClient(create_app(Settings(db=fresh_url, admin_token=ADMIN, workers=0))) as client:
        created = client.post("/v1/encounters", json={"fight": DUEL, "seed": 1}).json()
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(PROCESSES, mp_context=context) as pool:
        ready = manager.Barrier(PROCESSES)  # both servers up and warm before either writes
        args = (fresh_url, created["id"], created["gm_token"], ready)
        futures = [pool.submit(write, *args) for _ in range(PROCESSES)]
        statuses = [s for f in futures for s in f.result(timeout=300)]
    assert statuses == [201] * (PROCESSES * ACTIONS)
    store = open_store(fresh_url)
    try:
        events = store.events(created["id"])
    finally:
        store.close()
    assert [e["n"] for e in events] == list(range(PROCESSES * ACTIONS + 1))


def test_store_abuse_a_fresh_sqlite_file_opens_while_another_connection_holds_its_write_lock(tmp_path: Path) -> None:
    """A fresh SQLite file is in rollback mode until its first write, and SQLite refuses at once (busy timeout or
    not) to switch it to WAL while another connection holds its write lock: the race the migrations above lost once
    in a while ("database is locked"). The store waits for that lock as for any other; here the other connection
    lets go half a second after the store starts opening the file."""
    path = tmp_path / "fresh.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.5, holder.execute, ("ROLLBACK",))
    release.start()
    try:
        store = open_store(f"sqlite:///{path}")
    finally:
        release.join()
        holder.close()
    with store.engine.connect() as db:
        assert db.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.execute(text("SELECT count(*) FROM encounters")).scalar() == 0
    store.close()
