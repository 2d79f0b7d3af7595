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
from tohit.engine.requests import MAX_SEED

#: The stateless routes whose answer is a CLI output, and the output's kind.
OUTPUTS = {
    "/v1/roll": "roll",
    "/v1/odds": "odds",
    "/v1/simulate": "simulate",
    "/v1/fights/simulate": "fights",
    "/v1/fights/exact": "exact",
}


#: The request bodies' fields that hold a game's file (component, field), and the file's kind.
FILES = {("ScenarioBody", "scenario"): "scenario", ("FightBody", "fight"): "fight", ("CreateBody", "fight"): "fight"}


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


def file_schema(system_id: str, kind: str) -> dict[str, Any]:
    """The JSON Schema of one game's `kind` file ("scenario" or "fight")."""
    from tohit.core.fight.contract import rules_for
    from tohit.core.fight.spec import fight_schema

    system = registry.get(system_id)
    found: dict[str, Any] = system.scenario_schema() if kind == "scenario" else fight_schema(system, rules_for(system))
    return found


def envelope(kind: str) -> dict[str, Any]:
    """What every game requires of a `kind` file, as JSON Schema: each key that every game's schema requires, with
    the type (and an array's least length) they all give it, `system` one of the games' ids. So the document
    refuses what the server refuses for want of them (`{"scenario": {}}`); the rest of a file is its game's
    own schema (GET /v1/systems/{id}/schema), checked by the server: a 422 naming the field."""
    schemas = [file_schema(system_id, kind) for system_id in registry.systems()]
    required = [k for k in schemas[0].get("required", []) if all(k in s.get("required", []) for s in schemas)]
    properties: dict[str, Any] = {}
    for key in required:
        parts = [_resolved(s, s["properties"][key]) for s in schemas]
        properties[key] = {}
        for word in ("type", "minItems"):
            values = [p.get(word) for p in parts]
            if values[0] is not None and all(v == values[0] for v in values):
                properties[key][word] = values[0]
    properties["system"] = {"type": "string", "enum": list(registry.systems()), "description": "The game's id."}
    return {"type": "object", "required": required, "properties": properties}


def _resolved(schema: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """`part` of `schema`, its `$ref` (to the schema's own `$defs`) followed."""
    ref = part.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found: dict[str, Any] = schema["$defs"][ref.rsplit("/", 1)[-1]]
        return found
    return part


def with_envelopes(doc: dict[str, Any]) -> None:
    """The bodies' file fields (FILES) described by their `envelope`, where the models say only "an object"."""
    components = doc.get("components", {}).get("schemas", {})
    made: dict[str, dict[str, Any]] = {}
    for (name, field), kind in FILES.items():
        prop = components.get(name, {}).get("properties", {}).get(field)
        if prop is None:
            continue
        made[kind] = made.get(kind) or envelope(kind)
        for i, part in enumerate(prop.get("anyOf", [])):  # optional: the object of `object | null`
            if part.get("type") == "object":
                prop["anyOf"][i] = made[kind]
        if prop.get("type") == "object":
            prop.update(made[kind])


def exact_bounds(schema: Any) -> None:
    """An integer's bounds as integers: FastAPI writes them as floats (`minimum: 1.0`), and the seed's top,
    2**128 - 1, rounds up to 2**128 as a float, a seed the server refuses; it is written exactly here."""
    if isinstance(schema, list):
        for part in schema:
            exact_bounds(part)
        return
    if not isinstance(schema, dict):
        return
    for word in ("minimum", "maximum"):
        bound = schema.get(word)
        if schema.get("type") == "integer" and isinstance(bound, float) and bound.is_integer():
            schema[word] = MAX_SEED if bound == float(MAX_SEED) else int(bound)
    for part in schema.values():
        exact_bounds(part)


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
    with_envelopes(doc)
    exact_bounds(doc)
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
