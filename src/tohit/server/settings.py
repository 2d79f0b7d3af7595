"""What `tohit serve` is started with (its flags): the store, the admin token, the worker processes and the caps
that bound the work one request may ask for (server/limits.py names each)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from tohit.server import limits


@dataclass
class Settings:
    """What `tohit serve` is started with; the caps bound the work one request may ask for."""

    db: str = "sqlite:///tohit.db"
    admin_token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    #: Processes for the CPU work of stateless routes; 0 runs it in a thread (tests).
    workers: int = 2
    max_trials: int = 10_000_000
    max_fights: int = 1_000_000
    max_depth: int = 20
    max_states: int = 50_000
    exact_seconds: float = 30.0
    #: Request body bytes: a real UVTT map with its picture (1.4-3.8 MB from Dungeondraft) fits well within it.
    max_body: int = 32 << 20
    max_placements: int = 100
    max_dice: int = 1000
    #: Encounters kept in memory (each with its fight's tables); more are read again from the store when asked.
    cached_encounters: int = 256
    request_seconds: float = limits.REQUEST_SECONDS
    max_targets: int = limits.MAX_TARGETS
    max_target_dice: int = limits.MAX_TARGET_DICE
    max_combatant_fights: int = limits.MAX_COMBATANT_FIGHTS
    max_response: int = limits.MAX_RESPONSE
    #: Encounters one client address may create a minute (a burst of as many, then one each 60 / n seconds).
    creates_per_minute: int = 30
    #: How often a live stream looks for new events (seconds).
    poll: float = 0.25
    #: A live stream's lifetime (seconds): then it ends with an `end` event and the page reconnects from the last
    #: event it saw, so that no client holds a stream, and its slot, for ever.
    stream_seconds: float = limits.STREAM_SECONDS
    #: Live streams open on one encounter at once (past it: a 429 with Retry-After).
    max_streams: int = limits.MAX_STREAMS

    @property
    def exact_cap(self) -> float:
        """The seconds an exact duel may take: `exact_seconds`, kept below the request's deadline (four fifths of
        it) so that a duel too long for both is refused by its own cap, a 422 naming it and how to ask for less,
        rather than by the deadline's 503."""
        return min(self.exact_seconds, 0.8 * self.request_seconds)
