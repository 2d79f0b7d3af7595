"""What one server holds while it runs, shared by its routers (server/routers/): its store, its process pool and
admission lanes, its live streams, the encounters and rows kept in memory, the locks of the encounters being
written, and the reads every router makes of them (an encounter's row, the role a token gives, the encounter at
its last seq). The routes reach it through the dependencies of server/authorization.py.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any, Literal

from fastapi import Request

from tohit.engine.actions import AnyAction
from tohit.engine.encounter import Encounter
from tohit.engine.pool import HealingPool
from tohit.server import jobs, limits, pictures
from tohit.server.admission import Admission
from tohit.server.cache import Lru
from tohit.server.errors import ApiError
from tohit.server.fanout import Fanout
from tohit.server.limits import CreationRate
from tohit.server.player_links import player_of
from tohit.server.security import matches, same_token
from tohit.server.settings import Settings
from tohit.server.streams import Streams
from tohit.server.writes import Writer
from tohit.store.db import Store, StoredEncounter, open_store

Role = Literal["gm", "view", "player"]


def token_of(authorization: str | None) -> str:
    """The bearer token of an Authorization header (a 401 without one)."""
    if not authorization or not authorization.startswith("Bearer "):
        raise ApiError(401, "send the encounter's token: Authorization: Bearer <token>", "Authorization")
    return authorization[len("Bearer ") :].strip()


class ServerState:
    """One server's store, pool, lanes, streams and memory; `open` at start, `close` at the end."""

    def __init__(self, settings: Settings, store: Store | None) -> None:
        self.settings = settings
        self.store: Store | None = store
        self.owned = store is None  # a store given to the app is its giver's to close
        self.pool: HealingPool | None = None
        self.admission = Admission(None, 0, settings.request_seconds)
        self.fanout = Fanout(self.the_store, settings.poll)
        self.streams = Streams(self.fanout, settings.stream_seconds, settings.max_streams)
        self.caps = jobs.Caps(settings.max_dice, settings.max_target_dice, settings.max_response)
        self.creations = CreationRate(settings.creates_per_minute)
        #: Each encounter's picture as made once (PNG or WebP bytes and type).
        self.pictures = pictures.Made(limits.KEPT_PICTURES)
        #: The encounters in memory (each with its fight's memo), the least recently used forgotten first.
        self.cache: Lru[str, Encounter] = Lru(settings.cached_encounters)
        #: Each encounter's row as last read (a row does not change; a write's own check of the seq finds one
        #: deleted by another process, and then the row is read again).
        self.rows: Lru[str, StoredEncounter] = Lru(settings.cached_encounters)
        #: One lock per encounter being written, gone once no write holds or waits for it (weak values).
        self.locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.writer = Writer(self.cache, self.the_store, self.fresh, self.stored)

    def open(self) -> None:
        """The store opened (migrations applied), the pool started and the lanes made for it."""
        settings = self.settings
        self.store = self.store or open_store(settings.db)
        self.pool = HealingPool(settings.workers) if settings.workers > 0 else None
        self.admission = Admission(self.pool, settings.workers, settings.request_seconds)

    def close(self) -> None:
        try:
            self.admission.close()
            if self.pool is not None:
                self.pool.close()
        finally:
            if self.owned and self.store is not None:
                self.store.close()
                self.store = None  # a second start opens it again

    def the_store(self) -> Store:
        assert self.store is not None, "the server has not started"
        return self.store

    async def work(self, kind: str, request: Request, fn: Callable[..., Any], *args: Any) -> Any:
        """CPU work off the event loop, in its kind's lane, within the deadline (server/admission.py)."""
        return await self.admission.run(kind, request, fn, *args)

    # -- an encounter's row and who reads it ------------------------------------------------------------------
    def stored(self, encounter_id: str) -> StoredEncounter:
        """The encounter's row, read from the store (a 404 when there is none)."""
        found = self.the_store().get(encounter_id)
        if found is None:
            self.rows.pop(encounter_id, None)
            raise ApiError(404, f"no encounter {encounter_id!r:.40}", "id")
        self.rows[encounter_id] = found
        return found

    def role(self, row: StoredEncounter, authorization: str | None) -> Role:
        """What the token opens: the GM's (its GM token or the admin token), the players' view, or one player's
        (403: none of them)."""
        return self.opened(row, authorization)[0]

    def is_gm(self, row: StoredEncounter, authorization: str | None) -> bool:
        """Whether the header holds the encounter's GM token (or the admin token); no error."""
        try:
            token = token_of(authorization)
        except ApiError:
            return False
        return matches(token, row.gm_hash) or same_token(token, self.settings.admin_token)

    def opened(self, row: StoredEncounter, authorization: str | None) -> tuple[Role, str | None]:
        """The token's role, and for a player's link the combatant it plays (server/player_links.py)."""
        token = token_of(authorization)
        if self.is_gm(row, authorization):
            return "gm", None
        if matches(token, row.view_hash):
            return "view", None
        player = player_of(row, token)
        if player is not None:
            return "player", player
        raise ApiError(403, "this token is not this encounter's", "Authorization")

    def gm(self, row: StoredEncounter, authorization: str | None) -> None:
        role, player = self.opened(row, authorization)
        if role == "player":
            message = f"a player's link plays {player}'s turn (attack, move, end turn); only the GM token does this"
            raise ApiError(403, message, "Authorization")
        if role != "gm":
            raise ApiError(403, "a view token reads; only the GM token acts", "Authorization")

    def admin(self, authorization: str | None) -> None:
        if not same_token(token_of(authorization), self.settings.admin_token):
            raise ApiError(403, "listing encounters takes the admin token", "Authorization")

    # -- the encounter in memory ------------------------------------------------------------------------------
    def load(self, row: StoredEncounter) -> Encounter:
        """The encounter at the store's last seq (kept in memory while it is current)."""
        found = self.cache.get(row.id)
        if found is None or found.seq != self.the_store().last_seq(row.id):
            found = self.fresh(row)
        return found

    def fresh(self, row: StoredEncounter) -> Encounter:
        """The encounter rebuilt from the store's events, and kept in memory."""
        found = Encounter.restore(row.fight, self.the_store().events(row.id), source=row.name)
        self.cache[row.id] = found
        return found

    def forget(self, encounter_id: str) -> None:
        """The encounter and its row no longer kept (deleted)."""
        self.cache.pop(encounter_id, None)
        self.rows.pop(encounter_id, None)

    async def change(
        self, request: Request, row: StoredEncounter, action: AnyAction, expected: int | None, by: str | None = None
    ) -> Any:
        """One write under the encounter's lock: the deadline holds only until it starts (server/admission.py);
        `by`, the combatant whose player plays it (None: the GM)."""
        lock = self.locks.setdefault(row.id, asyncio.Lock())
        return await self.admission.write(request, lock, self.writer.applied, row, action, expected, by)
