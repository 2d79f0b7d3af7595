"""`tohit serve` (the HTTP API and live encounters) and `tohit db upgrade` (the store's migrations)."""

from __future__ import annotations

import gc
import os
from contextlib import closing
from typing import TYPE_CHECKING, Annotated

import typer

from tohit.cli.errors import fail
from tohit.core.grid.uvtt import MAX_IMAGE_PIXELS
from tohit.engine.requests import MAX_ATTACKS, MAX_DEPTH, MAX_FIGHTS, MAX_SECONDS, MAX_STATES, MAX_WORKERS
from tohit.server.settings import Settings as S

if TYPE_CHECKING:
    from tohit.store.db import Store

#: Each option's default is its Settings field's (server/settings.py, the one home of the caps): none is written here.
DEFAULT_DB = S.db
DbOpt = Annotated[
    str, typer.Option("--db", help="SQLAlchemy URL: sqlite:///tohit.db, or postgresql+psycopg://user@host/db.")
]


def register(app: typer.Typer) -> None:
    """Add `serve` and `db` to the `tohit` command line."""
    app.command(name="serve")(serve)
    db = typer.Typer(help="The encounter store.", no_args_is_help=True)
    db.command(name="upgrade")(upgrade)
    app.add_typer(db, name="db")


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to bind (loopback unless you mean it).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535)] = 8000,
    db: DbOpt = DEFAULT_DB,
    workers: Annotated[
        int, typer.Option("--workers", min=0, max=MAX_WORKERS, help="Processes for CPU work.")
    ] = S.workers,
    max_trials: Annotated[
        int, typer.Option("--max-trials", min=1, max=MAX_ATTACKS, help="Cap: attacks per target.")
    ] = S.max_trials,
    max_fights: Annotated[
        int, typer.Option("--max-fights", min=1, max=MAX_FIGHTS, help="Cap: fights simulated.")
    ] = S.max_fights,
    max_depth: Annotated[
        int, typer.Option("--max-depth", min=0, max=MAX_DEPTH, help="Cap: open-roll depth.")
    ] = S.max_depth,
    max_states: Annotated[
        int, typer.Option("--max-states", min=1, max=MAX_STATES, help="Cap: exact duel states.")
    ] = S.max_states,
    exact_seconds: Annotated[
        float,
        typer.Option(
            "--exact-seconds",
            min=0.1,
            max=MAX_SECONDS,
            help="Cap: seconds of one exact duel (at most 4/5 of --request-seconds).",
        ),
    ] = S.exact_seconds,
    max_body: Annotated[int, typer.Option("--max-body", min=1, help="Cap: request body bytes (32 MiB).")] = S.max_body,
    max_pixels: Annotated[
        int,
        typer.Option(
            "--max-pixels", min=1, max=MAX_IMAGE_PIXELS, help="Cap: pixels of a map's picture (from its header)."
        ),
    ] = S.max_pixels,
    max_placements: Annotated[
        int, typer.Option("--max-placements", min=1, help="Cap: placements /v1/aim ranks and shows.")
    ] = S.max_placements,
    max_dice: Annotated[
        int, typer.Option("--max-dice", min=1, help="Cap: dice one attack rolls against one target.")
    ] = S.max_dice,
    request_seconds: Annotated[
        float, typer.Option("--request-seconds", min=0.1, help="Deadline: seconds one request may take (then a 503).")
    ] = S.request_seconds,
    max_targets: Annotated[
        int, typer.Option("--max-targets", min=1, help="Cap: targets of one scenario.")
    ] = S.max_targets,
    max_target_dice: Annotated[
        int, typer.Option("--max-target-dice", min=1, help="Cap: dice one attack rolls against all its targets.")
    ] = S.max_target_dice,
    max_combatant_fights: Annotated[
        int, typer.Option("--max-combatant-fights", min=1, help="Cap: fights x combatants of one simulation.")
    ] = S.max_combatant_fights,
    max_response: Annotated[
        int, typer.Option("--max-response", min=1, help="Cap: bytes of one answer.")
    ] = S.max_response,
    creates_per_minute: Annotated[
        int, typer.Option("--creates-per-minute", min=1, help="Cap: encounters one client address creates a minute.")
    ] = S.creates_per_minute,
    max_connections: Annotated[
        int,
        typer.Option(
            "--max-connections", min=0, help="Cap: open connections (0: half the descriptor limit, at most 1,000)."
        ),
    ] = S.max_connections,
    keep_alive_seconds: Annotated[
        int, typer.Option("--keep-alive-seconds", min=1, max=3600, help="Close a connection idle this long.")
    ] = S.keep_alive_seconds,
    header_seconds: Annotated[
        float,
        typer.Option("--header-seconds", min=0.1, max=3600, help="Close a connection with no request by then."),
    ] = S.header_seconds,
    per_address: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address",
            min=0,
            help="Cap: open connections from one client address (0: half of --max-connections).",
        ),
    ] = S.max_connections_per_address,
    body_seconds: Annotated[
        float,
        typer.Option(
            "--body-seconds", min=0.1, max=3600, help="Close a connection whose request body is not whole by then."
        ),
    ] = S.body_seconds,
    stream_seconds: Annotated[
        float,
        typer.Option("--stream-seconds", min=1, max=86_400, help="A live stream's lifetime; then the page reconnects."),
    ] = S.stream_seconds,
    max_streams: Annotated[
        int, typer.Option("--max-streams", min=1, help="Cap: live streams open on one encounter.")
    ] = S.max_streams,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            help="Addresses of proxies trusted for X-Forwarded-For, comma-separated ('' : nobody, the default).",
        ),
    ] = S.forwarded_allow_ips,
) -> None:
    """Serve the web table (/), the HTTP API (/v1, docs at /docs) and live encounters; prints a login URL with
    the admin token once the server listens. A port in use, an address not of this machine, a database URL the
    store cannot use: one line naming the flag and exit 2, with nothing printed before it."""
    from tohit.server import collector
    from tohit.server.app import create_app
    from tohit.server.connections import default_max_connections, log_descriptors_once, uvicorn_options
    from tohit.server.listening import Unbindable, bind, run, where
    from tohit.store.db import shown

    token = os.environ.get("TOHIT_ADMIN_TOKEN") or None
    settings = S(
        db=db,
        workers=workers,
        max_trials=max_trials,
        max_fights=max_fights,
        max_depth=max_depth,
        max_states=max_states,
        exact_seconds=exact_seconds,
        max_body=max_body,
        max_pixels=max_pixels,
        max_placements=max_placements,
        max_dice=max_dice,
        request_seconds=request_seconds,
        max_targets=max_targets,
        max_target_dice=max_target_dice,
        max_combatant_fights=max_combatant_fights,
        max_response=max_response,
        creates_per_minute=creates_per_minute,
        stream_seconds=stream_seconds,
        max_streams=max_streams,
        max_connections=max_connections,
        max_connections_per_address=per_address,
        keep_alive_seconds=keep_alive_seconds,
        header_seconds=header_seconds,
        body_seconds=body_seconds,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    if token:
        settings.admin_token = token
    total = max_connections or default_max_connections()
    if per_address > total:
        fail(f"--max-connections-per-address: {per_address:,} is over --max-connections ({total:,})")
    try:  # the socket first, held from here on: a port in use is told before the store is opened
        listening = bind(host, port)
    except Unbindable as exc:
        fail(f"{exc.flag}: {exc}")
    with closing(listening):
        store = open_db(db)
        shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host

        def announce(bound: int) -> None:
            """The login lines, once the server listens (with the port bound: --port 0 is a free port)."""
            at = f"http://{where(shown_host, bound)}"
            print(f"tohit {shown(settings.db)}: open {at}/?token={settings.admin_token}", flush=True)
            print(f"API docs: {at}/docs?token={settings.admin_token}", flush=True)
            print(f"admin token: {settings.admin_token}  (set TOHIT_ADMIN_TOKEN to choose it)", flush=True)

        limits = uvicorn_options(total, keep_alive_seconds, header_seconds, per_address or None, body_seconds)
        # Whom to believe for X-Forwarded-For: nobody unless named (a client's own header would pick its address,
        # and with it every per-address cap).
        limits |= {"proxy_headers": bool(forwarded_allow_ips), "forwarded_allow_ips": forwarded_allow_ips or None}
        log_descriptors_once()
        app = create_app(settings, store)
        # What the server holds from its start (modules, the app, its schemas: some 130,000 objects) is kept out of
        # the collector's full passes, which otherwise stop every thread for 80-170 ms, in the middle of requests;
        # and so is, after each full pass, what it found alive (the fights' history: server/collector.py).
        gc.collect()
        gc.freeze()
        collector.freeze_survivors()
        try:
            started = run(app, listening, announce, {"log_level": "warning", **limits})
        finally:
            store.close()
    if not started:  # the app's start failed (uvicorn has logged why), as `uvicorn.run` ends then
        raise typer.Exit(3)


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
