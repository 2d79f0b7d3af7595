"""The players' links (server/player_links.py; docs/fights.md, "A link per player"): the GM makes one for a
combatant of the players' side, lists them, replaces one (made again) and revokes one. Each change ends the streams
its old token opened."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request

from tohit.server import answers
from tohit.server.answers import ok
from tohit.server.authorization import GameMaster, State
from tohit.server.errors import ERRORS
from tohit.server.player_links import PlayerBody, listed, new_link, revoked
from tohit.store.db import PlayerLink

#: The app answers errors in one shape: each route documents them (server/errors.py).
router = APIRouter(responses=ERRORS)


async def _kept(state: State, encounter_id: str, link: PlayerLink) -> None:
    """The link stored; the row kept in memory forgotten (it holds the old links) and the streams told."""
    await asyncio.to_thread(state.the_store().set_player_link, encounter_id, link)
    state.rows.pop(encounter_id, None)
    state.fanout.poke(encounter_id)  # its streams check their tokens again


@router.post("/v1/encounters/{encounter_id}/player_token", **ok(answers.PlayerToken, 201))
async def new_player_token(
    encounter_id: str, body: PlayerBody, request: Request, row: GameMaster, state: State
) -> dict[str, str]:
    """A player's link for `combatant` (the GM): it reads what the view token reads plus every number of its
    combatant, and plays that combatant's turn. Made again, it replaces the combatant's old link. Refused (422,
    field `combatant`) for a combatant not in the fight, one that has left it, or one not on the players' side."""
    enc = await state.work("encounter", request, state.load, row)
    token, link = new_link(enc, row, body.combatant)
    await _kept(state, encounter_id, link)
    return {"combatant": body.combatant, "player_token": token}


@router.get("/v1/encounters/{encounter_id}/player_tokens", **ok(answers.PlayerTokens))
async def player_tokens(encounter_id: str, row: GameMaster) -> dict[str, list[dict[str, str]]]:
    """The players' links that open the encounter now (the GM), by combatant: read again, never replaced."""
    return {"player_tokens": listed(row)}


@router.delete("/v1/encounters/{encounter_id}/player_tokens/{combatant}", status_code=204)
async def revoke_player_token(encounter_id: str, combatant: str, row: GameMaster, state: State) -> None:
    """Revoke the combatant's player's link (the GM): it opens nothing from now on, its streams end; a 404 naming
    `combatant` when it has none."""
    await _kept(state, encounter_id, revoked(row, combatant))
