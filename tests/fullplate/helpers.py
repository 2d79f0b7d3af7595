"""Helpers for the FullPlate tests: build scenario dicts, roll them with forced dice, read exact odds."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tohit.engine.odds import TargetOdds, odds
from tohit.engine.roll import RollResult, roll
from tohit.engine.scenario import Loaded, from_dict


def make(
    *,
    attacker: dict[str, Any] | None = None,
    weapon: dict[str, Any] | None = None,
    attack: dict[str, Any] | None = None,
    target: dict[str, Any] | None = None,
    targets: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    dice: dict[str, list[int]] | None = None,
) -> dict[str, Any]:
    """A FullPlate scenario: THAC0 14, a 1d8 melee weapon, one target "Target" at AC 5, unless overridden."""
    data: dict[str, Any] = {
        "system": "fullplate",
        "attacker": {"thac0": 14, **(attacker or {}), "weapon": {"damage": "1d8", **(weapon or {})}},
        "attack": dict(attack or {}),
        "targets": targets or [{"name": "Target", "ac": 5, **(target or {})}],
    }
    if options:
        data["options"] = options
    if dice:
        data["dice"] = dice
    return data


def load(data: dict[str, Any]) -> Loaded:
    return from_dict(data, source="test")


def rolled(data: dict[str, Any], seed: int = 1) -> RollResult:
    return roll(load(data), seed=seed)


def row(data: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    """The outcome row of the first target."""
    return rolled(data, seed).targets[0].row


def trace(data: dict[str, Any], seed: int = 1) -> str:
    """The first target's trace, one step per line."""
    return "\n".join(step.text for step in rolled(data, seed).targets[0].steps)


def exact(data: dict[str, Any], name: str | None = None) -> TargetOdds:
    result = odds(load(data))
    return result.targets[0] if name is None else result.target(name)


def p(target_odds: TargetOdds, field: str, value: Any) -> Fraction:
    return target_odds.probability(field, value)
