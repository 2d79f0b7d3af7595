"""Request bodies are read as the CLI reads a JSON file: an object holding a key twice is
refused (JSON itself leaves it open; Python's reader would keep the last silently), as are integers of more
digits, or nesting deeper, than the file loader's caps (`tohit.core.loader.parse_json`, reused here). A 422
naming `body`, before any route reads it. (A `true` given for a number is refused by the body models, which
are strict.)"""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from tohit.core.errors import InputError
from tohit.core.loader import parse_json
from tohit.server.limits import WITH_BODY, replay_body


def _is_json(scope: Scope) -> bool:
    kind = dict(scope["headers"]).get(b"content-type", b"").split(b";")[0].strip().lower()
    return kind == b"application/json" or kind.endswith(b"+json")


class StrictJson:
    """Pure ASGI middleware: a JSON body that the file loader refuses gets a 422 with its message."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in WITH_BODY or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:  # the body cap (outside this middleware) has bounded it already
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body.strip():
            try:
                parse_json(body.decode("utf-8", errors="replace"), source="body")
            except InputError as exc:
                error = {"error": {"source": "body", "field": "body", "message": exc.message}}
                await JSONResponse(error, status_code=422)(scope, receive, send)
                return
        await self.app(scope, replay_body(body, receive), send)
