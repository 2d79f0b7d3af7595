"""Issue 28, item 12: live streams share one poll per encounter per server process, so idle followers cost
next to nothing; every follower still gets every event, from where it asked."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN
from tohit.server.app import Settings, create_app
from tohit.server.fanout import KEEP, Fanout
from tohit.store.db import Store, open_store

DUEL = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
POLL = 0.05


class Counted:
    """A store whose reads of events are counted."""

    def __init__(self, store: Store) -> None:
        self.store, self.reads = store, 0

    def events(self, encounter_id: str, after: int = -1) -> Any:
        self.reads += 1
        return self.store.events(encounter_id, after)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


@pytest.fixture
def counted(tmp_path: Path) -> Iterator[tuple[TestClient, Counted]]:
    store = Counted(open_store(f"sqlite:///{tmp_path / 'tohit.db'}"))
    settings = Settings(db="unused", admin_token=ADMIN, workers=0, poll=POLL)
    with TestClient(create_app(settings, store)) as client:  # type: ignore[arg-type]
        yield client, store


def test_fanout_followers_of_one_encounter_share_one_poll_and_all_get_each_event(
    counted: tuple[TestClient, Counted],
) -> None:
    client, store = counted
    created = client.post("/v1/encounters", json={"fight": DUEL, "seed": 1}).json()
    eid, view = created["id"], {"Authorization": f"Bearer {created['view_token']}"}
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    followers = 8
    ready = threading.Barrier(followers + 1)
    got: list[list[str]] = [[] for _ in range(followers)]

    def follow(i: int) -> None:
        with client.stream("GET", f"/v1/encounters/{eid}/stream", params={"after": 0}, headers=view) as r:
            lines = r.iter_lines()
            assert next(lines).startswith(": tohit encounter")
            ready.wait()
            for line in lines:
                if line.startswith("event:"):
                    got[i].append(line)
                    return

    threads = [threading.Thread(target=follow, args=(i,)) for i in range(followers)]
    for t in threads:
        t.start()
    ready.wait(30)
    time.sleep(0.3)  # every follower is waiting on the shared poll
    reads, began = store.reads, time.monotonic()
    time.sleep(1.0)
    polls = (time.monotonic() - began) / POLL
    idle_reads = store.reads - reads
    # one poll (one read each `poll` seconds at most) for the 8 followers, not 8
    assert idle_reads <= polls + 2, (idle_reads, polls)
    acted = client.post(f"/v1/encounters/{eid}/actions", json={"kind": "end_turn"}, headers=gm)
    assert acted.status_code == 201, acted.text
    for t in threads:
        t.join(30)
    assert got == [["event: end_turn"]] * followers


class Events:
    """A store of one encounter's events, in memory, its reads counted."""

    def __init__(self, count: int) -> None:
        self.log = [{"n": n, "kind": "x"} for n in range(count)]
        self.reads = 0

    def last_seq(self, encounter_id: str) -> int:
        return len(self.log) - 1

    def events(self, encounter_id: str, after: int = -1) -> list[dict[str, Any]]:
        self.reads += 1
        return [e for e in self.log if e["n"] > after]


def test_fanout_three_hundred_followers_cost_one_read_a_poll_and_each_gets_its_backlog() -> None:
    store = Events(3)

    async def scene() -> None:
        backlog_reads = 150  # each follower from -1 read its backlog from the store once
        fanout = Fanout(lambda: store, 0.01)  # type: ignore[arg-type, return-value]
        seen: list[list[int]] = [[] for _ in range(300)]

        async def follower(i: int, after: int) -> None:
            async for event in fanout.follow("e", after):
                seen[i].append(event["n"])
                if event["n"] == 4:
                    return

        tasks = [asyncio.ensure_future(follower(i, -1 if i % 2 else 2)) for i in range(300)]
        for _ in range(2000):  # until the poll has run (counted, not timed: a loaded machine only takes longer)
            if fanout.reads >= 1 and len(fanout.feeds) == 1 and store.reads >= backlog_reads:
                break
            await asyncio.sleep(0.01)
        assert store.reads <= backlog_reads + fanout.reads + 1
        assert fanout.reads >= 1 and len(fanout.feeds) == 1
        store.log += [{"n": 3, "kind": "x"}, {"n": 4, "kind": "x"}]
        await asyncio.wait_for(asyncio.gather(*tasks), 20)
        assert all(s == ([0, 1, 2, 3, 4] if i % 2 else [3, 4]) for i, s in enumerate(seen))
        assert fanout.feeds == {}  # the last follower gone, the poll stops
        reads = fanout.reads
        await asyncio.sleep(0.1)
        assert fanout.reads == reads

    asyncio.run(scene())


def test_fanout_a_follower_behind_what_is_kept_reads_the_rest_from_the_store() -> None:
    store = Events(1)

    async def scene() -> None:
        fanout = Fanout(lambda: store, 0.01)  # type: ignore[arg-type, return-value]
        first = fanout.follow("e", 0)
        waiting = asyncio.ensure_future(first.__anext__())
        await asyncio.sleep(0.05)
        store.log += [{"n": n, "kind": "x"} for n in range(1, KEEP + 11)]
        assert (await asyncio.wait_for(waiting, 20))["n"] == 1
        await asyncio.sleep(0.05)
        late = [e["n"] async for e in _take(fanout.follow("e", 0), KEEP + 10)]
        assert late == list(range(1, KEEP + 11))
        await first.aclose()

    asyncio.run(scene())


async def _take(events: Any, count: int) -> Any:
    async for event in events:
        yield event
        count -= 1
        if count == 0:
            await events.aclose()
            return


def test_fanout_a_follower_poked_while_busy_with_an_event_looks_at_itself_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CI's red run (stop 57): a player's link revoked while its stream was still wording the attack's event
    was missed until the next quiet check. The follower is now woken by the poke it was too busy to wait for."""
    monkeypatch.setattr("tohit.server.fanout.IDLE", 3600.0)  # only the poke can wake it
    store = Events(2)

    async def scene() -> None:
        fanout = Fanout(lambda: store, 3600.0)  # type: ignore[arg-type, return-value]
        follower = fanout.follow("e", 0, checks=True)
        assert await follower.__anext__() is None  # it follows: it looks at itself once
        assert (await follower.__anext__())["n"] == 1
        fanout.poke("e")  # while the stream is busy with event 1, before it asks for the next
        woken = await asyncio.wait_for(follower.__anext__(), 60)  # a guard against a hang, not a stopwatch
        assert woken is None
        await follower.aclose()

    asyncio.run(scene())


def test_fanout_a_follower_looks_at_itself_once_it_follows() -> None:
    """A poke made before the follower's feed existed woke nobody: the first thing a checking follower gets is
    a look at itself, made after it follows (so a token revoked as its stream opened still ends it)."""
    store = Events(1)

    async def scene() -> None:
        fanout = Fanout(lambda: store, 3600.0)  # type: ignore[arg-type, return-value]
        fanout.poke("e")  # nobody follows yet: nothing to wake
        follower = fanout.follow("e", 0, checks=True)
        assert await asyncio.wait_for(follower.__anext__(), 60) is None
        assert fanout.feeds["e"].followers == 1
        await follower.aclose()
        plain = fanout.follow("e", -1)
        assert (await plain.__anext__())["n"] == 0  # without checks, events only
        await plain.aclose()

    asyncio.run(scene())
