"""The players' link read again by the GM (GET /v1/encounters/{id}/view_token): the view token as it is now, made
from the GM token's stored hash (server/security.py `view_token_of`), never replaced by reading it."""

from __future__ import annotations

from tohit.server.errors import ApiError
from tohit.server.security import found_view_token


def players_link(gm_hash: str, view_hash: str) -> str:
    """The view token now, or a 404 naming `view_token` for one that cannot be read again."""
    found = found_view_token(gm_hash, view_hash)
    if found is None:
        message = (
            "this players' link cannot be read again (made before links were kept so): make a new one"
            " (POST …/view_token), which replaces it"
        )
        raise ApiError(404, message, "view_token")
    return found[0]
