"""The typed Python API for tool builders (bots, virtual tabletops, notebooks).

    import tohit
    attack = tohit.load("examples/<game>/<scenario>.yaml")          # or tohit.from_dict({...})
    tohit.roll(attack).to_json()                                     # one traced resolution per target
    tohit.odds(attack).target("Bandit").probability("result", "hit") # exact Fraction
    tohit.simulate(attack, 1_000_000, seed=1).to_json()              # Monte Carlo summary

Every input problem raises `tohit.InputError` (with `.source`, `.field` and `.message`).
"""

from __future__ import annotations

from tohit.core.errors import DiceError, FacesError, InputError, TohitError
from tohit.engine.odds import OddsResult, TargetOdds, odds
from tohit.engine.registry import systems as list_systems
from tohit.engine.roll import RollResult, TargetRoll, roll, roll_many
from tohit.engine.scenario import Loaded, from_dict, load
from tohit.engine.simulate import SimResult, TargetSim, simulate

__all__ = [
    "DiceError",
    "FacesError",
    "InputError",
    "Loaded",
    "OddsResult",
    "RollResult",
    "SimResult",
    "TargetOdds",
    "TargetRoll",
    "TargetSim",
    "TohitError",
    "from_dict",
    "list_systems",
    "load",
    "odds",
    "roll",
    "roll_many",
    "simulate",
]
