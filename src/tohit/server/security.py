"""Tokens compared safely and the headers every answer carries.

A token arrives in a header, which HTTP carries as bytes (Starlette reads them as Latin-1): it is compared as
bytes, so a token with a character past ASCII is simply not the token (a 403), never an error of the
comparison (`hmac.compare_digest` refuses a str with such a character)."""

from __future__ import annotations

import hashlib
import hmac
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
