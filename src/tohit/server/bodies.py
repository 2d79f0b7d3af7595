"""The request bodies of `tohit serve`'s routes (an action's is the engine's union, engine/actions.py): read
strictly (`true` is not a number), names capped in length, and a fight given one of three
ways."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from tohit.core.loader import parse_document
from tohit.engine.actions import Index, Name, Seed, Whole, integral
from tohit.server import examples, pictures
from tohit.server.errors import ApiError

#: A count (attacks, fights, placements): a whole number from 1 (4.0 is 4: engine/actions.py `Whole`).
Count = Annotated[int, Field(ge=1), BeforeValidator(integral)]
#: Placements an encounter's aim shows.
Placements = Annotated[int, Field(ge=1, le=20), BeforeValidator(integral)]


class StrictBody(BaseModel):
    """A request body, read strictly: `true` is not a number, `"3"` not an integer; 4.0 is 4, as JSON Schema
    counts it (engine/actions.py `Whole`)."""

    model_config = ConfigDict(strict=True)


class ScenarioBody(StrictBody):
    """A scenario file as JSON, and the options of the command."""

    scenario: dict[str, Any] = Field(description="A scenario file's content (`tohit schema SYSTEM`).")
    seed: Seed | None = None
    n: Count | None = Field(default=None, description="simulate: attacks per target; aim: placements shown.")
    depth: Annotated[int, Field(ge=0, le=40), BeforeValidator(integral)] | None = None


class FightBody(StrictBody):
    """A fight file as JSON."""

    fight: dict[str, Any] = Field(description="A fight file's content (see docs/fights.md).")
    n: Count | None = None
    seed: Seed | None = None


class CreateBody(StrictBody):
    """A fight given one of three ways: as JSON (`fight`), as the text of a YAML or JSON file (`text`, read as the
    CLI reads a file, `name` naming it in errors), or as a bundled example (`example`, an id of /v1/examples)."""

    name: str | None = Field(default=None, max_length=200)
    fight: dict[str, Any] | None = None
    text: str | None = Field(default=None, description="A fight file's text (YAML or JSON).")
    example: str | None = Field(default=None, max_length=200, description="An example's id (GET /v1/examples).")
    seed: Seed | None = None
    keep_seed: bool = Field(
        default=False,
        description="Keep the fight file's own `seed:` (else the server draws fresh dice: a public file's seed would"
        " let anyone who has it predict every roll).",
    )
    uvtt: dict[str, Any] | None = Field(default=None, description="A Universal VTT map (its JSON): the fight's map.")


#: A seq to read after: -1 (from the start) up to the largest seq a store holds (a 422 naming `after` past it).
After = Annotated[int, Query(ge=-1, le=2**31 - 1, description="The seq to read after (-1: from the start).")]


class UndoBody(StrictBody):
    expected_seq: Index | None = None


class PreviewBody(StrictBody):
    attacker: Name
    attack: Name | None = None
    #: Counted and measured by the route (server/limits.py `count_preview`: the preview's own caps, named).
    targets: list[str]
    placement: str | None = Field(default=None, max_length=200, description="an attack on a map: its placement.")


class DiceBody(PreviewBody):
    """The dice of an attack; with `dice` (the faces typed so far: role -> faces, or per target name a set of
    role -> faces), also the roles still needed."""

    dice: dict[str, list[Whole]] | dict[str, dict[str, list[Whole]]] | None = None


class MapBody(StrictBody):
    """An attack on an encounter's map, placed by its range's fields (e.g. `at`, `direction`, `target`)."""

    attacker: Name
    attack: Name | None = None
    placement: dict[str, Any] | None = None
    n: Placements | None = Field(default=None, description="aim: placements shown (default 5).")


class MeasureBody(StrictBody):
    """Two squares [x, y] of an encounter's map: the ruler's ends."""

    start: list[Whole] = Field(alias="from", min_length=2, max_length=2, description="The square [x, y] it starts at.")
    to: list[Whole] = Field(min_length=2, max_length=2, description="The square [x, y] it ends at.")


def fight_of(body: CreateBody, max_pixels: int) -> tuple[str, dict[str, Any]]:
    """The name and fight mapping of a create body (exactly one of fight, text, example), with its `uvtt` map
    when one is given; a map naming a file on the server is refused (`pictures.no_files`), and so is a picture
    over `max_pixels` (`pictures.check_pixels`)."""
    given = [k for k in ("fight", "text", "example") if getattr(body, k) is not None]
    if len(given) != 1:
        raise ApiError(422, "give exactly one of fight, text or example", "fight")
    if body.example is not None:
        name, fight = examples.example(body.example)
        name = body.name or name
    elif body.text is not None:
        name = body.name or "encounter"
        fight = parse_document(body.text, source=name, json_only=name.lower().rsplit(".", 1)[-1] == "json")
    else:
        assert body.fight is not None
        name, fight = body.name or "encounter", body.fight
    # The uploaded map replaces the fight's; without one, the fight's own map may name no file.
    fight = pictures.no_files(fight) if body.uvtt is None else pictures.with_uvtt(fight, body.uvtt)
    return name, pictures.check_pixels(fight, max_pixels)
