"""`tohit serve` (the HTTP API and live encounters) and `tohit db upgrade` (the store's migrations).

`serve` in the order it starts: the settings from the flags, the socket bound (a port in use is told before the store
is opened), the store opened, the app built on it (with its pool of worker processes), then uvicorn run on the socket
held; when it stops, the store is closed.
"""

from __future__ import annotations

import gc
import os
import socket
from collections.abc import Callable
from contextlib import closing
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tohit.cli.errors import fail
from tohit.core.grid.uvtt import MAX_IMAGE_PIXELS
from tohit.engine.requests import MAX_ATTACKS, MAX_DEPTH, MAX_FIGHTS, MAX_SECONDS, MAX_STATES, MAX_WORKERS
from tohit.server.settings import Settings as S

if TYPE_CHECKING:
    from tohit.store.db import Store

#: Each option's default is its Settings field's (server/settings.py, the one home of the caps): none is written here.
DEFAULT_DB = S.db
#: The flags of `serve` that are no Settings field: where it listens.
LISTENING = ("host", "port")

# The flags, one type each (typer reads a flag from its parameter's annotation); each default is in `serve`'s
# signature, read from Settings.
DbOpt = Annotated[
    str, typer.Option("--db", help="SQLAlchemy URL: sqlite:///tohit.db, or postgresql+psycopg://user@host/db.")
]
HostOpt = Annotated[str, typer.Option("--host", help="Address to bind (loopback unless you mean it).")]
PortOpt = Annotated[int, typer.Option("--port", min=0, max=65535)]
WorkersOpt = Annotated[int, typer.Option("--workers", min=0, max=MAX_WORKERS, help="Processes for CPU work.")]
MaxTrialsOpt = Annotated[int, typer.Option("--max-trials", min=1, max=MAX_ATTACKS, help="Cap: attacks per target.")]
MaxFightsOpt = Annotated[int, typer.Option("--max-fights", min=1, max=MAX_FIGHTS, help="Cap: fights simulated.")]
MaxDepthOpt = Annotated[int, typer.Option("--max-depth", min=0, max=MAX_DEPTH, help="Cap: open-roll depth.")]
MaxStatesOpt = Annotated[int, typer.Option("--max-states", min=1, max=MAX_STATES, help="Cap: exact duel states.")]
ExactSecondsOpt = Annotated[
    float,
    typer.Option(
        "--exact-seconds",
        min=0.1,
        max=MAX_SECONDS,
        help="Cap: seconds of one exact duel (at most 4/5 of --request-seconds).",
    ),
]
MaxBodyOpt = Annotated[int, typer.Option("--max-body", min=1, help="Cap: request body bytes (32 MiB).")]
MaxPixelsOpt = Annotated[
    int,
    typer.Option("--max-pixels", min=1, max=MAX_IMAGE_PIXELS, help="Cap: pixels of a map's picture (from its header)."),
]
MaxPlacementsOpt = Annotated[
    int, typer.Option("--max-placements", min=1, help="Cap: placements /v1/aim ranks and shows.")
]
MaxDiceOpt = Annotated[int, typer.Option("--max-dice", min=1, help="Cap: dice one attack rolls against one target.")]
RequestSecondsOpt = Annotated[
    float, typer.Option("--request-seconds", min=0.1, help="Deadline: seconds one request may take (then a 503).")
]
MaxTargetsOpt = Annotated[int, typer.Option("--max-targets", min=1, help="Cap: targets of one scenario.")]
MaxTargetDiceOpt = Annotated[
    int, typer.Option("--max-target-dice", min=1, help="Cap: dice one attack rolls against all its targets.")
]
MaxCombatantFightsOpt = Annotated[
    int, typer.Option("--max-combatant-fights", min=1, help="Cap: fights x combatants of one simulation.")
]
MaxResponseOpt = Annotated[int, typer.Option("--max-response", min=1, help="Cap: bytes of one answer.")]
CreatesPerMinuteOpt = Annotated[
    int, typer.Option("--creates-per-minute", min=1, help="Cap: encounters one client address creates a minute.")
]
MaxConnectionsOpt = Annotated[
    int,
    typer.Option(
        "--max-connections", min=0, help="Cap: open connections (0: half the descriptor limit, at most 1,000)."
    ),
]
KeepAliveSecondsOpt = Annotated[
    int, typer.Option("--keep-alive-seconds", min=1, max=3600, help="Close a connection idle this long.")
]
HeaderSecondsOpt = Annotated[
    float,
    typer.Option("--header-seconds", min=0.1, max=3600, help="Close a connection with no request by then."),
]
MaxConnectionsPerAddressOpt = Annotated[
    int,
    typer.Option(
        "--max-connections-per-address",
        min=0,
        help="Cap: open connections from one client address (0: half of --max-connections).",
    ),
]
BodySecondsOpt = Annotated[
    float,
    typer.Option(
        "--body-seconds", min=0.1, max=3600, help="Close a connection whose request body is not whole by then."
    ),
]
StreamSecondsOpt = Annotated[
    float,
    typer.Option("--stream-seconds", min=1, max=86_400, help="A live stream's lifetime; then the page reconnects."),
]
MaxStreamsOpt = Annotated[int, typer.Option("--max-streams", min=1, help="Cap: live streams open on one encounter.")]
ForwardedAllowIpsOpt = Annotated[
    str,
    typer.Option(
        "--forwarded-allow-ips",
        help="Addresses of proxies trusted for X-Forwarded-For, comma-separated ('' : nobody, the default).",
    ),
]


