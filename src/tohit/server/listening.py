"""The start of `tohit serve`: its socket bound by tohit itself, before anything else, so that a port in use or an
address not of this machine is one line naming the flag (not uvicorn's log line and exit 3 after a login URL
that leads nowhere); and the login lines printed only once uvicorn listens on that socket.

    listening = bind("127.0.0.1", 8000)               # Unbindable("--port", "127.0.0.1:8000 is in use ...")
    started = run(app, listening, announce, options)  # announce(port) once the server accepts connections
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable
from typing import Any

import uvicorn


class Unbindable(Exception):
    """The socket could not be bound: `flag` is the option to change (`--port`, `--host`), the message says why."""

    def __init__(self, flag: str, message: str) -> None:
        super().__init__(message)
        self.flag = flag


def where(host: str, port: int) -> str:
    """`host:port` as a URL writes it (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def bind(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host`:`port` (port 0: a free port, the system's choice), not yet listening: uvicorn
    listens on it when it starts. Addresses are taken as uvicorn takes them (IPv6 when the host has a colon), and
    SO_REUSEADDR is set as uvicorn sets it (a port left in TIME_WAIT by a server just stopped is free; one a
    server listens on is not)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except socket.gaierror as exc:
        sock.close()
        raise Unbindable("--host", f"{host!r} is not a known address ({exc.strerror})") from None
    except OSError as exc:
        sock.close()
        raise Unbindable(*_refused(exc, host, port)) from None
    return sock


def _refused(exc: OSError, host: str, port: int) -> tuple[str, str]:
    """The flag to change and the message, for a bind the system refused."""
    at = where(host, port)
    if exc.errno == errno.EADDRINUSE:
        return "--port", f"{at} is in use (another server listens there): stop it, or choose another --port"
    if exc.errno == errno.EACCES:
        return "--port", f"{at}: a port below 1024 takes privileges: choose one above 1023"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "--host", f"{host} is not an address of this machine (127.0.0.1: this machine only; 0.0.0.0: all)"
    return "--host", f"cannot listen on {at}: {exc.strerror or exc}"


def run(app: Any, listening: socket.socket, announce: Callable[[int], None], options: dict[str, Any]) -> bool:
    """Serve `app` on the bound socket `listening` with uvicorn (`options`: its Config's); `announce(port)` is
    called once the server listens (the app's lifespan has started, the socket accepts connections), never
    before. Returns whether the server started (False: its lifespan failed, uvicorn has said why)."""

    class Announcing(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started and not self.should_exit:
                announce(int(listening.getsockname()[1]))

    server = Announcing(uvicorn.Config(app, **options))
    server.run(sockets=[listening])
    return server.started
