"""Kaiser RPG (shared/rules/kaiser.md)."""

from tohit.systems.kaiser.rules import Kaiser

SYSTEM = Kaiser()

__all__ = ["SYSTEM", "Kaiser"]
