"""The picture under the grid: a UVTT map's image, read back from its file, checked before it is decoded.

`picture_bytes` gives the encoded image as the map uses it (cropped to the map's squares when the map keeps
only some); `picture_pixels` decodes it to an RGB(A) array. Nothing is decoded before the image's header says
its size is within `uvtt.MAX_IMAGE_PIXELS` (a decompression bomb is refused on the `image` field); Pillow
is imported only here, only when a picture is decoded.
"""

from __future__ import annotations

import base64
import io
import math
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.errors import InputError
from tohit.core.grid.models import PictureSpec
from tohit.core.grid.uvtt import MAX_IMAGE_PIXELS, ReadBytes, check_image, image_header, read_uvtt_image


def _decode(data: bytes, source: str) -> Any:
    from PIL import Image

    try:
        check_image(data)
    except ValueError as exc:
        raise InputError(str(exc), field="image", source=source) from None
    Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise InputError(f"the image cannot be decoded ({exc})", field="image", source=source) from None
    return image


def _raw(picture: PictureSpec, read_bytes: ReadBytes) -> bytes | None:
    """The encoded image: inline, or read back from its UVTT file (checked as an import checks it)."""
    if picture.image is not None:
        data = base64.b64decode(picture.image)
        try:
            check_image(data)
        except ValueError as exc:
            raise InputError(str(exc), field="map.picture.image") from None
        return data
    assert picture.uvtt is not None
    return read_uvtt_image(Path(picture.uvtt), read_bytes)


def picture_format(data: bytes) -> str:
    """ "png" or "webp", from the image's header."""
    return image_header(data)[0]


def picture_bytes(picture: PictureSpec, width: int, height: int, read_bytes: ReadBytes) -> bytes | None:
    """The image of the map's picture (None: its UVTT file has none), cropped to the map's `width` x `height`
    squares from `picture.offset` when the map keeps only part of the file's map (re-encoded as PNG)."""
    data = _raw(picture, read_bytes)
    if data is None:
        return None
    size = picture.size or (width, height)
    if tuple(picture.offset) == (0, 0) and tuple(size) == (width, height):
        return data
    image = _decode(data, picture.uvtt or "image")
    ppg = picture.pixels_per_grid
    ox, oy = picture.offset
    box = (ox * ppg, oy * ppg, (ox + width) * ppg, (oy + height) * ppg)
    out = io.BytesIO()
    image.crop(box).save(out, format="PNG")
    return out.getvalue()


def picture_pixels(
    picture: PictureSpec, width: int, height: int, read_bytes: ReadBytes
) -> npt.NDArray[np.uint8] | None:
    """The picture decoded (rows of RGB or RGBA pixels) for the map's squares; None when there is no image."""
    data = picture_bytes(picture, width, height, read_bytes)
    if data is None:
        return None
    image = _decode(data, picture.uvtt or "image")
    return np.asarray(image.convert("RGBA"), dtype=np.uint8)


#: The most pixels of the players' picture (`fogged`): a bigger picture is scaled down to about this many.
FOG_PIXELS = 4_000_000


def fogged(data: bytes, dark: npt.NDArray[np.bool_], most: int = FOG_PIXELS) -> bytes:
    """The encoded picture (already checked: the picture route's) with the squares `dark` marks ((height, width)
    over the map's squares, the image stretched over them as the page draws it) painted black, as PNG; scaled down
    to at most `most` pixels when it is bigger (the page stretches it over the map all the same)."""
    from PIL import Image

    image = _decode(data, "image")
    factor = math.ceil((image.width * image.height / most) ** 0.5)
    image = (image.reduce(factor) if factor > 1 else image).convert("RGB")  # a box of factor x factor pixels each
    mask = Image.fromarray(dark.astype(np.uint8) * 255).resize(image.size, Image.Resampling.NEAREST)
    image.paste((0, 0, 0), mask=mask)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()
