"""The encounter store (issue 16, item 4), on SQLite and on a real PostgreSQL: migrations applied at open and by
`tohit db upgrade`, SQLite in WAL with a busy timeout, events unique on (encounter, seq) so that of writers racing
for one seq exactly one wins, and the engine version each encounter was played with."""

from __future__ import annotations

import secrets
import threading
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN
from tohit import __version__
from tohit.cli.app import app as cli
from tohit.server.app import Settings, create_app
from tohit.store.db import BUSY_TIMEOUT_MS, StaleSeq, Store, StoredEncounter, open_store

WRITERS, TRIALS = 4, 10


def new_encounter(store: Store) -> str:
    eid = secrets.token_hex(16)
    store.create(StoredEncounter(eid, "race", "toy", __version__, {}, "gm", "view"), {"kind": "start", "n": 0})
    return eid


def race(store: Store, eid: str) -> tuple[list[int], list[int], list[BaseException]]:
    """WRITERS threads append at seq 1 at once: the writers that won, the seq each loser was told, other errors."""
    barrier = threading.Barrier(WRITERS)
    won: list[int] = []
    stale: list[int] = []
    other: list[BaseException] = []

    def write(k: int) -> None:
        barrier.wait()
        try:
            store.append(eid, 0, [{"kind": "note", "writer": k}])
            won.append(k)
        except StaleSeq as exc:
            stale.append(exc.current)
        except BaseException as exc:  # anything else is a defect (a 500 in the server)
            other.append(exc)

    threads = [threading.Thread(target=write, args=(k,)) for k in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return won, stale, other


def test_store_of_writers_racing_for_one_seq_exactly_one_wins(url: str) -> None:
    store = open_store(url)
    for _ in range(TRIALS):
        eid = new_encounter(store)
        won, stale, other = race(store, eid)
        assert not other, other
        assert len(won) == 1 and stale == [1] * (WRITERS - 1)
        assert [e.get("writer") for e in store.events(eid)] == [None, won[0]]


def test_store_append_built_with_sqlalchemy_core_too(url: str) -> None:
    """A driver whose parameter style the append has no statements for takes SQLAlchemy Core's: the same race."""
    store = open_store(url)
    store._append_sql = None
    eid = new_encounter(store)
    won, stale, other = race(store, eid)
    assert not other, other
    assert len(won) == 1 and stale == [1] * (WRITERS - 1)
    store.append(eid, 1, [{"kind": "a"}, {"kind": "b"}])
    assert [e["kind"] for e in store.events(eid)] == ["start", "note", "a", "b"]
    with pytest.raises(StaleSeq) as found:
        store.append(eid, 1, [{"kind": "c"}])
    assert found.value.current == 3


def test_store_events_are_unique_on_encounter_and_seq(url: str) -> None:
    """The database itself refuses a second event at one seq (not only the store's check of the last seq)."""
    store = open_store(url)
    eid = new_encounter(store)
    with pytest.raises(IntegrityError), store.engine.begin() as db:
        db.execute(text("INSERT INTO events (encounter_id, seq, body) VALUES (:e, 0, '{}')"), {"e": eid})


def test_store_keeps_the_engine_version_each_encounter_was_played_with(url: str) -> None:
    duel = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    store = open_store(url)
    with TestClient(create_app(Settings(db=url, admin_token=ADMIN, workers=0), store)) as client:
        eid = client.post("/v1/encounters", json={"fight": duel}).json()["id"]
    found = store.get(eid)
    assert found is not None and found.engine_version == __version__


def test_store_two_servers_on_one_store_each_write_finds_the_others(url: str) -> None:
    """A server keeps each encounter it plays in memory and writes without reading the store first: the append's
    own check of the seq, inside its transaction, finds a write another server made. An action that names no
    seq is then played on the encounter read afresh (the log is the one a single server would have written);
    one that names a stale seq is a 409 with the current seq."""
    duel = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    settings = Settings(db=url, admin_token=ADMIN, workers=0)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        created = one.post("/v1/encounters", json={"fight": duel, "seed": 1}).json()
        alone = one.post("/v1/encounters", json={"fight": duel, "seed": 1}).json()
        gm, eid = {"Authorization": f"Bearer {created['gm_token']}"}, created["id"]
        seqs = []
        for client in (one, two, one, two, one, one):
            response = client.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=gm)
            assert response.status_code == 201, response.text
            seqs.append(response.json()["seq"])
        assert seqs == sorted(set(seqs))
        stale = two.post(f"/v1/encounters/{eid}/actions", json={"kind": "auto", "expected_seq": seqs[-2]}, headers=gm)
        assert stale.status_code == 409 and stale.json()["seq"] == seqs[-1]
        solo = {"Authorization": f"Bearer {alone['gm_token']}"}
        for _ in seqs:
            assert one.post(f"/v1/encounters/{alone['id']}/actions", json={"kind": "auto"}, headers=solo).is_success
        shared = two.get(f"/v1/encounters/{eid}/events", headers=gm).json()
        single = one.get(f"/v1/encounters/{alone['id']}/events", headers=solo).json()
        assert [e["n"] for e in shared] == list(range(seqs[-1] + 1))
        assert shared == single
        assert two.delete(f"/v1/encounters/{eid}", headers=gm).status_code == 204
        for body in ({"kind": "auto", "expected_seq": seqs[-1]}, {"kind": "auto"}):
            assert one.post(f"/v1/encounters/{eid}/actions", json=body, headers=gm).status_code == 404


def test_store_sqlite_is_in_wal_with_a_busy_timeout(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'wal.db'}")
    with store.engine.connect() as db:
        assert db.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.execute(text("PRAGMA busy_timeout")).scalar() == BUSY_TIMEOUT_MS


def test_store_tohit_db_upgrade_applies_the_migrations_and_can_run_again(url: str) -> None:
    for _ in range(2):
        result = CliRunner().invoke(cli, ["db", "upgrade", "--db", url])
        assert result.exit_code == 0, result.output
        assert "up to date" in result.output
    store = open_store(url, migrate=False)
    assert {"encounters", "events", "player_links", "alembic_version"} <= set(inspect(store.engine).get_table_names())
    with store.engine.connect() as db:
        assert db.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0002"


def test_store_tohit_db_upgrade_on_a_store_it_cannot_open_is_one_error_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["db", "upgrade", "--db", f"sqlite:///{tmp_path / 'no' / 'such' / 'x.db'}"])
    assert result.exit_code == 2
    folder = tmp_path / "no" / "such"
    assert result.output == f"error: --db: sqlite:///{folder}/x.db: the folder '{folder}' does not exist\n"
