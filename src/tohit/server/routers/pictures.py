"""The picture under an encounter's map."""

from __future__ import annotations

import functools
import hashlib

import numpy as np
import numpy.typing as npt
from fastapi import APIRouter, Request
from fastapi.responses import Response

from tohit.core.grid.picture import fogged
from tohit.engine.vision import vision
from tohit.server import answers, pictures
from tohit.server.authorization import Reader, State
from tohit.server.errors import ERRORS, ApiError

#: The app answers errors in one shape: each route documents them (server/errors.py).
router = APIRouter(responses=ERRORS)


@router.get("/v1/encounters/{encounter_id}/picture", response_class=Response, responses=answers.PICTURE)
async def picture(encounter_id: str, request: Request, access: Reader, state: State) -> Response:
    """The picture under the encounter's map (its UVTT map's image, PNG or WebP); 404 when it has none. Made
    once per encounter (its size checked from the image's header before anything is decoded, any decoding in
    the pool's "picture" lane within the deadline), then kept: a later GET is a read of what was made, and GETs
    that come while it is being made wait for that one making. The players' picture (any token but the GM's) has
    the squares their characters never saw painted black, made once per explored set and kept alike."""
    row = access.row
    made = functools.partial(state.work, "picture", request, pictures.picture, row.fight, state.settings.max_pixels)
    found = await state.pictures.of(row.id, made)
    if found is None:
        raise ApiError(404, "this encounter's map has no picture", "map")
    if access.role != "gm":  # the players': the squares never seen black (docs/maps.md, "Vision")
        dark = await state.work("encounter", request, lambda: ~vision(state.load(row)).explored)
        key = f"{row.id}/fog/{hashlib.sha256(np.packbits(dark).tobytes()).hexdigest()[:32]}"
        fog = functools.partial(state.work, "picture", request, _fogged, found[0], dark)
        found = await state.pictures.of(key, fog)
        assert found is not None
    return Response(found[0], media_type=found[1])


def _fogged(data: bytes, dark: npt.NDArray[np.bool_]) -> tuple[bytes, str]:
    return fogged(data, dark), "image/png"
