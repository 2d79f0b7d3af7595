"""Last Odyssey (Attacking and Defending): one d10 hit die for every target of an ability."""

from tohit.systems.last_odyssey.rules import LastOdyssey

SYSTEM = LastOdyssey()

__all__ = ["SYSTEM", "LastOdyssey"]
