"""Reclaim the Wild (Attacking 101): the attack rules; the tactical grid feeds its conditions."""

from tohit.systems.rtw.rules import ReclaimTheWild
from tohit.systems.rtw.tactical import TacticalReclaimTheWild

SYSTEM = TacticalReclaimTheWild()

__all__ = ["SYSTEM", "ReclaimTheWild", "TacticalReclaimTheWild"]
