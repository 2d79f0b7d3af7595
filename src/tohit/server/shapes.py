"""The API's shapes: an error (`ApiError` and its JSON body, `{"error": {"source", "field", "message"}}`), the
request bodies, and exact values (fractions) as the CLI's `--json` gives them."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import BaseModel, Field

from tohit.core.exact_text import fraction_json
from tohit.core.loader import parse_document
from tohit.engine.requests import MAX_SEED
from tohit.server import examples


class ApiError(Exception):
    """An answer that is an error: its status and the error body's field and message."""

    def __init__(self, status: int, message: str, field: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.field, self.extra = status, message, field, extra


def error_body(message: str, field: str | None = None, source: str | None = None) -> dict[str, Any]:
    return {"error": {"source": source, "field": field, "message": message}}


def _exact(value: Any) -> Any:
    """Fractions (at any depth) as the CLI's JSON gives them."""
    if isinstance(value, Fraction):
        return fraction_json(value)
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_exact(v) for v in value]
    return value


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
        (404, "no such encounter"),
        (409, "a stale expected_seq: another write came first"),
        (422, "bad input, or over a cap: the field named"),
    )
}


# -- request bodies ------------------------------------------------------------------------------------------
class ScenarioBody(BaseModel):
    """A scenario file as JSON, and the options of the command."""

    scenario: dict[str, Any] = Field(description="A scenario file's content (`tohit schema SYSTEM`).")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)
    n: int | None = Field(default=None, ge=1, description="simulate: attacks per target; aim: placements shown.")
    depth: int | None = Field(default=None, ge=0, le=40)


class FightBody(BaseModel):
    """A fight file as JSON."""

    fight: dict[str, Any] = Field(description="A fight file's content (see docs/fights.md).")
    n: int | None = Field(default=None, ge=1)
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)


class CreateBody(BaseModel):
    """A fight given one of three ways: as JSON (`fight`), as the text of a YAML or JSON file (`text`, read as the
    CLI reads a file, `name` naming it in errors), or as a bundled example (`example`, an id of /v1/examples)."""

    name: str | None = Field(default=None, max_length=200)
    fight: dict[str, Any] | None = None
    text: str | None = Field(default=None, description="A fight file's text (YAML or JSON).")
    example: str | None = Field(default=None, max_length=200, description="An example's id (GET /v1/examples).")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)


class UndoBody(BaseModel):
    expected_seq: int | None = Field(default=None, ge=0)


class PreviewBody(BaseModel):
    attacker: str
    attack: str | None = None
    targets: list[str]


class DiceBody(PreviewBody):
    """The dice of an attack; with `dice` (the faces typed so far, role -> faces), also the roles still needed."""

    dice: dict[str, list[int]] | None = None


class MapBody(BaseModel):
    """An attack on an encounter's map, placed by its range's fields (e.g. `at`, `direction`, `target`)."""

    attacker: str
    attack: str | None = None
    placement: dict[str, Any] | None = None
    n: int | None = Field(default=None, ge=1, le=20, description="aim: placements shown (default 5).")


def fight_of(body: CreateBody) -> tuple[str, dict[str, Any]]:
    """The name and fight mapping of a create body (exactly one of fight, text, example)."""
    given = [k for k in ("fight", "text", "example") if getattr(body, k) is not None]
    if len(given) != 1:
        raise ApiError(422, "give exactly one of fight, text or example", "fight")
    if body.example is not None:
        name, fight = examples.example(body.example)
        return body.name or name, fight
    name = body.name or "encounter"
    if body.text is not None:
        suffix = name.lower().rsplit(".", 1)[-1]
        return name, parse_document(body.text, source=name, json_only=suffix == "json")
    assert body.fight is not None
    return name, body.fight
