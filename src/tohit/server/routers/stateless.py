"""The stateless routes: the systems and their schemas, and rolls, odds, simulations, aim and fights (the CLI's
`--json` shapes), their CPU work in the admission lanes (server/admission.py), within the caps."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from tohit.engine import registry
from tohit.server import answers, jobs, limits
from tohit.server.answers import ok
from tohit.server.authorization import State
from tohit.server.bodies import FightBody, ScenarioBody
from tohit.server.contract import SystemInfo
from tohit.server.errors import ERRORS, ApiError

#: The app answers errors in one shape: each route documents them (server/errors.py).
router = APIRouter(responses=ERRORS)


@router.get("/v1/systems")
async def systems() -> list[SystemInfo]:
    """The rule systems (as `tohit systems --json`)."""
    return [SystemInfo(id=s.id, title=s.title, summary=s.summary, page=s.page) for s in registry.systems().values()]


@router.get("/v1/systems/{system_id}/schema", **ok(answers.ScenarioSchema))
async def schema(system_id: str) -> dict[str, Any]:
    """The JSON Schema of a system's scenario files."""
    if system_id not in registry.systems():
        raise ApiError(404, f"no system {system_id!r:.40}; GET /v1/systems lists them", "system")
    found: dict[str, Any] = registry.get(system_id).scenario_schema()
    return found


@router.post("/v1/roll")
async def roll(body: ScenarioBody, request: Request, state: State) -> Any:
    """One traced resolution per target (as `tohit roll --json`)."""
    limits.count_targets(body.scenario, state.settings.max_targets)
    lane = limits.roll_lane(body.scenario)  # a big roll runs in the pool, away from the encounter reads
    return await state.work(lane, request, jobs.roll_job, body.scenario, body.seed, state.caps)


@router.post("/v1/odds")
async def odds(body: ScenarioBody, request: Request, state: State) -> Any:
    """Exact odds of every outcome, per target (as `tohit odds --json`)."""
    settings = state.settings
    limits.count_targets(body.scenario, settings.max_targets)
    limits.depth_cap(body.depth, body.scenario, settings.max_depth)
    return await state.work("odds", request, jobs.odds_job, body.scenario, body.depth, state.caps)


@router.post("/v1/simulate")
async def simulate(body: ScenarioBody, request: Request, state: State) -> Any:
    """Monte Carlo, n attacks per target (as `tohit simulate --json`)."""
    settings, n = state.settings, body.n or 100_000
    limits.cap(n, settings.max_trials, "max-trials", "n")
    limits.count_targets(body.scenario, settings.max_targets)
    limits.depth_cap(body.depth, body.scenario, settings.max_depth)
    return await state.work("simulate", request, jobs.simulate_job, body.scenario, n, body.seed, state.caps)


@router.post("/v1/aim", **ok(list[answers.Aimed]))
async def aim(body: ScenarioBody, request: Request, state: State) -> Any:
    """A map scenario's placements ranked by exact expected damage (the best n, default 5)."""
    settings = state.settings
    limits.count_targets(body.scenario, settings.max_targets)
    limits.depth_cap(body.depth, body.scenario, settings.max_depth)
    n = body.n or 5
    limits.cap(n, settings.max_placements, "max-placements", "n")
    return await state.work("aim", request, jobs.aim_job, body.scenario, n)


@router.post("/v1/fights/simulate")
async def fights_simulate(body: FightBody, request: Request, state: State) -> Any:
    """Monte Carlo of whole fights (as `tohit fight -n --json`)."""
    settings, n = state.settings, body.n or 10_000
    limits.cap(n, settings.max_fights, "max-fights", "n")
    limits.depth_cap(None, body.fight, settings.max_depth)
    limits.count_combatant_fights(body.fight, n, settings.max_combatant_fights)
    return await state.work("fights-simulate", request, jobs.fights_simulate_job, body.fight, n, body.seed, state.caps)


@router.post("/v1/fights/exact")
async def fights_exact(body: FightBody, request: Request, state: State) -> Any:
    """Exact duel odds (as `tohit fight --exact --json`), within the caps on states and time."""
    settings = state.settings
    limits.depth_cap(None, body.fight, settings.max_depth)
    args = (body.fight, settings.max_states, settings.exact_cap)
    return await state.work("fights-exact", request, jobs.fights_exact_job, *args)
