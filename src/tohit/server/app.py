"""`tohit serve`: the HTTP API (FastAPI) for play at the table and for tools (issue 16; design.md, "The table").

Every route is under /v1; the OpenAPI docs are at /docs. The stateless routes answer with the CLI's `--json`
shapes and run their CPU work in a process pool, off the event loop, within caps. An encounter is a fight file
and its events in the store; each action is one transaction that appends events with the next seq, and the
unique (encounter, seq) makes two writers never both win. Errors are JSON, `{"error": {"source", "field",
"message"}}`, never a 500 for bad input.

This module builds the app (its store, pool, caches and error handlers); the routes are in stateless.py and
encounters.py, the request bodies and the error body in shapes.py, the caps in settings.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from tohit import __version__
from tohit.core.errors import TohitError
from tohit.engine.actions import field_of
from tohit.engine.encounter import Encounter
from tohit.server.cache import Lru
from tohit.server.encounters import add_encounter_routes
from tohit.server.limits import BodyCap
from tohit.server.settings import Settings
from tohit.server.shapes import ERRORS, ApiError, error_body
from tohit.server.stateless import add_stateless_routes
from tohit.store.db import Store, StoredEncounter, open_store
from tohit.web import mount_pages


# -- the app -------------------------------------------------------------------------------------------------
def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    """The FastAPI app: its store opened (migrations applied) and its process pool started with it."""
    settings = settings or Settings()
    state: dict[str, Any] = {"store": store, "pool": None}
    #: The encounters in memory (each with its fight's memo), the least recently used forgotten first.
    cache: Lru[str, Encounter] = Lru(settings.cached_encounters)
    #: Each encounter's row as last read (a row does not change; a write's own check of the seq finds one
    #: deleted by another process, and then the row is read again).
    rows: Lru[str, StoredEncounter] = Lru(settings.cached_encounters)
    locks: dict[str, asyncio.Lock] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state["store"] = state["store"] or open_store(settings.db)
        state["pool"] = ProcessPoolExecutor(settings.workers) if settings.workers > 0 else None
        yield
        if state["pool"] is not None:
            state["pool"].shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="tohit",
        docs_url="/docs",
        version=__version__,
        description="Tabletop-RPG attack rules: rolls, exact odds, simulations and live encounters.",
        lifespan=lifespan,
        responses=ERRORS,
    )

    app.state.encounters = cache  # read by tests: the bound holds

    def the_store() -> Store:
        found: Store = state["store"]
        return found

    async def work(fn: Callable[..., Any], *args: Any) -> Any:
        """CPU work off the event loop: in the process pool (or a thread when there is none)."""
        pool = state.get("pool")
        if pool is None:
            return await asyncio.to_thread(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    # -- errors --------------------------------------------------------------------------------------------------
    @app.exception_handler(TohitError)
    async def _input_error(request: Request, exc: TohitError) -> JSONResponse:
        return JSONResponse(error_body(exc.message, exc.field, exc.source), status_code=422)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({**error_body(exc.message, exc.field), **exc.extra}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = [p for p in first.get("loc", ()) if p not in ("body", "query", "path", "header")]
        if request.url.path.endswith("/actions"):  # an action: named without the union's tag
            field = field_of(loc, str(first.get("type", "")))
        else:
            field = ".".join(str(p) for p in loc) or None
        return JSONResponse(error_body(str(first.get("msg")), field), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(error_body(str(exc.detail)), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover - a bug
        return JSONResponse(error_body(f"internal error: {type(exc).__name__}"), status_code=500)

    app.add_middleware(BodyCap, limit=settings.max_body)

    add_stateless_routes(app, settings, work)
    add_encounter_routes(app, settings, the_store, work, cache, rows, locks)

    mount_pages(app)
    return app
