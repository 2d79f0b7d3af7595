"""The CPU work of the stateless routes, as plain functions of plain data (picklable, so a process pool can run
them): each answers with the same JSON as the CLI's `--json`."""

from __future__ import annotations

from typing import Any

from tohit.core.errors import InputError
from tohit.engine.fight.exact import OverStates, OverTime, exact_duel
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.run import simulate_fights
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import from_dict
from tohit.engine.simulate import simulate


def roll_job(scenario: dict[str, Any], seed: int | None) -> dict[str, Any]:
    return roll(from_dict(scenario, source="scenario"), seed).to_json()


def odds_job(scenario: dict[str, Any], depth: int | None) -> dict[str, Any]:
    return odds(from_dict(scenario, source="scenario"), depth).to_json()


def simulate_job(scenario: dict[str, Any], n: int, seed: int | None) -> dict[str, Any]:
    return simulate(from_dict(scenario, source="scenario"), n, seed).to_json()


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
    except OverStates as exc:
        raise InputError(
            f"{exc.message} (the cap max-states = {max_states:,}: tohit serve --max-states)",
            field="max-states",
            source=exc.source,
        ) from None
    except OverTime as exc:
        raise InputError(
            f"{exc.message} (the cap exact-seconds = {seconds:g}: tohit serve --exact-seconds)",
            field="exact-seconds",
            source=exc.source,
        ) from None
