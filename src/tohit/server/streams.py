"""An encounter's live stream (Server-Sent Events), for live views: new events as they are stored, each checked
against the token that opened the stream, within the stream's lifetime and the cap on streams per encounter.

- Before each read of new events the token is checked again: once the encounter is deleted, or the token no
  longer opens it (a new view token replaced it), the stream ends with an `end` event saying why.
- A stream lives `stream_seconds` at most: then it ends with an `end` event whose data says `"reconnect": true`,
  and the page reconnects from the last event it saw (no client holds a slot for ever).
- At most `max_streams` streams are open on one encounter at once (`Streams.admit`: past it, a 429).
- The players' view of each event is the view token's (no seed, nothing of a hidden combatant's stats).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from tohit.engine.encounter import Encounter
from tohit.server.errors import RETRY_AFTER, ApiError
from tohit.server.fanout import Fanout
from tohit.server.players_view import PlayersView
from tohit.server.security import for_view
from tohit.store.db import StoredEncounter


@dataclass
class Streams:
    """The live streams of one server: their lifetime, their cap per encounter and how many each has open."""

    fanout: Fanout
    seconds: float
    most: int
    open: Counter[str] = field(default_factory=Counter)

    def admit(self, encounter_id: str) -> None:
        """A new stream on the encounter, or a 429 naming `max-streams` when it has the most open already."""
        if self.open[encounter_id] >= self.most:
            message = f"{self.most} live streams are open on this encounter (tohit serve --max-streams)"
            raise ApiError(429, message, "max-streams", retry_after=RETRY_AFTER)

    async def feed(
        self,
        row: StoredEncounter,
        start: int,
        ended: Callable[[], str | None],
        load: Callable[[StoredEncounter], Encounter] | None,
        own: tuple[str, ...] = (),
    ) -> AsyncIterator[str]:
        """The stream's text from seq `start`: `ended` says why it ends now (None: it goes on), checked before
        each read; `load` (the players' view) reads the encounter to word each event for the players, None for
        the GM's stream; `own`, a player's link's combatant, shown whole."""
        self.open[row.id] += 1
        try:
            async for part in self._lived(self._following(row, start, ended, load, own)):
                yield part
        finally:
            self.open[row.id] -= 1
            if self.open[row.id] <= 0:
                del self.open[row.id]

    async def _lived(self, parts: AsyncIterator[str]) -> AsyncIterator[str]:
        """The stream for `seconds` at most: then an `end` event asking the page to reconnect."""
        until = time.monotonic() + self.seconds
        while True:
            try:
                part = await asyncio.wait_for(anext(parts), max(0.0, until - time.monotonic()))
            except StopAsyncIteration:
                return
            except TimeoutError:
                reason = "this stream's lifetime is over: reconnect from the last event seen"
                yield f"event: end\ndata: {json.dumps({'reason': reason, 'reconnect': True})}\n\n"
                return
            yield part

    async def _following(
        self,
        row: StoredEncounter,
        start: int,
        ended: Callable[[], str | None],
        load: Callable[[StoredEncounter], Encounter] | None,
        own: tuple[str, ...],
    ) -> AsyncIterator[str]:
        yield f": tohit encounter {row.id} from seq {start}\n\n"
        # One poll shared by all followers; the token is checked again before each event and whenever the feed
        # wakes with nothing new (a token replaced or the encounter deleted here; quiet for a while).
        async for event in self.fanout.follow(row.id, start, checks=True):
            why = await asyncio.to_thread(ended)
            if why is not None:
                yield f"event: end\ndata: {json.dumps({'reason': why})}\n\n"
                return
            if event is None:
                yield ": still here\n\n"
                continue
            found: list[dict[str, Any]] = [event]
            if load is not None:  # the players' view: no seed, and nothing of a hidden combatant's stats
                found = for_view(PlayersView(await asyncio.to_thread(load, row), own=own).events(found)) or [
                    quiet(event)
                ]
            for seen in found:
                yield f"id: {seen['n']}\nevent: {seen['kind']}\ndata: {json.dumps(seen)}\n\n"


def quiet(event: dict[str, Any]) -> dict[str, Any]:
    """What the players' stream sends for an event they do not notice (about one hidden entirely from them): its
    number only, so a page reads the encounter again (docs/players.md)."""
    return {"kind": "quiet", "n": event["n"], "text": "", "changes": [], "quiet": True}
