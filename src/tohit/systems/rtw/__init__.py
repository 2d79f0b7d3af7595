"""Reclaim the Wild (shared/rules/reclaim-the-wild.md): the attack rules; the tactical grid feeds its conditions."""

from tohit.systems.rtw.rules import ReclaimTheWild
from tohit.systems.rtw.tactical import TacticalReclaimTheWild

SYSTEM = TacticalReclaimTheWild()

__all__ = ["SYSTEM", "ReclaimTheWild", "TacticalReclaimTheWild"]
