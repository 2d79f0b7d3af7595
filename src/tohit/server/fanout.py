"""Live streams that share their reads: one poll of the store per followed encounter per
server process, whatever the number of its followers. The poll keeps the encounter's latest events in memory
and wakes its followers; a follower that waits costs nothing until an event comes. A follower that starts (or
falls) behind what is kept reads what it lacks from the store itself, once, then follows the shared poll. The
poll stops when the last follower leaves."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from tohit.store.db import Store

#: Seconds of quiet after which a follower that `checks` itself is woken to do so (and to send a keep-alive).
IDLE = 15.0
#: Events of one encounter kept in memory for its followers (one slow to read catches up from the store).
KEEP = 1000


@dataclass
class Feed:
    """One encounter's shared poll: the events it found (the last `KEEP` of them), the last seq seen, the event
    its followers wait on, how many follow, and the task that polls."""

    seen: int
    events: list[dict[str, Any]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    followers: int = 0
    task: asyncio.Task[None] | None = None
    #: How many times the followers were `poke`d: one busy with an event when poked sees it changed afterwards.
    pokes: int = 0

    def after(self, seq: int) -> list[dict[str, Any]] | None:
        """The kept events after `seq`; None when some of them are no longer kept (or never were)."""
        first = int(self.events[0]["n"]) if self.events else self.seen + 1
        if seq + 1 < first:
            return None
        return [e for e in self.events if int(e["n"]) > seq]


class Fanout:
    """The shared polls of one server: `follow` gives an encounter's events as they come."""

    def __init__(self, store: Callable[[], Store], poll: float) -> None:
        self.store, self.poll = store, poll
        self.feeds: dict[str, Feed] = {}
        #: Reads of the store made by the polls (for tests: one per encounter per poll, not one per follower).
        self.reads = 0

    async def follow(self, encounter_id: str, after: int, checks: bool = False) -> AsyncIterator[dict[str, Any] | None]:
        """The encounter's events after seq `after`, then each new one as the shared poll finds it. With `checks`,
        also None whenever the follower should look at itself again with nothing new to read: once it follows (a
        poke made before that found no follower to wake), when `poke`d (a token replaced, the encounter deleted),
        even while it was busy with an event, and after IDLE seconds of quiet (a change made by another process)."""
        feed = self.feeds.get(encounter_id)
        if feed is None:
            last = await asyncio.to_thread(self.store().last_seq, encounter_id)
            feed = self.feeds.get(encounter_id)  # another follower may have started it meanwhile
            if feed is None:
                feed = self.feeds[encounter_id] = Feed(seen=last)
                feed.task = asyncio.create_task(self._poll(encounter_id, feed))
        feed.followers += 1
        seen, pokes = after, feed.pokes
        try:
            if checks:
                yield None
            while True:
                changed = feed.changed
                found = feed.after(seen)
                if found is None:  # behind what is kept: read from the store, once
                    found = await asyncio.to_thread(self.store().events, encounter_id, seen)
                    found = [e for e in found if int(e["n"]) <= feed.seen] or []
                for event in found:
                    seen = int(event["n"])
                    yield event
                if checks and feed.pokes != pokes:  # poked while it was busy: the wake-up it missed
                    pokes = feed.pokes
                    yield None
                    continue
                if not found:
                    if not checks:
                        await changed.wait()
                        continue
                    with contextlib.suppress(TimeoutError):  # quiet for IDLE seconds: checked all the same
                        await asyncio.wait_for(changed.wait(), IDLE)
                    if feed.after(seen) == []:
                        pokes = feed.pokes
                        yield None
        finally:
            feed.followers -= 1
            if feed.followers == 0 and self.feeds.get(encounter_id) is feed:
                del self.feeds[encounter_id]
                if feed.task is not None:
                    feed.task.cancel()

    def poke(self, encounter_id: str) -> None:
        """Wake the encounter's followers with nothing new, so that each checks itself again (its token replaced,
        the encounter deleted)."""
        feed = self.feeds.get(encounter_id)
        if feed is not None:
            feed.pokes += 1
            woken, feed.changed = feed.changed, asyncio.Event()
            woken.set()

    async def _poll(self, encounter_id: str, feed: Feed) -> None:
        """Every `poll` seconds, the events after the last seen, kept and announced to the followers."""
        while True:
            await asyncio.sleep(self.poll)
            self.reads += 1
            try:
                found = await asyncio.to_thread(self.store().events, encounter_id, feed.seen)
            except Exception:  # a store that did not answer this time: asked again at the next poll
                continue
            if found:
                feed.events = (feed.events + found)[-KEEP:]
                feed.seen = int(found[-1]["n"])
                woken, feed.changed = feed.changed, asyncio.Event()
                woken.set()
