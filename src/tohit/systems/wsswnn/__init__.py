"""When Sky and Sea Were Not Named (shared/rules/wsswnn.txt)."""

from tohit.systems.wsswnn.rules import Wsswnn

SYSTEM = Wsswnn()

__all__ = ["SYSTEM", "Wsswnn"]
