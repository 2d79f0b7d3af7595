"""When Sky and Sea Were Not Named (Taking Actions)."""

from tohit.systems.wsswnn.rules import Wsswnn

SYSTEM = Wsswnn()

__all__ = ["SYSTEM", "Wsswnn"]
