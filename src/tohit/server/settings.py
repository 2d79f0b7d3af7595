"""What `tohit serve` is started with: the one home of its caps. Each field with a flag is the flag
`--field-name` (underscores as dashes), and its default here is the flag's default: src/tohit/cli/serve.py reads
it from here and declares none of its own (tests/server/test_server_settings.py holds the two together). The
fields without a flag are NO_FLAG's.

The caps bound the work one request may ask for (a request over one is a 422 naming the field and the cap,
before any work: server/limits.py), the requests the server takes at once and how long each may hold a slot.
The engine's own caps (engine/requests.py) are the ceilings of these: a flag may lower one, never raise it past.

A light module (the standard library, and core's UVTT constants): the command line reads it when it declares its
options (`tohit --help`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from tohit.core.grid.uvtt import MAX_IMAGE_PIXELS

#: The fields that are no flag of `tohit serve`, and why.
NO_FLAG = {
    "admin_token": "the environment's TOHIT_ADMIN_TOKEN (a flag would show it in the process list), else drawn",
    "cached_encounters": "a bound of memory, not of what a client may ask; tests set it",
    "poll": "how often a stream looks for new events; tests set it",
}


@dataclass
class Settings:
    """What `tohit serve` is started with; the caps bound the work one request may ask for."""

    db: str = "sqlite:///tohit.db"
    admin_token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    #: Processes for the CPU work of stateless routes; 0 runs it in a thread (tests).
    workers: int = 2
    #: Attacks simulated per target (`/v1/simulate` n); the engine's ceiling is requests.MAX_ATTACKS.
    max_trials: int = 10_000_000
    #: Fights simulated in one request (`/v1/fights/simulate` n); the engine's ceiling is requests.MAX_FIGHTS.
    max_fights: int = 1_000_000
    #: Open-ended dice followed this deep at most (a request's `depth`, a file's `options.depth`).
    max_depth: int = 20
    #: States of one exact duel's chain (`/v1/fights/exact`): a quarter of the engine's ceiling, requests.MAX_STATES
    #: (200,000: what the command line allows on one's own machine, within 60 s). On a server any client, with no
    #: token, may ask for a duel, and it runs in one of `workers` pool processes that every such request shares;
    #: a chain's memory and time grow with its states, so the server's default keeps one request's chain a small
    #: share of a worker and refuses a big one (a 422 naming --max-states) after exploring a quarter as many
    #: states. A server's owner raises it with --max-states, up to the engine's ceiling (the flag's maximum).
    max_states: int = 50_000
    #: Seconds of one exact duel (kept at most four fifths of `request_seconds`: `exact_cap`).
    exact_seconds: float = 30.0
    #: Request body bytes: a real UVTT map with its picture (1.4-3.8 MB from Dungeondraft) fits well within it.
    #: Past it a 413, at once from the Content-Length (server/limits.py `BodyCap`).
    max_body: int = 32 << 20
    #: Pixels of a map's picture (width x height, read from the image's header before anything is decoded): past
    #: it, creating the encounter is a 422 naming the picture, and so is its GET (an encounter made under a higher
    #: cap). The engine's ceiling, what tohit decodes at all, is core/grid/uvtt.py MAX_IMAGE_PIXELS (the default).
    max_pixels: int = MAX_IMAGE_PIXELS
    #: Placements `/v1/aim` ranks and shows.
    max_placements: int = 100
    #: Dice one attack rolls against one target.
    max_dice: int = 1000
    #: Encounters kept in memory (each with its fight's tables); more are read again from the store when asked.
    cached_encounters: int = 256
    #: Seconds a request may take, queue included; past it a 503 and its work is stopped.
    request_seconds: float = 30.0
    #: Targets of one scenario: roll, odds, simulate and aim each answer once per target.
    max_targets: int = 100
    #: Dice rolled against all the targets together (targets x dice, each counted as `max_dice` counts them).
    max_target_dice: int = 20_000
    #: Fights x combatants of one fight simulation: the work grows with both.
    max_combatant_fights: int = 4_000_000
    #: Bytes of one answer: an answer that would be larger is a 422, not sent.
    max_response: int = 32 << 20
    #: Encounters one client address may create a minute (a burst of as many, then one each 60 / n seconds).
    creates_per_minute: int = 30
    #: How often a live stream looks for new events (seconds).
    poll: float = 0.25
    #: A live stream's lifetime (seconds): then it ends with an `end` event and the page reconnects from the last
    #: event it saw, so that no client holds a stream, and its slot, for ever.
    stream_seconds: float = 900.0
    #: Live streams open on one encounter at once (past it: a 429 with Retry-After).
    max_streams: int = 64
    # -- the connections (read by `tohit serve` for uvicorn: server/connections.py), not by the app ------------------
    #: Open connections in all (0: half the process's descriptor limit, at most 1,000).
    max_connections: int = 0
    #: Open connections from one client address (0: half of `max_connections`), so one address never takes all.
    max_connections_per_address: int = 0
    #: Seconds an idle connection is kept open.
    keep_alive_seconds: int = 5
    #: Seconds a connection has to send its request's headers.
    header_seconds: float = 10.0
    #: Seconds a connection has to send its whole request body.
    body_seconds: float = 60.0
    #: Addresses of proxies trusted for X-Forwarded-For, comma-separated ("": nobody).
    forwarded_allow_ips: str = ""

    @property
    def exact_cap(self) -> float:
        """The seconds an exact duel may take: `exact_seconds`, kept below the request's deadline (four fifths of
        it) so that a duel too long for both is refused by its own cap, a 422 naming it and how to ask for less,
        rather than by the deadline's 503."""
        return min(self.exact_seconds, 0.8 * self.request_seconds)
