"""What the players are told of Reclaim the Wild's own events (core/fight/audience.py; docs/players.md)."""

from __future__ import annotations

from collections.abc import Mapping

from tohit.core.fight.audience import Phrase, move_said

#: A move on the map: the common words (`move_said`): the game's own where the players see the whole move and
#: read the mover's numbers; else where it ends, as far as their characters see it, never its Movement.
PHRASES: Mapping[str, Phrase] = {"move": move_said}
