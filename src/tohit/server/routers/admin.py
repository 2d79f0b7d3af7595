"""The admin's routes: the list of every encounter, a page at a time."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from tohit.server import answers
from tohit.server.answers import ok
from tohit.server.authorization import State, administrator
from tohit.server.errors import ERRORS
from tohit.server.limits import LIST_PAGE
from tohit.server.state import ServerState
from tohit.store.db import StoredEncounter

#: The app answers errors in one shape: each route documents them (server/errors.py).
router = APIRouter(responses=ERRORS)


def listed(state: ServerState, row: StoredEncounter) -> dict[str, Any]:
    """One encounter as the list shows it."""
    enc = state.load(row)
    return {
        "id": row.id,
        "name": row.name,
        "system": row.system,
        "seq": enc.seq,
        "round": enc.state_json()["fight"].get("round"),
        "standing": enc.standing(),
        "over": enc.over,
    }


@router.get("/v1/encounters", dependencies=[Depends(administrator)], **ok(list[answers.Listed]))
async def list_encounters(
    request: Request,
    response: Response,
    state: State,
    limit: int = Query(default=50, ge=1, le=LIST_PAGE, description="Encounters on this page (the newest first)."),
    offset: int = Query(default=0, ge=0, le=2**31 - 1, description="Encounters skipped before this page."),
) -> list[dict[str, Any]]:
    """The encounters (the admin token), a page at a time, the newest first: each one's system, seq, round
    (where the game counts rounds), who is standing and whether it is over; `X-Total-Count` says how many there
    are in all. The admin token also acts as the GM of every encounter. Within the request's deadline (it
    reads the page's encounters)."""

    def page() -> tuple[list[dict[str, Any]], int]:
        store = state.the_store()
        return [listed(state, r) for r, _ in store.all(offset, limit)], store.count()

    found, total = await state.work("encounter", request, page)
    response.headers["X-Total-Count"] = str(total)
    return found
