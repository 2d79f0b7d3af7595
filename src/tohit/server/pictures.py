"""A Universal VTT map for an encounter: the upload that gives a fight its map, and the picture under
the grid served to the page.

- `with_uvtt(fight, uvtt)`: the fight mapping with its `map` read from an uploaded UVTT mapping (walls, doors,
  the image inline); a bad map is an InputError naming `uvtt.<field>` (a 422), and nothing is created.
- `picture(fight)`: the encoded image of the fight's map (PNG or WebP, cropped to the map's squares), with its
  media type; a 404 when the map has no picture.
"""

from __future__ import annotations

from typing import Any

from tohit.core.errors import InputError
from tohit.core.grid.models import MapSpec
from tohit.core.grid.picture import picture_bytes, picture_format
from tohit.core.grid.uvtt import inline_map_fields
from tohit.core.loader import read_text


def with_uvtt(fight: dict[str, Any], uvtt: dict[str, Any]) -> dict[str, Any]:
    """The fight with the uploaded UVTT map as its `map` (replacing any the file gave)."""
    try:
        found = inline_map_fields(uvtt)
    except InputError as exc:
        raise exc.located(field_prefix="uvtt") from None
    return {**fight, "map": found}


def picture(fight: dict[str, Any]) -> tuple[bytes, str] | None:
    """The image under the fight's map and its media type (None: no picture)."""
    given = fight.get("map")
    if not isinstance(given, dict) or not given.get("picture"):
        return None
    spec = MapSpec.model_validate(given)
    if spec.picture is None:
        return None
    board = spec.board()
    data = picture_bytes(spec.picture, board.width, board.height, read_text)
    if data is None:
        return None
    return data, f"image/{picture_format(data)}"
