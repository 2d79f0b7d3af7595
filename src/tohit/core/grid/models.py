"""Scenario models for the tactical grid: `map`, `combatants`, an attack's `range`, `abstract`.

Positions are `[x, y]` lists: x counts columns from the left, y rows from the top, both from 0; a
combatant's `position` is the top-left square of its footprint.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field, model_validator

from tohit.core.errors import short_repr
from tohit.core.grid.board import MAX_SIDE, Board
from tohit.core.grid.sizes import MIN_COLOSSAL_SIDE, SizeCategory
from tohit.core.grid.squares import DirectionName, direction_name
from tohit.core.grid.walls import wall_array
from tohit.core.models import Model

MAX_RANGE = 100
SquareField = tuple[
    Annotated[int, Field(ge=-MAX_SIDE, le=2 * MAX_SIDE)], Annotated[int, Field(ge=-MAX_SIDE, le=2 * MAX_SIDE)]
]


def _direction(value: Any) -> Any:
    return direction_name(value) if isinstance(value, str) else value


Direction = Annotated[DirectionName, BeforeValidator(_direction)]
RangeSize = Annotated[int, Field(ge=1, le=MAX_RANGE, description="X, in squares.")]


def _rows_as_text(schema: dict[str, Any]) -> None:
    """The JSON Schema of `rows`: a list of strings, or one block of text (split into lines when read)."""
    schema["properties"]["rows"]["anyOf"].insert(1, {"type": "string"})


WallField = tuple[
    Annotated[float, Field(ge=0, le=MAX_SIDE)],
    Annotated[float, Field(ge=0, le=MAX_SIDE)],
    Annotated[float, Field(ge=0, le=MAX_SIDE)],
    Annotated[float, Field(ge=0, le=MAX_SIDE)],
]


class DoorSpec(Model):
    """A door on the map: a segment in grid units; closed, it is a wall."""

    segment: WallField = Field(description="[x0, y0, x1, y1] in grid units (square (x, y) spans x..x+1, y..y+1).")
    closed: bool = Field(default=True, description="A closed door blocks as a wall; an open one does not.")


class PictureSpec(Model):
    """The picture under the grid: the Universal VTT file it is in, and how it sits on the squares."""

    uvtt: str | None = Field(default=None, min_length=1, description="The Universal VTT file holding the image.")
    image: str | None = Field(
        default=None, max_length=28_000_000, description="Or the image itself, base64 (a map uploaded to the web)."
    )
    pixels_per_grid: int = Field(ge=1, le=1024, description="Pixels a square in the image.")
    offset: SquareField = Field(default=(0, 0), description="The image's square drawn at the map's [0, 0].")
    size: SquareField | None = Field(default=None, description="The whole image in squares (before a crop).")

    @model_validator(mode="after")
    def _one_source(self) -> PictureSpec:
        if (self.uvtt is None) == (self.image is None):
            raise ValueError("uvtt: give the picture's UVTT file or its image, one of them")
        return self


_PAIR: dict[str, Any] = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
#: The JSON Schema of a map read from a Universal VTT file (`uvtt.py` reads it into the plain map's fields).
UVTT_MAP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A Universal VTT map (.dd2vtt, .uvtt), its path relative to this file (docs/maps.md).",
    "properties": {
        "uvtt": {"type": "string", "minLength": 1, "description": "The Universal VTT file."},
        "squares": {
            "type": "array",
            "items": _PAIR,
            "minItems": 2,
            "maxItems": 2,
            "description": "Keep only these squares: [[x0, y0], [x1, y1]], first and last, inclusive.",
        },
        "difficult": {"type": "array", "items": _PAIR, "description": "Difficult Terrain squares on top."},
        "solid": {"type": "array", "items": _PAIR, "description": "Solid squares on top."},
    },
    "required": ["uvtt"],
    "additionalProperties": False,
}


#: The JSON Schema of a map given as a file name alone: the same as `{uvtt: FILE}`.
UVTT_NAME_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "A Universal VTT map's file name (.dd2vtt, .uvtt): the same as {uvtt: FILE}.",
}
#: Why a map given as a Universal VTT file is refused where no file is read (the web, the Python API).
UVTT_READ_WITH_FILE = (
    "a Universal VTT map is read from its file when the file naming it is read (tohit map, fight, odds...);"
    " on the web table, choose it beside the fight file"
)


def _map_schema(schema: dict[str, Any]) -> None:
    """The map's JSON Schema: the plain map (text rows, or width, height and squares), or a UVTT file (by
    `{uvtt: FILE}` or its name alone)."""
    _rows_as_text(schema)
    plain = {k: v for k, v in schema.items() if k not in ("title", "description")}
    for key in list(schema):
        if key not in ("title", "description"):
            del schema[key]
    schema["anyOf"] = [plain, UVTT_MAP_SCHEMA, UVTT_NAME_SCHEMA]


class MapSpec(Model):
    """The battlefield: text `rows` (`.` open, `#` solid, `~` Difficult Terrain), or `width`, `height`, `solid`
    and `difficult` squares; with either, `walls` on edges and `doors` (segments in grid units). A Universal VTT
    map (`{uvtt: FILE}`, or `FILE` alone) is read into these fields when the file naming it is read (`uvtt.py`)."""

    rows: list[str] | None = Field(
        default=None, description="One string per row: '.' open, '#' solid, '~' Difficult Terrain."
    )
    width: int | None = Field(default=None, ge=1, le=MAX_SIDE, description="Squares from left to right.")
    height: int | None = Field(default=None, ge=1, le=MAX_SIDE, description="Squares from top to bottom.")
    solid: list[SquareField] = Field(default_factory=list, description="Solid squares [x, y] (with width).")
    difficult: list[SquareField] = Field(
        default_factory=list, description="Difficult Terrain squares [x, y] (with width): entering costs more."
    )

    walls: list[WallField] = Field(
        default_factory=list, description="Walls on edges: segments [x0, y0, x1, y1] in grid units."
    )
    doors: list[DoorSpec] = Field(default_factory=list, description="Doors: a closed door is a wall.")
    picture: PictureSpec | None = Field(default=None, description="The picture under the grid (from a UVTT map).")

    model_config = ConfigDict(json_schema_extra=lambda schema: _map_schema(schema))

    @model_validator(mode="before")
    @classmethod
    def _split_text(cls, data: Any) -> Any:
        if isinstance(data, dict) and "uvtt" in data:
            raise ValueError(f"uvtt: {UVTT_READ_WITH_FILE}")
        if isinstance(data, str):
            raise ValueError(
                f"{short_repr(data)} names a file: a map given as a file name is a Universal VTT map, the same as"
                f" {{uvtt: {short_repr(data)}}}; {UVTT_READ_WITH_FILE}"
            )
        if isinstance(data, dict) and isinstance(data.get("rows"), str):
            data = {**data, "rows": [r.strip() for r in data["rows"].strip().splitlines() if r.strip()]}
        return data

    @model_validator(mode="after")
    def _one_form(self) -> MapSpec:
        if self.rows is not None:
            if self.width is not None or self.height is not None or self.solid or self.difficult:
                raise ValueError("rows: give either rows, or width, height and solid, not both")
            if len(self.rows) > MAX_SIDE or any(len(r) > MAX_SIDE for r in self.rows):
                raise ValueError(f"rows: a map is at most {MAX_SIDE} squares a side")
            try:
                board = Board.from_rows(self.rows)
            except ValueError as exc:
                raise ValueError(f"rows: {exc}") from None
            self._walls_on(board.width, board.height)
            return self
        if self.width is None or self.height is None:
            raise ValueError("rows: give rows, or width and height (and solid squares)")
        for i, (x, y) in enumerate(self.solid):
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise ValueError(f"solid[{i}]: square {[x, y]} is off the {self.width} x {self.height} map")
        for i, (x, y) in enumerate(self.difficult):
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise ValueError(f"difficult[{i}]: square {[x, y]} is off the {self.width} x {self.height} map")
        self._walls_on(self.width, self.height)
        return self

    def _walls_on(self, width: int, height: int) -> None:
        segments = [(f"walls[{i}]", w) for i, w in enumerate(self.walls)]
        segments += [(f"doors[{i}].segment", d.segment) for i, d in enumerate(self.doors)]
        for where, (x0, y0, x1, y1) in segments:
            if max(x0, x1) > width or max(y0, y1) > height:
                raise ValueError(f"{where}: {[x0, y0, x1, y1]} runs off the {width} x {height} map")

    def wall_segments(self) -> list[tuple[float, float, float, float]]:
        """The walls and the closed doors, in grid units."""
        return [*self.walls, *(d.segment for d in self.doors if d.closed)]

    def board(self) -> Board:
        if self.rows is not None:
            board = Board.from_rows(self.rows)
        else:
            assert self.width is not None and self.height is not None
            board = Board.from_solid(self.width, self.height, self.solid, self.difficult)
        segments = self.wall_segments()
        return board.with_walls(wall_array(segments)) if segments else board


class CombatantSpec(Model):
    """A creature on the map: its `side`, the top-left square of its footprint, its size."""

    name: str = Field(min_length=1, description="Unique name; targets and the attacker refer to it.")
    side: str = Field(min_length=1, description="Creatures on the same side are allies; others are foes.")
    position: SquareField = Field(description="[x, y] of the footprint's top-left square.")
    size: SizeCategory | Annotated[float, Field(gt=0, le=10_000)] = Field(
        default="medium", description="A size category (diminutive ... colossal) or a height in feet."
    )
    squares: int | None = Field(
        default=None,
        ge=MIN_COLOSSAL_SIDE,
        le=MAX_SIDE,
        description="Side of a Colossal creature's footprint when larger than 6.",
    )
    swarm: bool = Field(default=False, description="A Swarm: an 'X targets' attack may affect it once per square.")

    @model_validator(mode="before")
    @classmethod
    def _lower_size(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("size"), str):
            data = {**data, "size": data["size"].strip().lower()}
        return data


class BlastRange(Model):
    """Blast X: an X-by-X square with a side or corner touching the user."""

    type: Literal["blast"]
    size: RangeSize
    at: SquareField | None = Field(default=None, description="Top-left square of the Blast (it must touch the user).")


class BurstRange(Model):
    """Burst X: the ring X squares deep around the user."""

    type: Literal["burst"]
    size: RangeSize


class ConeRange(Model):
    """Cone X in one of 8 directions."""

    type: Literal["cone"]
    size: RangeSize
    direction: Direction | None = Field(default=None, description="north, northeast, east, ... (or n, ne, e, ...).")
    origin: SquareField | None = Field(default=None, description="Footprint square it starts from (large users).")


class LineRange(Model):
    """Line X in one of 8 directions, through creatures, stopped by solid squares."""

    type: Literal["line"]
    size: RangeSize
    direction: Direction | None = Field(default=None, description="north, northeast, east, ... (or n, ne, e, ...).")
    origin: SquareField | None = Field(default=None, description="Footprint square it starts from (large users).")


class MeleeRange(Model):
    """Melee: one target adjacent to the user."""

    type: Literal["melee"]
    target: str | None = Field(default=None, description="The creature attacked.")


class ProjectileRange(Model):
    """Projectile X: one target up to X squares away with a clear path."""

    type: Literal["projectile"]
    size: RangeSize
    target: str | None = Field(default=None, description="The creature attacked.")


class SweepRange(Model):
    """Sweep X: X squares adjacent to the user, each cardinally adjacent to the next."""

    type: Literal["sweep"]
    size: RangeSize
    squares: list[SquareField] | None = Field(default=None, description="The swept squares, in order.")


class TargetsWithinRange(Model):
    """X Targets within Y Squares."""

    type: Literal["targets_within"]
    count: RangeSize = Field(description="X: how many targets.")
    within: RangeSize = Field(description="Y: how far (1-2-1) from the user.")
    targets: list[str] | None = Field(default=None, description="The creatures chosen.")


class SquaresWithinRange(Model):
    """X Squares within Y Squares."""

    type: Literal["squares_within"]
    count: RangeSize = Field(description="X: how many squares.")
    within: RangeSize = Field(description="Y: how far (1-2-1) from the user.")
    squares: list[SquareField] | None = Field(default=None, description="The squares chosen.")


PlainRange = Annotated[
    BlastRange
    | BurstRange
    | ConeRange
    | LineRange
    | MeleeRange
    | ProjectileRange
    | SweepRange
    | TargetsWithinRange
    | SquaresWithinRange,
    Field(discriminator="type"),
]


class BasicAttackRange(Model):
    """One Basic Attack the weapon can make, and its range."""

    name: str = Field(min_length=1)
    range: PlainRange


class WeaponRange(Model):
    """Weapon: the range of the weapon's Basic Attack; the attacker picks one when there are several."""

    type: Literal["weapon"]
    basic_attacks: list[BasicAttackRange] = Field(min_length=1, description="The weapon's Basic Attacks.")
    use: str | None = Field(default=None, description="Which Basic Attack's range (by name).")

    @model_validator(mode="after")
    def _known(self) -> WeaponRange:
        names = [b.name for b in self.basic_attacks]
        if self.use is not None and self.use not in names:
            raise ValueError(f"use: no Basic Attack named {short_repr(self.use)}; the weapon has {', '.join(names)}")
        return self

    def chosen(self) -> BasicAttackRange:
        if self.use is None:
            return self.basic_attacks[0]
        return next(b for b in self.basic_attacks if b.name == self.use)


AnyRange = (
    BlastRange
    | BurstRange
    | ConeRange
    | LineRange
    | MeleeRange
    | ProjectileRange
    | SweepRange
    | TargetsWithinRange
    | SquaresWithinRange
    | WeaponRange
)
#: The same union, read by its `type` field (one clear error naming the unknown range type).
Range = Annotated[AnyRange, Field(discriminator="type")]


class AbstractSpec(Model):
    """Abstract combat (no map): the page's target counts apply."""

    close_together: bool = Field(
        default=False, description="All targeted foes stand within arm's reach of one another: one more target."
    )
    isolated: list[str] = Field(
        default_factory=list, description="Foes that cannot share an attack with others (balcony, cover...)."
    )
