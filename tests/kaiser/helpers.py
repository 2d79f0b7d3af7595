"""Building Kaiser scenarios for tests: the page's Ceil example, with overrides."""

from __future__ import annotations

from typing import Any

from tests.conftest import scenario
from tohit.engine.roll import roll
from tohit.engine.scenario import Loaded


def ceil(
    *,
    offense: list[int] | None = None,
    defense: list[int] | None = None,
    critical: list[int] | None = None,
    attacker: dict[str, Any] | None = None,
    attack: dict[str, Any] | None = None,
    target: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> Loaded:
    """Ceil (Offensive Skill 12, Strength 8, long sword 5 cut) against a bandit (Defensive Skill 7, AV cut 3)."""
    dice: dict[str, list[int]] = {}
    if offense is not None:
        dice["offense"] = offense
    if defense is not None:
        dice["defense"] = defense
    if critical is not None:
        dice["critical"] = critical
    data: dict[str, Any] = {
        "system": "kaiser",
        "attacker": {
            "name": "Ceil",
            "offensive_skill": 12,
            "strength": 8,
            "weapon": {"name": "long sword", "damage": 5, "damage_type": "cut"},
            **(attacker or {}),
        },
        "attack": {"range": "hand_to_hand", **(attack or {})},
        "targets": [{"name": "Bandit", "defensive_skill": 7, "armor": {"cut": 3}, "lp": 40, **(target or {})}],
        "dice": dice,
        "seed": 7,
    }
    if options:
        data["options"] = options
    return scenario(data)


def row(loaded: Loaded) -> dict[str, Any]:
    return roll(loaded).targets[0].row
