"""Who may do what, as FastAPI dependencies: a route names the one it needs in its parameters and gets what the
check found (the encounter's row, the token's role), or the request is answered before the route runs: 404 (no
such encounter), 401 (no bearer token), 403 (a token that is not this encounter's, a view token or a player's
link where the GM acts, a token that is not the admin's). They run on the event loop, as the routes' own checks did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request

from tohit.engine.encounter import Encounter
from tohit.server.players_view import PlayersView
from tohit.server.state import Role, ServerState
from tohit.store.db import StoredEncounter


async def state_of(request: Request) -> ServerState:
    """The server's state (server/state.py), kept on the app."""
    found: ServerState = request.app.state.server
    return found


#: The server's state, for a route's parameters.
State = Annotated[ServerState, Depends(state_of)]
#: The request's Authorization header (in OpenAPI, the bearer scheme: server/contract.py).
Authorization = Annotated[str | None, Header()]


@dataclass(frozen=True)
class Access:
    """An encounter opened by a token: its row, the token's role, and the header (a stream checks it again)."""

    row: StoredEncounter
    role: Role
    authorization: str | None
    #: The combatant a player's link plays (None: the GM's or the view token).
    player: str | None = None

    @property
    def own(self) -> tuple[str, ...]:
        """The combatant a player's link plays, shown whole in its reads (none for the other tokens)."""
        return () if self.player is None else (self.player,)

    def view(self, enc: Encounter) -> PlayersView:
        """The encounter as this token's players read it: a player's own combatant with every number."""
        return PlayersView(enc, own=self.own)


async def reader(encounter_id: str, state: State, authorization: Authorization = None) -> Access:
    """The encounter's GM or view token, a player's link (or the admin token): what reads it."""
    row = state.stored(encounter_id)
    role, player = state.opened(row, authorization)
    return Access(row, role, authorization, player)


async def game_master(encounter_id: str, state: State, authorization: Authorization = None) -> StoredEncounter:
    """The encounter's GM token (or the admin token): what changes it. The row is read afresh."""
    row = state.stored(encounter_id)
    state.gm(row, authorization)
    return row


async def acting_game_master(encounter_id: str, state: State, authorization: Authorization = None) -> StoredEncounter:
    """As `game_master`, for an action: the row kept in memory serves (a row does not change; the write's own
    check of the seq finds an encounter deleted meanwhile)."""
    row = state.rows.get(encounter_id) or state.stored(encounter_id)
    state.gm(row, authorization)
    return row


@dataclass(frozen=True)
class Actor:
    """Who acts on an encounter: its row, and the combatant a player's link plays (None: the GM)."""

    row: StoredEncounter
    player: str | None


async def actor(encounter_id: str, state: State, authorization: Authorization = None) -> Actor:
    """As `acting_game_master`, or a player's link (its actions checked as it plays: server/player_links.py); for a
    player's link the row is read afresh (another server may have revoked it)."""
    row = state.rows.get(encounter_id)
    if row is None or not state.is_gm(row, authorization):
        row = state.stored(encounter_id)
    role, player = state.opened(row, authorization)
    if role == "view":
        state.gm(row, authorization)  # the view token's 403
    return Actor(row, player)


async def administrator(state: State, authorization: Authorization = None) -> None:
    """The admin token (TOHIT_ADMIN_TOKEN)."""
    state.admin(authorization)


#: A reader of the encounter of the path.
Reader = Annotated[Access, Depends(reader)]
#: The GM of the encounter of the path (its row).
GameMaster = Annotated[StoredEncounter, Depends(game_master)]
#: The same check for a route that needs only the check (its `dependencies`).
GAME_MASTER = Depends(game_master)
#: The GM of the encounter of the path, acting (its row).
ActingGameMaster = Annotated[StoredEncounter, Depends(acting_game_master)]
#: The GM or a player of the encounter of the path, acting.
Acting = Annotated[Actor, Depends(actor)]
