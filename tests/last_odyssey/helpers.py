"""Helpers for the Last Odyssey tests: scenario dicts, forced rolls and exact odds."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from tohit.engine.odds import TargetOdds, odds
from tohit.engine.roll import RollResult, roll
from tohit.engine.scenario import Loaded, from_dict

SYSTEM = "last-odyssey"


def physical(**attack: Any) -> dict[str, Any]:
    """A physical Ranged attack, with overrides."""
    return {"kind": "physical", "type": "ranged", **attack}


def scenario(
    *targets: dict[str, Any],
    attacker: dict[str, Any] | None = None,
    attack: dict[str, Any] | None = None,
    die: int | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A scenario dict: default attacker with every statistic 3 (attacks 2), default physical Ranged attack,
    one target per mapping given (default names T0, T1...), the hit die forced to `die` if given."""
    user = {
        "name": "User",
        "physical_accuracy": 3,
        "magical_accuracy": 3,
        "status_accuracy": 3,
        "physical_attack": 2,
        "magical_attack": 2,
    }
    user.update(attacker or {})
    chosen = attack if attack is not None else physical()
    if len(targets) > 1 and "type" in chosen and "multi" not in chosen["type"]:
        chosen = {**chosen, "type": "multi"}
    data: dict[str, Any] = {
        "system": SYSTEM,
        "attacker": user,
        "attack": chosen,
        "targets": [
            {
                "name": f"T{i}",
                **({"evasion": 2, "physical_defense": 0, "magical_defense": 0, "shell": False, "resistance": 2}),
                **t,
            }
            for i, t in enumerate(targets or ({},))
        ],
    }
    if die is not None:
        data["dice"] = {"hit": [die]}
    if options:
        data["options"] = options
    return data


def load(data: dict[str, Any]) -> Loaded:
    return from_dict(copy.deepcopy(data), source="test")


def rolled(data: dict[str, Any], seed: int = 1) -> RollResult:
    return roll(load(data), seed)


def row(data: dict[str, Any], target: str = "T0") -> dict[str, Any]:
    """The outcome row of `target` in one roll (force the die with `scenario(die=...)`)."""
    return rolled(data).target(target).row


def rows_by_face(data: dict[str, Any], target: str = "T0") -> dict[int, dict[str, Any]]:
    """The outcome row for each face 1..10 of the hit die."""
    out = {}
    for face in range(1, 11):
        forced = {**data, "dice": {"hit": [face]}}
        out[face] = row(forced, target)
    return out


def target_odds(data: dict[str, Any], target: str = "T0") -> TargetOdds:
    return odds(load(data)).target(target)


def p(data: dict[str, Any], field: str, value: Any, target: str = "T0") -> Fraction:
    return target_odds(data, target).probability(field, value)


def trace(data: dict[str, Any], target: str = "T0") -> list[str]:
    return [f"{s.text} [{s.clause}]" for s in rolled(data).target(target).steps]
