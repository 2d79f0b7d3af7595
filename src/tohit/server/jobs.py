"""The CPU work of the stateless routes, as plain functions of plain data (picklable, so a process pool can run
them): each answers with the same JSON as the CLI's `--json`."""

from __future__ import annotations

from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.engine.fight.exact import OverStates, OverTime, exact_duel
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.run import simulate_fights
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import Loaded, from_dict
from tohit.engine.simulate import simulate


def dice_capped(scenario: dict[str, Any], max_dice: int) -> Loaded:
    """The scenario loaded, and refused (a 422 naming the cap and its flag) when its attack rolls more than
    `max_dice` dice against one target, counted as each role counts its dice at first (`Role.dice_count`; what
    open rolls add is bounded by the depth cap)."""
    loaded = from_dict(scenario, source="scenario")
    system, found = loaded.system, loaded.scenario
    for target in found.targets:
        count = sum(role.dice_count() for role in system.roles(found, target).values())
        if count > max_dice:
            raise InputError(
                f"the attack rolls {count:,} dice against {short_repr(target.name)}, over the cap max-dice ="
                f" {max_dice:,} (tohit serve --max-dice)",
                field="max-dice",
            )
    return loaded


def roll_job(scenario: dict[str, Any], seed: int | None, max_dice: int) -> dict[str, Any]:
    return roll(dice_capped(scenario, max_dice), seed).to_json()


def odds_job(scenario: dict[str, Any], depth: int | None, max_dice: int) -> dict[str, Any]:
    return odds(dice_capped(scenario, max_dice), depth).to_json()


def simulate_job(scenario: dict[str, Any], n: int, seed: int | None, max_dice: int) -> dict[str, Any]:
    return simulate(dice_capped(scenario, max_dice), n, seed).to_json()


def aim_job(scenario: dict[str, Any], top: int) -> list[dict[str, Any]]:
    from tohit.api import aim

    return aim(scenario, top=top)


def fights_simulate_job(fight: dict[str, Any], n: int, seed: int | None) -> dict[str, Any]:
    return simulate_fights(fight_from_dict(fight, source="fight"), n, seed).to_json()


def fights_exact_job(fight: dict[str, Any], max_states: int, seconds: float) -> dict[str, Any]:
    """Over the server's caps on states or time: a 422 naming the cap and its flag."""
    loaded = fight_from_dict(fight, source="fight")
    try:
        return exact_duel(loaded, limit=max_states, seconds=seconds).to_json()
    except (OverStates, OverTime) as exc:
        name, value = (
            ("max-states", f"{max_states:,}") if isinstance(exc, OverStates) else ("exact-seconds", f"{seconds:g}")
        )
        raise InputError(
            f"{exc.message} (the cap {name} = {value}: tohit serve --{name})", field=name, source=exc.source
        ) from None
