"""What a combatant of a When Sky and Sea Were Not Named fight file adds to the common fight file:
when it Stands Fast or skips its action, what skipping gives, whether it resists a brace; and what an attack
entry is to a fight (Stand Fast, the brace it may roll against its foe, a weapon attack).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tohit.core.models import Model
from tohit.systems.wsswnn.plan import ATTACK_KINDS


class WsswnnCombatant(Model):
    """WSSWNN fight fields of a combatant: when it skips or Stands Fast instead of attacking."""

    stand_fast_at: int | None = Field(
        default=None, ge=0, le=100, description="Stand Fast (one of its attacks) when its Guard is at or below this."
    )
    skip_at: int | None = Field(
        default=None,
        ge=0,
        le=100,
        description="Skip the action (+1 guard or awareness) when Guard is at or below this.",
    )
    skip_gains: Literal["guard", "awareness"] = Field(default="guard", description="What skipping an action gives.")
    resists: bool = Field(
        default=True,
        description="On a brace's Struggle against it, pay 1 stamina to resist the effect when it has the stamina.",
    )


def is_stand_fast(entry: Any) -> bool:
    return bool(entry.attack.kind == "brace" and entry.attack.brace == "stand_fast")


def free_brace(entry: Any) -> str | None:
    """The brace an attack entry may roll against its foe: its brace action, Take Hold's, or a block's."""
    attack = entry.attack
    if attack.kind == "brace":
        return None if attack.brace == "stand_fast" else str(attack.brace)
    if attack.kind == "take_hold":
        return str(attack.brace or "grapple")
    weapon = entry.attacker.weapon
    return attack.brace or (weapon.on_block if weapon is not None else None)


def uses_weapon(entry: Any) -> bool:
    """A weapon attack: melee, ranged or a jump-attack made with a weapon (a disarmed combatant cannot)."""
    return bool(entry.attack.kind in ATTACK_KINDS and entry.attacker.weapon is not None)
