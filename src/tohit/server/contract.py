"""The OpenAPI document describes the API as it answers: the encounter routes take a bearer
token (a security scheme, not a header parameter, which OpenAPI ignores for `Authorization`), the stateless
routes answer with the JSON Schemas of the CLI's `--json` (one per system, `tohit schema SYSTEM --output
KIND`), and a stream is `text/event-stream`."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from tohit.engine import registry
from tohit.engine.output_schemas import output_schema

#: The stateless routes whose answer is a CLI output, and the output's kind.
OUTPUTS = {
    "/v1/roll": "roll",
    "/v1/odds": "odds",
    "/v1/simulate": "simulate",
    "/v1/fights/simulate": "fights",
    "/v1/fights/exact": "exact",
}


class SystemInfo(BaseModel):
    """A rule system, as `tohit systems --json` lists it."""

    id: str
    title: str
    summary: str
    page: str


BEARER = {
    "type": "http",
    "scheme": "bearer",
    "description": "An encounter's GM or view token (shown once, at its creation), or the admin token.",
}


def answer_schema(kind: str) -> dict[str, Any]:
    """What a route that answers with `kind`'s output answers: one system's output schema, of any system."""
    schemas = []
    for system in registry.systems().values():
        found = output_schema(system, kind)
        found.pop("$schema", None)
        schemas.append(found)
    return {"anyOf": schemas} if len(schemas) > 1 else schemas[0]


def document(app: FastAPI) -> dict[str, Any]:
    """FastAPI's OpenAPI document of `app`, completed as above."""
    doc = get_openapi(
        title=app.title,
        version=app.version,
        openapi_version=app.openapi_version,
        description=app.description,
        routes=app.routes,
    )
    doc.setdefault("components", {}).setdefault("securitySchemes", {})["bearer"] = BEARER
    for path, operations in doc.get("paths", {}).items():
        for operation in operations.values():
            parameters = operation.get("parameters", [])
            kept = [p for p in parameters if not (p.get("in") == "header" and p["name"].lower() == "authorization")]
            if len(kept) != len(parameters):
                operation["security"] = [{"bearer": []}]
                if kept:
                    operation["parameters"] = kept
                else:
                    operation.pop("parameters")
            ok = operation.get("responses", {}).get("200")
            if ok is None:
                continue
            if path in OUTPUTS:
                ok["content"] = {"application/json": {"schema": answer_schema(OUTPUTS[path])}}
            elif path.endswith("/stream"):
                ok["content"] = {"text/event-stream": {"schema": {"type": "string"}}}
                ok["description"] = "Server-Sent Events: each event's `id` is its seq, its `event` its kind."
    return doc


def describe(app: FastAPI) -> None:
    """`app.openapi` gives `document(app)` (built once)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
