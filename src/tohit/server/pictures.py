"""A Universal VTT map for an encounter: the upload that gives a fight its map, and the picture under
the grid served to the page.

- `with_uvtt(fight, uvtt)`: the fight mapping with its `map` read from an uploaded UVTT mapping (walls, doors,
  the image inline); a bad map is an InputError naming `uvtt.<field>` (a 422), and nothing is created. An
  `image` that is a file name (as the Foundry-to-UVTT script writes) is refused on `uvtt.image`: nothing a
  client sends names a file on the server.
- `no_files(fight)`: a fight a client sent refused (a 422 naming `map.picture.uvtt`) when its map's picture
  names a UVTT file: only the command line reads files.
- `picture(fight)`: the encoded image of the fight's map (PNG or WebP, cropped to the map's squares), with its
  media type; a 404 when the map has no picture.
- `Made`: each encounter's picture made once (in the pool's "picture" lane, within the deadline) and kept.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
from collections.abc import Awaitable, Callable
from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.core.grid.models import MapSpec
from tohit.core.grid.picture import picture_bytes, picture_format
from tohit.core.grid.uvtt import MAX_IMAGE_PIXELS, image_header, inline_map_fields
from tohit.core.loader import read_bytes
from tohit.server import limits
from tohit.server.cache import Lru

#: Characters of a picture's base64 read for its header (a PNG's or a WebP's size lies in its first 30 bytes).
HEADER_CHARACTERS = 64
#: A picture as made: its encoded image and media type, or None (the map has none).
Picture = tuple[bytes, str] | None


def with_uvtt(fight: dict[str, Any], uvtt: dict[str, Any]) -> dict[str, Any]:
    """The fight with the uploaded UVTT map as its `map` (replacing any the file gave)."""
    try:
        found = inline_map_fields(uvtt)
    except InputError as exc:
        raise exc.located(field_prefix="uvtt") from None
    return {**fight, "map": found}


def no_files(fight: dict[str, Any]) -> dict[str, Any]:
    """The fight, refused when its map's picture names a file (`picture.uvtt`): over HTTP the picture comes
    inline, from an uploaded map (`with_uvtt`)."""
    given = fight.get("map")
    found = given.get("picture") if isinstance(given, dict) else None
    if isinstance(found, dict) and found.get("uvtt") is not None:
        raise InputError(
            f"names a file ({short_repr(found['uvtt'])}); nothing a client sends names a file on the server:"
            " send the Universal VTT map itself as `uvtt`",
            field="map.picture.uvtt",
        )
    return fight


def check_pixels(fight: dict[str, Any], limit: int) -> dict[str, Any]:
    """The fight, refused (a 422 naming `map.picture.image` and --max-pixels) when its map's picture is over `limit`
    pixels: its size read from the image's header (the first bytes of its base64), nothing decoded. A picture
    whose header cannot be read is left to the map's own checks."""
    given = fight.get("map")
    found = given.get("picture") if isinstance(given, dict) else None
    image = found.get("image") if isinstance(found, dict) else None
    if not isinstance(image, str):
        return fight
    try:
        _, width, height = image_header(base64.b64decode(image[:HEADER_CHARACTERS]))
    except (ValueError, binascii.Error):
        return fight
    if width * height > limit:
        raise limits.over(f"the picture, {width:,} x {height:,} pixels:", width * height, "max-pixels", limit,
                          "map.picture.image")  # fmt: skip
    return fight


def picture(fight: dict[str, Any], max_pixels: int = MAX_IMAGE_PIXELS) -> tuple[bytes, str] | None:
    """The image under the fight's map and its media type (None: no picture), within `max_pixels`."""
    check_pixels(fight, max_pixels)
    given = fight.get("map")
    if not isinstance(given, dict) or not given.get("picture"):
        return None
    spec = MapSpec.model_validate(given)
    if spec.picture is None:
        return None
    if spec.picture.uvtt is not None:  # never from a client (`no_files`): a file on the server's side only
        raise InputError("the picture names a file: the server reads none", field="map.picture.uvtt")
    board = spec.board()
    data = picture_bytes(spec.picture, board.width, board.height, read_bytes)
    if data is None:
        return None
    return data, f"image/{picture_format(data)}"


class Made:
    """Pictures made once per encounter and kept (the last `size`): a later GET reads what was made, and GETs that
    come while one is being made wait for that one making (no picture is made twice at once)."""

    def __init__(self, size: int) -> None:
        self.kept: Lru[str, tuple[Picture]] = Lru(size)
        self.making: dict[str, asyncio.Future[Picture]] = {}

    async def of(self, key: str, make: Callable[[], Awaitable[Picture]]) -> Picture:
        """The picture kept for `key`, else the one being made for it, else made now by `make`."""
        found = self.kept.get(key)
        if found is not None:
            return found[0]
        pending = self.making.get(key)
        if pending is None:
            pending = self.making[key] = asyncio.ensure_future(self._make(key, make))
            pending.add_done_callback(lambda _: self.making.pop(key, None))
        return await asyncio.shield(pending)

    async def _make(self, key: str, make: Callable[[], Awaitable[Picture]]) -> Picture:
        made = await make()
        self.kept[key] = (made,)
        return made
