"""What the players are told of Reclaim the Wild's own events (core/fight/audience.py; docs/players.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.audience import Audience, Phrase


def move(event: Mapping[str, Any], audience: Audience) -> str:
    """A move for the players: the game's words, where the mover's numbers are theirs to read and the creature it
    moves toward is one they know of; else where the mover ends (a square on the table), never its Movement."""
    text = str(event.get("text") or "")
    ends = {ch.get("stat"): ch for ch in event.get("changes", []) if ch.get("stat") in ("x", "y")}
    mover = ends["x"].get("who") if "x" in ends else None
    if mover is None or not audience.touches(event):
        return text
    return f"{mover} moves to ({ends['x'].get('to')}, {ends['y'].get('to')})" if "y" in ends else f"{mover} moves"


PHRASES: Mapping[str, Phrase] = {"move": move}
