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
from sqlalchemy.exc import IntegrityError, OperationalError

from tohit import __version__
from tohit.store import writer
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


def at_once(jobs: list[Any], group: Store | Turns[Any] | None = None) -> list[BaseException]:
    """Run each job in a thread of its own, started together; the errors they raised. With `group` (a store or
    its turns), the jobs (one append each) wait while the turn is held until all are queued: they are committed
    together."""
    turns = group._turns if isinstance(group, Store) else group
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
        if turns is not None:
            held.enter_context(turns.turn())
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while turns is not None and len(turns._queue) < len(jobs):
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


def each_told(store: Store, eids: list[str]) -> dict[str, BaseException | None]:
    """One append (seq 1) to each encounter, all committed in one group; what each was told (None: success)."""
    told: dict[str, BaseException | None] = {}

    def job(eid: str) -> Any:
        def append() -> None:
            try:
                store.append(eid, 0, [{"kind": "note"}])
                told[eid] = None
            except BaseException as exc:
                told[eid] = exc

        return append

    assert at_once([job(eid) for eid in eids], group=store) == []
    return told


def test_store_writer_an_append_that_landed_alone_is_never_answered_with_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The group's transaction fails, so its appends are tried one by one; after the first has committed on
    its own the database fails (the next appends are refused, and reading the seq that refused them fails too).
    The append that landed is answered success, each of the others the database's error, and the rows say so:
    a client told of an error sends again, and the action that landed would be applied twice."""
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    eids = [new_encounter(store) for _ in range(4)]
    commit, last_seq = store._commit, store.last_seq
    landed: list[str] = []

    def failing(group: list[Any]) -> None:
        if len(group) > 1:
            raise RuntimeError("the group's transaction fails")
        if landed:
            raise IntegrityError("INSERT INTO events", None, Exception("refused"))
        commit(group)
        landed.append(group[0].encounter_id)

    def lost(encounter_id: str) -> int:
        raise OperationalError("SELECT max(seq)", None, Exception("connection lost"))

    monkeypatch.setattr(store, "_commit", failing)
    monkeypatch.setattr(store, "last_seq", lost)
    told = each_told(store, eids)
    monkeypatch.setattr(store, "last_seq", last_seq)
    assert len(landed) == 1 and told[landed[0]] is None
    refused = [eid for eid in eids if eid not in landed]
    assert all(isinstance(told[eid], OperationalError) for eid in refused)
    assert store.last_seq(landed[0]) == 1 and all(store.last_seq(eid) == 0 for eid in refused)


def test_store_writer_a_group_that_fails_after_some_items_landed_errs_only_the_others() -> None:
    """Turns on its own: the commit of a group raises after some of its items landed (as its `committed`
    says); those items are answered success, thread that ran the commit included, and the others the error."""
    turns: Turns[dict[str, bool]] = Turns(30.0)
    items = [{"landed": False} for _ in range(4)]
    told: list[BaseException | None] = [None] * len(items)

    def commit(group: list[dict[str, bool]]) -> None:
        for item in group[:2]:
            item["landed"] = True
        raise RuntimeError("the rest failed")

    def job(k: int) -> Any:
        def run() -> None:
            try:
                turns.together(items[k], commit, lambda item: item["landed"])
            except BaseException as exc:
                told[k] = exc

        return run

    assert at_once([job(k) for k in range(len(items))], group=turns) == []
    assert sum(item["landed"] for item in items) == 2
    assert [told[k] is None for k in range(len(items))] == [item["landed"] for item in items]
    assert all(isinstance(told[k], RuntimeError) for k in range(len(items)) if not items[k]["landed"])


class HeldClock:
    """A clock for the writer that moves only when told, and tells which threads have read it since."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readers: set[int] = set()
        self.read = threading.Condition()

    def monotonic(self) -> float:
        with self.read:
            self.readers.add(threading.get_ident())
            self.read.notify_all()
            return self.now

    def advance(self, seconds: float) -> None:
        with self.read:
            self.now += seconds
            self.readers.clear()


def test_store_writer_a_deadline_passed_after_the_group_was_taken_waits_for_the_groups_outcome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Appends taken into a group whose commit is held past their timeout: each waiter, woken past its deadline,
    is no longer free to give up (its append is being written), so it waits for the group's outcome and is
    answered success, never TurnTimeout, and every row is there. The writer's clock is held, so the deadline
    passing is not left to timing."""
    clock = HeldClock()
    monkeypatch.setattr(writer, "time", clock)
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    eids = [new_encounter(store) for _ in range(4)]
    turns: Turns[Any] = Turns(1.0)
    monkeypatch.setattr(store, "_turns", turns)
    committing, release = threading.Event(), threading.Event()
    commit_group = store._commit_group

    def held(group: list[Any]) -> None:
        committing.set()
        assert release.wait(30), "the commit was never released"
        commit_group(group)

    monkeypatch.setattr(store, "_commit_group", held)
    outcome: dict[str, dict[str, BaseException | None]] = {}
    runner = threading.Thread(target=lambda: outcome.setdefault("told", each_told(store, eids)))
    runner.start()
    try:
        assert committing.wait(30), "the group was never committed"
        with turns._changed:
            assert turns._queue == []  # all four were taken into the group
            clock.advance(10.0)  # every waiter's deadline has passed
            turns._changed.notify_all()
        with clock.read:
            woke = clock.read.wait_for(lambda: len(clock.readers) == len(eids) - 1, 30)  # all but the committer
            assert woke, "the waiters never woke"
        with turns._changed:  # each waiter, having read the clock, now waits again or has given up
            pass
    finally:
        release.set()
        runner.join()
    assert outcome["told"] == dict.fromkeys(eids)
    assert all(store.last_seq(eid) == 1 for eid in eids)


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
