"""tohit: tabletop-RPG attack rules written once, fed dice three ways (roll, exact odds, simulate).

The public API lives in `tohit.api` and is re-exported here lazily (importing `tohit.core` does not pull
in the engine): `tohit.load`, `tohit.from_dict`, `tohit.roll`, `tohit.roll_many`, `tohit.odds`,
`tohit.simulate`, `tohit.list_systems`, `tohit.InputError`.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


#: The public API (`tohit.api`), named here so that `dir(tohit)` and autocompletion find it while importing
#: `tohit` stays light (the engine loads on first use). tests/test_api_checks.py keeps it equal to
#: `tohit.api.__all__`.
__all__ = [
    "DiceError",
    "FacesError",
    "InputError",
    "Loaded",
    "LoadedFight",
    "OddsResult",
    "RollResult",
    "SimResult",
    "TargetOdds",
    "TargetRoll",
    "TargetSim",
    "TohitError",
    "__version__",
    "aim",
    "compare",
    "fight",
    "fight_from_dict",
    "from_dict",
    "list_systems",
    "load",
    "load_fight",
    "odds",
    "roll",
    "roll_many",
    "simulate",
    "solve",
    "sweep",
]


def __dir__() -> list[str]:
    return sorted(__all__)


def __getattr__(name: str) -> Any:
    import importlib

    api = importlib.import_module("tohit.api")
    if name in api.__all__:
        return getattr(api, name)
    raise AttributeError(f"module 'tohit' has no attribute {name!r}")
