"""The live stream of an encounter's events (Server-Sent Events), for the pages that follow it."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from tohit.server.authorization import Reader, State
from tohit.server.bodies import After
from tohit.server.errors import ERRORS, ApiError

#: The app answers errors in one shape: each route documents them (server/errors.py).
router = APIRouter(responses=ERRORS)


@router.get("/v1/encounters/{encounter_id}/stream")
async def stream(encounter_id: str, access: Reader, state: State, after: After | None = None) -> StreamingResponse:
    """New events as Server-Sent Events, for live views (the view token is enough): checked against the token
    before each read, within the stream's lifetime and the cap on streams per encounter (server/streams.py)."""
    start = state.the_store().last_seq(encounter_id) if after is None else after
    state.streams.admit(encounter_id)

    def ended() -> str | None:
        """Why the stream ends now (None: it goes on)."""
        now = state.the_store().get(encounter_id)
        if now is None:
            return "the encounter was deleted"
        try:
            return None if state.role(now, access.authorization) == access.role else "this token's role changed"
        except ApiError:
            return "this token no longer opens the encounter"

    feed = state.streams.feed(access.row, start, ended, None if access.role == "gm" else state.load, access.own)
    return StreamingResponse(feed, media_type="text/event-stream")
