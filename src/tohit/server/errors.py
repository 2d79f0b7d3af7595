"""The server's errors: one JSON shape, `{"error": {"source", "field", "message"}}`, for every status, and the
handlers that turn each kind of failure into it (a dead worker or a lack of memory is a
503 or a 422, never a 500; a 405 says what is allowed)."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from tohit.core.errors import TohitError
from tohit.engine.actions import field_of, telling_error, union_path
from tohit.engine.pool import WorkerLost

#: Seconds a client is asked to wait before it tries again after a 503.
RETRY_AFTER = 1


class ApiError(Exception):
    """An answer that is an error: its status and the error body's field and message."""

    def __init__(self, status: int, message: str, field: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.field, self.extra = status, message, field, extra

    def __reduce__(self) -> tuple[Any, ...]:
        """Picklable (raised in a pool worker, answered by the server): made again from all it holds."""
        return functools.partial(type(self), **self.extra), (self.status, self.message, self.field)


def error_body(message: str, field: str | None = None, source: str | None = None) -> dict[str, Any]:
    return {"error": {"source": source, "field": field, "message": message}}


class ErrorDetail(BaseModel):
    source: str | None = None
    field: str | None = None
    message: str


class ErrorBody(BaseModel):
    """Every error: where (the source and field) and what, in one line."""

    error: ErrorDetail
    seq: int | None = Field(default=None, description="409: the encounter's current seq.")


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": what}
    for code, what in (
        (400, "a body that is not JSON"),
        (401, "no token"),
        (403, "a token that may not do this"),
        (404, "no such encounter or system"),
        (409, "a stale expected_seq: another write came first"),
        (422, "bad input, or over a cap: the field named"),
        (
            429,
            "too many requests of this kind at once, or too many encounters created from one address: try again"
            " (Retry-After)",
        ),
        (503, "a worker process was lost, or the request passed its deadline: try again (Retry-After)"),
    )
}

#: What a write the store could not take now is told: its outcome may be unknown, so not "nothing was written".
STORE_UNAVAILABLE = (
    "the encounter store could not take the write now: read the encounter (its seq) and send it again with expected_seq"
)

#: What a request that ran out of memory is told (the same request would run out again: a 422).
OUT_OF_MEMORY = "the work ran out of memory on this server: ask for less (fewer targets, dice, depth or trials)"


def install(app: FastAPI) -> None:
    """The handlers of every error, on `app`."""

    @app.exception_handler(TohitError)
    async def _input_error(request: Request, exc: TohitError) -> JSONResponse:
        return JSONResponse(error_body(exc.message, exc.field, exc.source), status_code=422)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        extra = {k: v for k, v in exc.extra.items() if k != "retry_after"}
        wait = exc.extra.get("retry_after")
        headers = {"Retry-After": str(wait)} if wait is not None else None
        return JSONResponse({**error_body(exc.message, exc.field), **extra}, status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = telling_error(exc.errors()) if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = [p for p in first.get("loc", ()) if p not in ("body", "query", "path", "header")]
        if request.url.path.endswith("/actions"):  # an action: named without the union's tag
            field = field_of(loc, str(first.get("type", "")))
        else:  # without pydantic's names of a union's members (`dice.dict[str,list[int]].x` -> `dice.x`)
            field = ".".join(union_path(loc)) or None
        return JSONResponse(error_body(str(first.get("msg")), field), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Routing's own errors (404, 405), in the error shape, with their headers; a 405's `Allow` names every
        method of the path (each route of a path says only its own: `OPTIONS /v1/encounters` said POST alone)."""
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(allowed(request))
        return JSONResponse(error_body(str(exc.detail)), status_code=exc.status_code, headers=headers or None)

    @app.exception_handler(WorkerLost)
    async def _worker_lost(request: Request, exc: WorkerLost) -> JSONResponse:
        body = error_body(f"{exc}; the server has replaced it: try again")
        return JSONResponse(body, status_code=503, headers={"Retry-After": str(RETRY_AFTER)})

    @app.exception_handler(OperationalError)
    async def _store_unavailable(request: Request, exc: OperationalError) -> JSONResponse:
        """The store could not do its part now (SQLite's lock held past its busy timeout by another process, a
        PostgreSQL connection lost). Whether a write landed is not always known (a connection lost at COMMIT
        leaves it open), so the answer does not say nothing was written: the client reads the encounter's seq
        and sends the write again with expected_seq, which a write that did land refuses as stale."""
        body = error_body(STORE_UNAVAILABLE)
        return JSONResponse(body, status_code=503, headers={"Retry-After": str(RETRY_AFTER)})

    @app.exception_handler(MemoryError)
    async def _out_of_memory(request: Request, exc: MemoryError) -> JSONResponse:
        return JSONResponse(error_body(OUT_OF_MEMORY), status_code=422)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover - a bug
        return JSONResponse(error_body(f"internal error: {type(exc).__name__}"), status_code=500)


def allowed(request: Request) -> list[str]:
    """Every method the app's routes take at the request's path (HEAD beside GET, as Starlette serves it)."""
    found: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches({**request.scope, "method": "GET"})
        if match != Match.NONE and isinstance(route, Route) and route.methods:
            found |= set(route.methods)
    return sorted(found)
