"""Tokens compared safely and the headers every answer carries.

A token arrives in a header, which HTTP carries as bytes (Starlette reads them as Latin-1): it is compared as
bytes, so a token with a character past ASCII is simply not the token (a 403), never an error of the
comparison (`hmac.compare_digest` refuses a str with such a character)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send


def hash_token(token: str) -> str:
    """The token as stored: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_token(given: str, expected: str) -> bool:
    """Whether `given` is `expected`, in constant time, compared as UTF-8 bytes (any characters)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def matches(token: str, stored: str) -> bool:
    """Whether `token` is the one whose hash is `stored`."""
    return same_token(hash_token(token), stored)


#: How many times a new players' link may be made that GET …/view_token still finds (the search's budget: one HMAC
#: a try); past it, a new link is random and is shown once.
MAX_LINKS = 1000


def view_token_of(gm_hash: str, generation: int) -> str:
    """The players' link's token, the `generation`-th made: an HMAC keyed by the GM token's stored hash, as long as
    `token_urlsafe(24)`. The GM (or the admin) reads it again (GET …/view_token); the view token tells nothing of the
    GM token; who reads the store could make it, but reads the encounter there already."""
    mac = hmac.new(gm_hash.encode("utf-8"), f"tohit players' link {generation}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode("ascii")


def player_token_of(gm_hash: str, combatant: str, generation: int) -> str:
    """A player's link's token, the `generation`-th made for `combatant`: an HMAC keyed by the GM token's stored
    hash, as `view_token_of` (its message says whose link it is, so it is never a view token's); the store keeps
    its hash and its generation, so the GM reads it again (GET …/player_tokens) without any search."""
    message = f"tohit player's link {generation} {combatant}".encode()
    mac = hmac.new(gm_hash.encode("utf-8"), message, hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode("ascii")


def found_view_token(gm_hash: str, view_hash: str) -> tuple[str, int] | None:
    """(the view token now, its generation) when it was made so (`view_token_of`), trying each generation up to
    `MAX_LINKS`; None for one made otherwise (random: before links were made so, or past the budget)."""
    for generation in range(MAX_LINKS):
        token = view_token_of(gm_hash, generation)
        if matches(token, view_hash):
            return token, generation
    return None


def next_view_token(gm_hash: str, view_hash: str | None) -> str:
    """A new players' link's token: the generation after the current one's (the first for a new encounter), or a
    random one past the budget."""
    found = None if view_hash is None else found_view_token(gm_hash, view_hash)
    generation = 0 if found is None else found[1] + 1
    return view_token_of(gm_hash, generation) if generation < MAX_LINKS else secrets.token_urlsafe(24)


def for_view(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as the view token reads them: without their `seed` (the start event's is
    the encounter's entropy, from which every later roll is drawn: `default_rng([seed, seq])`), so nothing a
    viewer reads predicts the dice. The GM reads them whole (the GM export replays exactly)."""
    return [{k: v for k, v in e.items() if k != "seed"} if "seed" in e else e for e in events]


#: What every answer says about itself: no page leaks its URL (which may hold a token) to another site, no
#: answer is read as another type than it says, and no other site frames a page.
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
)

#: The policy of a page that sets none of its own: nothing framed, nothing from elsewhere.
FRAME_ANCESTORS = b"frame-ancestors 'none'"


class SecurityHeaders:
    """Pure ASGI middleware: `HEADERS` on every answer, and `frame-ancestors 'none'` in its
    Content-Security-Policy (added to the page's own policy, or the whole policy when it has none)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in dict(HEADERS)]
                policy = next((v for k, v in headers if k.lower() == b"content-security-policy"), None)
                if policy is None:
                    headers.append((b"content-security-policy", FRAME_ANCESTORS))
                elif b"frame-ancestors" not in policy:
                    headers = [(k, v) for k, v in headers if k.lower() != b"content-security-policy"]
                    headers.append((b"content-security-policy", policy.rstrip(b"; ") + b"; " + FRAME_ANCESTORS))
                message = {**message, "headers": [*headers, *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
