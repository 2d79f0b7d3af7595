"""FullPlate (Attacking): THAC0 attacks with the natural-20 window, Critical Hits and
Severity, Enhancement and Special Defence, the circumstance table, hands, Automatic Hits and firing into melee."""

from tohit.systems.fullplate.rules import FullPlate

SYSTEM = FullPlate()

__all__ = ["SYSTEM", "FullPlate"]
