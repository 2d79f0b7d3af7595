"""Helpers for the WSSWNN tests: scenarios as dicts, rolled with forced dice or taken to exact odds."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tests.conftest import scenario
from tohit.engine.odds import TargetOdds, target_odds
from tohit.engine.roll import TargetRoll, roll

FOE: dict[str, Any] = {"name": "Foe", "guard": 4, "agility": 1}


def make(
    attacker: dict[str, Any] | None = None,
    attack: dict[str, Any] | None = None,
    target: dict[str, Any] | None = None,
    dice: dict[str, list[int]] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A one-target WSSWNN scenario: a d8 sword (not blunted) melee attack on Guard 4 / Agility 1 unless told."""
    data: dict[str, Any] = {
        "system": "wsswnn",
        "attacker": {"attack_die": "d8", "weapon": {"name": "sword"}, **(attacker or {})},
        "attack": {"kind": "melee", **(attack or {})},
        "targets": [{**FOE, **(target or {})}],
    }
    if dice is not None:
        data["dice"] = dice
    if options is not None:
        data["options"] = options
    return data


def rolled(data: dict[str, Any]) -> TargetRoll:
    """Roll the scenario once (forced dice; any dice not forced seeded) and return its first target."""
    return roll(scenario(data), seed=1).targets[0]


def row(data: dict[str, Any]) -> dict[str, Any]:
    return rolled(data).row


def trace(data: dict[str, Any]) -> str:
    return "\n".join(s.text for s in rolled(data).steps)


def clauses(data: dict[str, Any]) -> list[str]:
    return [s.clause for s in rolled(data).steps]


def exact(data: dict[str, Any]) -> TargetOdds:
    loaded = scenario(data)
    return target_odds(loaded, loaded.scenario.targets[0])


def dist(data: dict[str, Any], field: str) -> dict[Any, Fraction]:
    """Exact distribution of one outcome field, zero-probability values left out."""
    return {v: p for v, p in exact(data).distribution(field) if p}
