"""Kaiser RPG (Attacking and Defending)."""

from tohit.systems.kaiser.rules import Kaiser

SYSTEM = Kaiser()

__all__ = ["SYSTEM", "Kaiser"]
