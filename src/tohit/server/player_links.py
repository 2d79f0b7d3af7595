"""A link per player (docs/fights.md, "A link per player"): the GM makes a token for one combatant of the players' side
(POST /v1/encounters/{id}/player_token), lists them (GET …/player_tokens), replaces one (POST again) and revokes
one (DELETE …/player_tokens/{combatant}). With it, the player reads what the view token reads plus every number of
their own character, and plays that character's turn: its attacks, its moves on the map and the end of its turn;
anything else, and anything out of turn, is a 403 saying why (`gate`).

The scheme, as the view token's (server/security.py): a player's token is an HMAC keyed by the GM token's stored
hash, of the combatant's name and a generation; the store keeps its hash and its generation (the table
`player_links`), never the token, so the links hold across a restart and the GM reads them again. A new link for
the same combatant is the next generation, and a revoked one keeps its row (its hash gone), so a replaced or
revoked token never opens the encounter again.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from tohit.core.fight.contract import FightRules
from tohit.core.fight.gm_words import written
from tohit.engine.actions import AnyAction, Name
from tohit.engine.encounter import Encounter
from tohit.server.errors import ApiError
from tohit.server.security import hash_token, matches, player_token_of
from tohit.store.db import PlayerLink, StoredEncounter

#: What a player's link plays, on its own combatant's turn only.
PLAYED = ("attack", "move", "end_turn")


class PlayerBody(BaseModel):
    """POST /v1/encounters/{id}/player_token: the combatant whose player the link is for (the GM token)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    combatant: Name


def player_of(row: StoredEncounter, token: str) -> str | None:
    """The combatant whose player's link `token` is (None: it is no player's link of this encounter)."""
    for link in row.players:
        if link.token_hash is not None and matches(token, link.token_hash):
            return link.combatant
    return None


def ever_in(enc: Encounter) -> set[str]:
    """Every combatant that was in the fight: at its start, or joining later."""
    sides = enc.events[0].get("sides", {}) if enc.events else {}
    found = {str(name) for members in sides.values() for name in members}
    return found | {str(e.get("combatant")) for e in enc.events if e.get("kind") == "join"}


def check_playable(enc: Encounter, combatant: str) -> None:
    """A 422 naming `combatant` unless it stands in the fight on the players' side (the fight's first side, the
    one the players' view never hides by default): a foe's player link would show the players a foe's numbers."""
    roster = enc.fight.roster
    if combatant not in roster.names:
        if combatant in ever_in(enc):
            message = f"{combatant} has left the fight: a player's link is for a combatant in it"
            raise ApiError(422, message, "combatant")
        names = ", ".join(roster.names)
        raise ApiError(422, f"no combatant {combatant!r:.60} in this encounter (its combatants: {names})", "combatant")
    side = roster.side[roster.index(combatant)]
    if side != 0:
        players, theirs = roster.side_names[0], roster.side_names[side]
        message = f"{combatant} is on the side {theirs}, not the players' side {players}: a player's link plays one of"
        message += f" {players}"
        raise ApiError(422, message, "combatant")


def new_link(enc: Encounter, row: StoredEncounter, combatant: str) -> tuple[str, PlayerLink]:
    """A new link for `combatant`'s player (checked: `check_playable`): its token and its row, the generation after
    the combatant's last link (which it replaces)."""
    check_playable(enc, combatant)
    before = next((link for link in row.players if link.combatant == combatant), None)
    generation = 0 if before is None else before.generation + 1
    token = player_token_of(row.gm_hash, combatant, generation)
    return token, PlayerLink(combatant, hash_token(token), generation)


def listed(row: StoredEncounter) -> list[dict[str, str]]:
    """The players' links that open the encounter now, each with its combatant, by name."""
    return [
        {"combatant": link.combatant, "player_token": player_token_of(row.gm_hash, link.combatant, link.generation)}
        for link in row.players
        if link.token_hash is not None
    ]


def revoked(row: StoredEncounter, combatant: str) -> PlayerLink:
    """The combatant's link as revoked (its hash gone, its generation kept); a 404 naming `combatant` when it has
    none that opens the encounter."""
    found = next((link for link in row.players if link.combatant == combatant and link.token_hash), None)
    if found is None:
        raise ApiError(404, f"{combatant!r:.60} has no player's link to revoke", "combatant")
    return PlayerLink(combatant, None, found.generation)


def _actor(action: AnyAction) -> tuple[str | None, str]:
    """Whom the action plays, and the field that names it (an end of turn names nobody: its turn's)."""
    if action.kind == "attack":
        return action.attacker, "attacker"
    if action.kind == "move":
        return action.combatant, "combatant"
    return None, "kind"


def gate(enc: Encounter, player: str, action: AnyAction) -> None:
    """A 403 with its reason in words unless `player`'s player may play `action` now: an attack by, a move of, or
    the end of the turn of `player`, on `player`'s turn (the game's next to act), in a fight not over."""
    kind = action.kind
    if kind not in PLAYED:
        words = kind.replace("_", " ")
        message = f"a player's link attacks, moves and ends the turn of {player} only: {words!r} is the GM's to do"
        raise ApiError(403, message, "kind")
    actor, field = _actor(action)
    if actor is not None and actor != player:
        raise ApiError(403, f"this player's link plays {player}, not {actor}", field)
    turn = enc.next_turn()
    if turn != player:
        now = "the fight is over" if turn is None else f"it is {turn}'s turn"
        raise ApiError(403, f"{now}: {player}'s player acts on {player}'s turn only", field)


def says_who(event: dict[str, Any]) -> bool:
    """Whether the event's game master's words say who did it (core/fight/gm_words.py, `by_whom`): a free move on
    the map (not a game's own move), an end of turn."""
    return event.get("kind") == "end_turn" or (event.get("kind") == "move" and bool(event.get("free")))


def marked(events: list[dict[str, Any]], player: str | None, rules: FightRules) -> list[dict[str, Any]]:
    """The events of an action, each saying whose player played it (`player`; the GM's carry none); an event whose
    words say who moved a token or ended a turn is worded again from its data, which now names the player."""
    if player is not None:
        for event in events:
            event["player"] = player
            if says_who(event):
                written(event, rules.gm_phrases)
    return events
