"""The picture under an encounter's map."""

from __future__ import annotations

import functools

from fastapi import APIRouter, Request
from fastapi.responses import Response

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
    that come while it is being made wait for that one making."""
    row = access.row
    made = functools.partial(state.work, "picture", request, pictures.picture, row.fight, state.settings.max_pixels)
    found = await state.pictures.of(row.id, made)
    if found is None:
        raise ApiError(404, "this encounter's map has no picture", "map")
    return Response(found[0], media_type=found[1])
