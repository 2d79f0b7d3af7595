"""The CPU work of the stateless routes, as plain functions of plain data (picklable, so a process pool can run
them): each answers with the same JSON as the CLI's `--json`."""

from __future__ import annotations

from typing import Any

from tohit.engine.fight.exact import exact_duel
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
    return exact_duel(fight_from_dict(fight, source="fight"), limit=max_states, seconds=seconds).to_json()
