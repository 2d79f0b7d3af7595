"""The old home of a fight step's context, kept for the interfaces that name the Monte Carlo `Method` here: the
modes live in `engine/fight/modes` now."""

from __future__ import annotations

from tohit.engine.fight.modes import Method

__all__ = ["Method"]
