"""The body cap of `tohit serve` (issue 16, item 2: a body of at most 1 MiB by default, `--max-body`): a body over
it is refused with a 422 naming the cap before any route reads it, whether its size is announced
(`Content-Length`) or it comes in chunks without one (then it is counted as it arrives, never kept past the cap).
"""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Methods whose request may carry a body.
WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def over_body_cap(limit: int) -> JSONResponse:
    """The 422 of a body over the cap, in the error shape of every other error."""
    message = f"the body is over the cap of {limit:,} bytes (max_body: tohit serve --max-body)"
    return JSONResponse({"error": {"source": None, "field": "body", "message": message}}, status_code=422)


class BodyCap:
    """Pure ASGI middleware: requests with a body over `limit` bytes get `over_body_cap`."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in WITH_BODY:
            await self.app(scope, receive, send)
            return
        size = dict(scope["headers"]).get(b"content-length")
        if size is not None:  # announced: the server reads no more than it says
            if not size.isdigit() or int(size) > self.limit:
                await over_body_cap(self.limit)(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        total = 0
        while True:  # chunked: counted as it comes
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body: bytes = message.get("body", b"")
            total += len(body)
            if total > self.limit:
                await over_body_cap(self.limit)(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        await self.app(scope, replay_body(b"".join(chunks), receive), send)


def replay_body(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the body read already, then what the client sends next (a disconnect)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            found: dict[str, Any] = {"type": "http.request", "body": body, "more_body": False}
            return found
        return await receive()

    return again
