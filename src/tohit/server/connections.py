"""Connection limits of `tohit serve`: idle connections cannot use up the server's file
descriptors. A connection past `max_connections` is answered 503 at once and closed; one that has not sent a
whole request's headers within `header_seconds` is closed (uvicorn itself only times out a connection idle
*after* a response); and running out of descriptors anyway is logged once, not once a second with a
traceback."""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: The answer to a connection past the limit (no request is read: the descriptor is freed at once).
BUSY_BODY = b'{"error": {"source": null, "field": null, "message": "too many connections: try again soon"}}'
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: " + str(len(BUSY_BODY)).encode() + b"\r\n\r\n" + BUSY_BODY
)

#: h11's cap on a request's head (line and headers), in bytes.
MAX_HEAD = 16 * 1024


def default_max_connections() -> int:
    """Half of the process's descriptor limit (the rest: the store, the pool's pipes, logs), at most 1,000."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return max(8, min(1000, soft // 2)) if soft != resource.RLIM_INFINITY else 1000


def guarded(max_connections: int, header_seconds: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, with the limit on connections and the deadline on a request's headers."""

    class Guarded(H11Protocol):
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if len(self.connections) >= max_connections:
                transport.write(BUSY)
                transport.close()
                return
            super().connection_made(transport)
            self.deadline = self.loop.call_later(header_seconds, self.headers_late)

        def headers_late(self) -> None:
            """No request (or no keep-alive request under way) by the deadline: the connection is closed."""
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.deadline is None:  # refused in connection_made: never counted
                return
            self.deadline.cancel()
            super().connection_lost(exc)

    return Guarded


class OutOfDescriptors(logging.Filter):
    """Lets the first "out of descriptors" record through as one line; drops the ones after it."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if self.seen and isinstance(error, ValueError) and "_start_serving" in str(record.msg):
            return False  # a retry to accept, left pending by the loop, on a socket closed at shutdown
        if not (isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE)):
            return True
        self.seen += 1
        if self.seen > 1:
            return False
        record.msg = (
            f"out of file descriptors ({error.strerror}): new connections wait; lower --max-connections or raise"
            " the limit (ulimit -n). This is logged once."
        )
        record.args, record.exc_info, record.exc_text = None, None, None
        return True


def log_descriptors_once() -> OutOfDescriptors:
    """The filter on asyncio's logger (where the event loop reports a failed accept)."""
    found = OutOfDescriptors()
    logging.getLogger("asyncio").addFilter(found)
    return found


def uvicorn_options(max_connections: int, keep_alive: int, header_seconds: float) -> dict[str, Any]:
    """The options of `uvicorn.run` that bound connections."""
    return {
        "http": guarded(max_connections, header_seconds),
        "limit_concurrency": max_connections + 1,  # uvicorn counts the connection that asks too
        "timeout_keep_alive": keep_alive,
        "h11_max_incomplete_event_size": MAX_HEAD,
    }
