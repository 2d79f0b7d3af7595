"""Helpers for the Reclaim the Wild tests: scenario dicts with forced dice, one roll, exact odds."""

from __future__ import annotations

import copy
from typing import Any

from tests.conftest import scenario
from tohit.engine.odds import TargetOdds, odds
from tohit.engine.roll import roll

SWORD: dict[str, Any] = {"name": "sword", "attack_power": 5, "acc": 3, "damage_type": "sharp", "durability": 9}


def rtw(
    *,
    attacker: dict[str, Any] | None = None,
    attack: dict[str, Any] | None = None,
    target: dict[str, Any] | None = None,
    targets: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    to_hit: list[int] | None = None,
    effect: list[int] | None = None,
) -> dict[str, Any]:
    """A scenario dict: Accuracy 2, Combat 3, Willpower 2, a sword (AP 5, ACC 3, sharp), a Basic Attack for
    Weapon + Combat against a foe with Evasion 12, Concentration 10, Vitality 11 and no Defense, with the
    given overrides (merged key by key) and forced faces for the first target."""
    base_attacker: dict[str, Any] = {"accuracy": 2, "combat": 3, "willpower": 2, "weapon": dict(SWORD)}
    base_attacker.update(attacker or {})
    base_target: dict[str, Any] = {"name": "Foe", "evasion": 12, "concentration": 10, "vitality": 11}
    base_target.update(target or {})
    data: dict[str, Any] = {
        "system": "rtw",
        "attacker": base_attacker,
        "attack": {"kind": "basic", **(attack or {})},
        "targets": copy.deepcopy(targets) if targets is not None else [base_target],
    }
    if options:
        data["options"] = options
    dice: dict[str, list[int]] = {}
    if to_hit is not None:
        dice["to_hit"] = to_hit
    if effect is not None:
        dice["effect"] = effect
    if dice:
        data["targets"][0]["dice"] = {**data["targets"][0].get("dice", {}), **dice}
    return data


def roll_row(data: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    """The outcome row of one roll (forced dice; the rest seeded) for the named (or first) target."""
    result = roll(scenario(data), seed=7)
    target = result.targets[0] if name is None else result.target(name)
    return target.row


def roll_text(data: dict[str, Any], name: str | None = None) -> str:
    """The whole trace of one roll, one step per line (text and clause)."""
    result = roll(scenario(data), seed=7)
    target = result.targets[0] if name is None else result.target(name)
    return "\n".join(f"{s.name}: {s.text} [{s.clause}]" for s in target.steps)


def exact(data: dict[str, Any], name: str | None = None) -> TargetOdds:
    result = odds(scenario(data))
    return result.targets[0] if name is None else result.target(name)