def register(app: typer.Typer) -> None:
    """Add `serve` and `db` to the `tohit` command line."""
    app.command(name="serve")(serve)
    db = typer.Typer(help="The encounter store.", no_args_is_help=True)
    db.command(name="upgrade")(upgrade)
    app.add_typer(db, name="db")


def serve(
    ctx: typer.Context,
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    db: DbOpt = DEFAULT_DB,
    workers: WorkersOpt = S.workers,
    max_trials: MaxTrialsOpt = S.max_trials,
    max_fights: MaxFightsOpt = S.max_fights,
    max_depth: MaxDepthOpt = S.max_depth,
    max_states: MaxStatesOpt = S.max_states,
    exact_seconds: ExactSecondsOpt = S.exact_seconds,
    max_body: MaxBodyOpt = S.max_body,
    max_pixels: MaxPixelsOpt = S.max_pixels,
    max_placements: MaxPlacementsOpt = S.max_placements,
    max_dice: MaxDiceOpt = S.max_dice,
    request_seconds: RequestSecondsOpt = S.request_seconds,
    max_targets: MaxTargetsOpt = S.max_targets,
    max_target_dice: MaxTargetDiceOpt = S.max_target_dice,
    max_combatant_fights: MaxCombatantFightsOpt = S.max_combatant_fights,
    max_response: MaxResponseOpt = S.max_response,
    creates_per_minute: CreatesPerMinuteOpt = S.creates_per_minute,
    max_connections: MaxConnectionsOpt = S.max_connections,
    keep_alive_seconds: KeepAliveSecondsOpt = S.keep_alive_seconds,
    header_seconds: HeaderSecondsOpt = S.header_seconds,
    max_connections_per_address: MaxConnectionsPerAddressOpt = S.max_connections_per_address,
    body_seconds: BodySecondsOpt = S.body_seconds,
    stream_seconds: StreamSecondsOpt = S.stream_seconds,
    max_streams: MaxStreamsOpt = S.max_streams,
    forwarded_allow_ips: ForwardedAllowIpsOpt = S.forwarded_allow_ips,
) -> None:
    """Serve the web table (/), the HTTP API (/v1, docs at /docs) and live encounters; prints a login URL with
    the admin token once the server listens. A port in use, an address not of this machine, a database URL the
    store cannot use: one line naming the flag and exit 2, with nothing printed before it."""
    settings = _settings(ctx.params)
    total = _max_connections(settings)
    listening = _bind(host, port)
    with closing(listening):
        started = _run(settings, listening, host, total)
    if not started:  # the app's start failed (uvicorn has logged why), as `uvicorn.run` ends then
        raise typer.Exit(3)


def _settings(flag_values: dict[str, Any]) -> S:
    """The flags' values, each its Settings field (but where it listens), and the admin token from the environment's
    TOHIT_ADMIN_TOKEN (a flag would show it in the process list), else drawn."""
    settings = S(**{name: value for name, value in flag_values.items() if name not in LISTENING})
    token = os.environ.get("TOHIT_ADMIN_TOKEN") or None
    if token:
        settings.admin_token = token
    return settings


