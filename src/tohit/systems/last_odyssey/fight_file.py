"""What a combatant of a Last Odyssey fight file adds to the common fight file: its Initiative, a
player character's call and its base maximum HP.
"""

from __future__ import annotations

from pydantic import Field

from tohit.core.models import Model


class LastOdysseyCombatant(Model):
    """Last Odyssey fight fields of a combatant (the turn structure: The Combat Round, Starting Battles)."""

    initiative: int | None = Field(
        default=None,
        ge=0,
        le=999,
        description="Initiative: the higher, the sooner it acts each round (base: Mind x 2 + class bonus); none: 0.",
    )
    call: int | None = Field(
        default=None,
        ge=1,
        le=8,
        description="A player character's call when calling initiative (1-8): equal to the GM's 2d4, Initiative"
        " x 1.5; below it, first on a tie with an enemy; at or above it, last.",
    )
    health: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="Health, the base maximum HP (Poisoned takes 1/10 of it each Effect Phase); none: its starting HP.",
    )
