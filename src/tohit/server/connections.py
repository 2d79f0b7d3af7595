"""Connection limits of `tohit serve`: idle or trickling connections cannot use up the server's file
descriptors, and no one client address can take every slot. A connection past `max_connections`, or past
`per_address` from its address, is answered 503 at once and closed; one that has not sent a whole request's headers
within `header_seconds`, or its whole body within `body_seconds`, is closed (uvicorn itself only times out a
connection idle *after* a response); and running out of descriptors anyway is logged once, not once a second with a
traceback."""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

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


def per_address_default(max_connections: int) -> int:
    """Connections one client address may hold at once by default: half the total, so that one address never takes
    every slot."""
    return max(1, max_connections // 2)


def guarded(
    max_connections: int, header_seconds: float, per_address: int | None = None, body_seconds: float | None = None
) -> type[H11Protocol]:
    """uvicorn's h11 protocol, with the limits on connections (in all, and from one client address: `per_address`,
    by default `per_address_default`) and the deadlines on a request: its headers within `header_seconds` of the
    connection, its whole body within `body_seconds` (by default six times that) of it. A connection past a limit
    is answered 503 at once and closed; one late with its request is closed."""
    most = per_address_default(max_connections) if per_address is None else per_address
    body_late = 6 * header_seconds if body_seconds is None else body_seconds
    held: Counter[str] = Counter()  # open connections per client address, of this server

    class Guarded(H11Protocol):
        deadline: asyncio.TimerHandle | None = None
        body_deadline: asyncio.TimerHandle | None = None
        address: str = ""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = get_remote_addr(transport)
            address = peer[0] if peer else ""
            if len(self.connections) >= max_connections or held[address] >= most:
                transport.write(BUSY)
                transport.close()
                return
            held[address] += 1
            self.address = address
            super().connection_made(transport)
            self.deadline = self.loop.call_later(header_seconds, self.headers_late)
            self.body_deadline = self.loop.call_later(body_late, self.body_late)

        def headers_late(self) -> None:
            """No request (or no keep-alive request under way) by the deadline: the connection is closed."""
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()

        def body_late(self) -> None:
            """The request's body still not whole by its deadline (a client trickling it a byte at a time): the
            connection is closed. A request whose body has arrived (a stream, a long answer) goes on."""
            if self.cycle is not None and self.cycle.more_body and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.deadline is None:  # refused in connection_made: never counted
                return
            self.deadline.cancel()
            if self.body_deadline is not None:
                self.body_deadline.cancel()
            held[self.address] -= 1
            if held[self.address] <= 0:
                del held[self.address]
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


def uvicorn_options(
    max_connections: int,
    keep_alive: int,
    header_seconds: float,
    per_address: int | None = None,
    body_seconds: float | None = None,
) -> dict[str, Any]:
    """The options of `uvicorn.run` that bound connections (`guarded`)."""
    return {
        "http": guarded(max_connections, header_seconds, per_address, body_seconds),
        "limit_concurrency": max_connections + 1,  # uvicorn counts the connection that asks too
        "timeout_keep_alive": keep_alive,
        "h11_max_incomplete_event_size": MAX_HEAD,
    }
