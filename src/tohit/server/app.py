"""`tohit serve`: the HTTP API (FastAPI) for play at the table and for tools (docs/architecture.md, "The server, the
store and the web table").

Every route is under /v1; the OpenAPI docs are at /docs. The routes are routers by concern (server/routers/):
the stateless work answers with the CLI's `--json` shapes and runs its CPU work in a process pool, off the event
loop, within caps; the encounters, their live streams, their pictures and the admin's list read and write the
store. Who may do what is a dependency of each route (server/authorization.py); what the server holds while it
runs is server/state.py's. Errors are JSON, `{"error": {"source", "field", "message"}}`, never a 500 for bad
input.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from tohit import __version__
from tohit.server import admission, errors
from tohit.server.contract import describe
from tohit.server.docs import mount_docs
from tohit.server.errors import ERRORS
from tohit.server.limits import BodyCap
from tohit.server.routers import admin, encounters, pictures, players, stateless, streams
from tohit.server.security import SecurityHeaders
from tohit.server.settings import Settings as Settings
from tohit.server.state import ServerState
from tohit.server.strict_json import StrictJson
from tohit.store.db import Store
from tohit.web import mount_pages


def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    """The FastAPI app: its store opened (migrations applied) and its process pool started with it."""
    server = ServerState(settings or Settings(), store)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        server.open()
        yield
        server.close()

    app = FastAPI(
        title="tohit",
        docs_url=None,  # served by the server itself (server/docs.py)
        redoc_url=None,
        version=__version__,
        description="Tabletop-RPG attack rules: rolls, exact odds, simulations and live encounters.",
        lifespan=lifespan,
        responses=ERRORS,
    )
    app.state.server = server  # the routes' dependencies find it here (server/authorization.py)
    app.state.encounters, app.state.locks = server.cache, server.locks  # read by tests: the bounds hold

    errors.install(app)
    admission.install(app)
    app.add_middleware(StrictJson)  # inside the body cap: reads a body the cap has bounded
    app.add_middleware(BodyCap, limit=server.settings.max_body)
    app.add_middleware(SecurityHeaders)
    for router in (stateless.router, encounters.router, players.router, admin.router, pictures.router, streams.router):
        # Its routes become the app's own: newer FastAPI keeps a router passed to `include_router` whole, one
        # opaque route, where the 405's Allow (server/errors.py), the docs and the tests read every route.
        app.router.routes.extend(router.routes)
    mount_docs(app, "tohit")
    describe(app)
    mount_pages(app)
    return app
