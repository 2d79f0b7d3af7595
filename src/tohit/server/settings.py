"""What `tohit serve` is started with (its caps), and the work its routes hand to the app's pool."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any


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
    max_body: int = 1 << 20
    max_placements: int = 100
    max_dice: int = 1000
    #: Encounters kept in memory (each with its fight's tables); more are read again from the store when asked.
    cached_encounters: int = 256
    #: How often a live stream looks for new events (seconds).
    poll: float = 0.25


#: CPU work off the event loop (`create_app`'s `work`): the function and its arguments, answered when done.
Work = Callable[..., Awaitable[Any]]