def _max_connections(settings: S) -> int:
    """The cap of open connections (--max-connections 0: half the descriptor limit, at most 1,000); a cap per
    address over it: one line naming the flag, exit 2."""
    from tohit.server.connections import default_max_connections

    total = settings.max_connections or default_max_connections()
    per_address = settings.max_connections_per_address
    if per_address > total:
        fail(f"--max-connections-per-address: {per_address:,} is over --max-connections ({total:,})")
    return total


def _bind(host: str, port: int) -> socket.socket:
    """The socket, bound first and held from here on: a port in use is told before the store is opened (one line
    naming the flag, exit 2)."""
    from tohit.server.listening import Unbindable, bind

    try:
        return bind(host, port)
    except Unbindable as exc:
        fail(f"{exc.flag}: {exc}")


def _run(settings: S, listening: socket.socket, host: str, total: int) -> bool:
    """The store opened, the app built on it, uvicorn run on the socket held until it stops; then the store is
    closed. Whether the app started."""
    from tohit.server.app import create_app
    from tohit.server.connections import log_descriptors_once
    from tohit.server.listening import run

    store = open_db(settings.db)
    announce = _announcer(settings, host)
    limits = _uvicorn_limits(settings, total)
    log_descriptors_once()
    app = create_app(settings, store)
    _keep_out_of_the_collector()
    try:
        return run(app, listening, announce, {"log_level": "warning", **limits})
    finally:
        store.close()


def _announcer(settings: S, host: str) -> Callable[[int], None]:
    """What prints the login lines once the server listens."""
    from tohit.server.listening import where
    from tohit.store.db import shown

    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host

    def announce(bound: int) -> None:
        """The login lines, once the server listens (with the port bound: --port 0 is a free port)."""
        at = f"http://{where(shown_host, bound)}"
        print(f"tohit {shown(settings.db)}: open {at}/?token={settings.admin_token}", flush=True)
        print(f"API docs: {at}/docs?token={settings.admin_token}", flush=True)
        print(f"admin token: {settings.admin_token}  (set TOHIT_ADMIN_TOKEN to choose it)", flush=True)

    return announce


def _uvicorn_limits(settings: S, total: int) -> dict[str, Any]:
    """uvicorn's options for the caps on connections and the deadlines of a request, and whom to believe for
    X-Forwarded-For: nobody unless named (a client's own header would pick its address, and with it every
    per-address cap)."""
    from tohit.server.connections import uvicorn_options

    limits = uvicorn_options(
        total,
        settings.keep_alive_seconds,
        settings.header_seconds,
        settings.max_connections_per_address or None,
        settings.body_seconds,
    )
    allowed = settings.forwarded_allow_ips
    return limits | {"proxy_headers": bool(allowed), "forwarded_allow_ips": allowed or None}


def _keep_out_of_the_collector() -> None:
    """What the server holds from its start (modules, the app, its schemas: some 130,000 objects) is kept out of the
    collector's full passes, which otherwise stop every thread for 80-170 ms, in the middle of requests; and so is,
    after each full pass, what it found alive (the fights' history: server/collector.py)."""
    from tohit.server import collector

    gc.collect()
    gc.freeze()
    collector.freeze_survivors()


def open_db(db: str) -> Store:
    """The store at `--db`, its migrations applied; a URL it cannot use, a driver not installed, a database that
    cannot be reached: one line naming --db, exit 2."""
    from tohit.store.db import StoreUnavailable, open_store, shown

    try:
        return open_store(db)
    except StoreUnavailable as exc:
        fail(f"--db: {exc}")
    except Exception as exc:  # anything else the database said: one line, not a traceback
        fail(f"--db: cannot open the store {shown(db)!r}: {type(exc).__name__}: {str(exc).splitlines()[0]}")


def upgrade(db: DbOpt = DEFAULT_DB) -> None:
    """Apply the store's migrations (serve applies them at start too)."""
    from tohit.store.db import shown

    open_db(db).close()
    print(f"{shown(db)}: up to date")
