"""A store's writes on SQLite take turns within the process (store/writer.py): the threads of one server never
contend for SQLite's write lock (whose busy handler sleeps in steps up to 100 ms and gave durable attacks a p99
some 24x their p50), appends waiting together are committed together and each still checked on its own, one
failing append does not fail the others, and a turn that never comes is refused at the timeout."""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from tohit import __version__
from tohit.store.db import StaleSeq, Store, StoredEncounter, open_store
from tohit.store.writer import Turns, TurnTimeout

THREADS, WRITES = 8, 25


def new_encounter(store: Store) -> str:
    eid = secrets.token_hex(16)
    store.create(StoredEncounter(eid, "writer", "toy", __version__, {}, "gm", "view"), {"kind": "start", "n": 0})
    return eid


def impatient(store: Store) -> Store:
    """The store with SQLite's busy timeout at 0 on every connection: any wait for SQLite's lock is an error."""

    @event.listens_for(store.engine, "connect")
    def _no_waiting(dbapi_connection: Any, record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout=0")
        cursor.close()

    store.engine.dispose()  # the connections opened before: with the store's busy timeout
    return store


def at_once(jobs: list[Any], group: Store | None = None) -> list[BaseException]:
    """Run each job in a thread of its own, started together; the errors they raised. With `group`, the jobs
    (one append each) wait while the store's turn is held until all are queued: they are committed together."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job: Any) -> None:
        barrier.wait()
        try:
            job()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    with contextlib.ExitStack() as held:
        if group is not None:
            assert group._turns is not None
            held.enter_context(group._turns.turn())
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while group is not None and len(group._turns._queue) < len(jobs):  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the appends did not queue"
            time.sleep(0.01)
    for t in threads:
        t.join()
    return errors


def test_store_writer_threads_of_one_store_never_wait_for_sqlites_lock(tmp_path: Path) -> None:
    """Eight threads appending, creating and renaming at once, with SQLite's busy timeout at 0: no write ever
    found SQLite's lock held (each would have been 'database is locked'), and every append landed in order."""
    store = impatient(open_store(f"sqlite:///{tmp_path / 'store.db'}"))
    eids = [new_encounter(store) for _ in range(THREADS)]

    def player(eid: str) -> Any:
        def play() -> None:
            for seq in range(WRITES):
                store.append(eid, seq, [{"kind": "note", "n": seq + 1}])
                if seq % 5 == 0:
                    store.rename(eid, f"round {seq}")
                    new_encounter(store)

        return play

    assert at_once([player(eid) for eid in eids]) == []
    for eid in eids:
        assert [e["n"] for e in store.events(eid)] == list(range(WRITES + 1))


def race_in_one_group(store: Store) -> None:
    """Four appends racing for seq 1 of one encounter, and appends to three others, all in one group."""
    contested, *others = [new_encounter(store) for _ in range(4)]
    won: list[int] = []
    stale: list[int] = []

    def racer(k: int) -> Any:
        def race() -> None:
            try:
                store.append(contested, 0, [{"kind": "note", "writer": k}, {"kind": "note", "writer": k}])
                won.append(k)
            except StaleSeq as exc:
                stale.append(exc.current)

        return race

    def other(eid: str) -> Any:
        return lambda: store.append(eid, 0, [{"kind": "note"}])

    assert at_once([racer(k) for k in range(4)] + [other(eid) for eid in others], group=store) == []
    assert len(won) == 1 and stale == [2, 2, 2]
    assert [e.get("writer") for e in store.events(contested)] == [None, won[0], won[0]]
    assert all(store.last_seq(eid) == 1 for eid in others)


def test_store_writer_appends_committed_together_are_each_checked(tmp_path: Path) -> None:
    """Appends committed in one group: of those racing for one seq exactly one wins and the others are told
    the seq it left, while the appends of other encounters in the group land; an encounter that is not there
    is told as before (-1)."""
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    for _ in range(5):
        race_in_one_group(store)
    with pytest.raises(StaleSeq) as gone:
        store.append("no-such-encounter", 0, [{"kind": "note"}])
    assert gone.value.current == -1


def test_store_writer_one_failing_append_fails_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When a group's transaction fails, its appends are tried one by one: the one that fails raises its own
    error, nothing of it is written, and the others land."""
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    bad, *good = [new_encounter(store) for _ in range(6)]
    append_in = store._append_in

    def failing(connection: Any, pending: Any) -> None:
        append_in(connection, pending)
        if pending.encounter_id == bad:
            raise RuntimeError("this append fails")

    monkeypatch.setattr(store, "_append_in", failing)
    jobs = [lambda eid=eid: store.append(eid, 0, [{"kind": "note"}]) for eid in [bad, *good]]
    errors = at_once(jobs, group=store)
    assert [str(e) for e in errors] == ["this append fails"]
    assert store.last_seq(bad) == 0
    assert all(store.last_seq(eid) == 1 for eid in good)


def test_store_writer_a_failing_database_fails_the_whole_group_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure of the database itself (here one told while the group is written) fails every append of the
    group with it, none written, and is not retried append by append."""
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    eids = [new_encounter(store) for _ in range(4)]
    append_in = store._append_in
    calls: list[str] = []

    def failing(connection: Any, pending: Any) -> None:
        calls.append(pending.encounter_id)
        append_in(connection, pending)
        if pending.encounter_id == eids[-1]:
            raise OperationalError("INSERT", None, Exception("disk I/O error"))

    monkeypatch.setattr(store, "_append_in", failing)
    errors = at_once([lambda eid=eid: store.append(eid, 0, [{"kind": "note"}]) for eid in eids], group=store)
    assert len(errors) == 4 and all(isinstance(e, OperationalError) for e in errors)
    assert eids[-1] in calls and len(calls) == len(set(calls))  # one transaction, no append tried again
    assert all(store.last_seq(eid) == 0 for eid in eids)


def test_store_writer_a_turn_that_never_comes_is_refused_and_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn held past the timeout: a write waiting for it is refused as SQLite refuses a lock held too long,
    and an append refused so is not written later by another thread's group."""
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    eid = new_encounter(store)
    turns: Turns[Any] = Turns(0.2)
    monkeypatch.setattr(store, "_turns", turns)
    with turns.turn():
        with pytest.raises(OperationalError, match="database is locked"):
            store.append(eid, 0, [{"kind": "note"}])
        with pytest.raises(OperationalError, match="database is locked"):
            store.rename(eid, "late")
    store.append(eid, 0, [{"kind": "note", "n": 1}])  # the group of this one holds only itself
    assert [e["n"] for e in store.events(eid)] == [0, 1]
    found = store.get(eid)
    assert found is not None and found.name == "writer"
    with pytest.raises(TurnTimeout), turns.turn(), turns.turn():
        pass
