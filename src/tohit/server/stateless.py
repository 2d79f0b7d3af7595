"""The stateless routes: systems, schema, roll, odds, simulate, aim and fights (simulated, exact); they answer
with the CLI's `--json` shapes and run their CPU work in the app's process pool, within the caps."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from tohit.engine import registry
from tohit.server import jobs
from tohit.server.settings import Settings, Work
from tohit.server.shapes import ApiError, FightBody, ScenarioBody


def add_stateless_routes(app: FastAPI, settings: Settings, work: Work) -> None:
    """The stateless routes on `app`, within `settings`' caps, their work done by `work`."""

    def cap(value: int | None, limit: int, name: str, what: str) -> None:
        if value is not None and value > limit:
            raise ApiError(422, f"{what} {value:,} is over the cap {name} = {limit:,} (tohit serve --{name})", name)

    def depth_cap(body: ScenarioBody) -> None:
        """The open-roll depth asked for, in the request or in the scenario's own options: within max-depth."""
        cap(body.depth, settings.max_depth, "max-depth", "depth")
        options = body.scenario.get("options")
        given = options.get("depth") if isinstance(options, dict) else None
        if isinstance(given, int) and not isinstance(given, bool):
            cap(given, settings.max_depth, "max-depth", "options.depth")

    # -- stateless routes --------------------------------------------------------------------------------------
    @app.get("/v1/systems")
    async def systems() -> list[dict[str, str]]:
        """The rule systems (as `tohit systems --json`)."""
        return [
            {"id": s.id, "title": s.title, "summary": s.summary, "page": s.page} for s in registry.systems().values()
        ]

    @app.get("/v1/systems/{system_id}/schema")
    async def schema(system_id: str) -> dict[str, Any]:
        """The JSON Schema of a system's scenario files."""
        found: dict[str, Any] = registry.get(system_id).scenario_schema()
        return found

    @app.post("/v1/roll")
    async def roll(body: ScenarioBody) -> Any:
        """One traced resolution per target (as `tohit roll --json`)."""
        return await work(jobs.roll_job, body.scenario, body.seed, settings.max_dice)

    @app.post("/v1/odds")
    async def odds(body: ScenarioBody) -> Any:
        """Exact odds of every outcome, per target (as `tohit odds --json`)."""
        depth_cap(body)
        return await work(jobs.odds_job, body.scenario, body.depth, settings.max_dice)

    @app.post("/v1/simulate")
    async def simulate(body: ScenarioBody) -> Any:
        """Monte Carlo, n attacks per target (as `tohit simulate --json`)."""
        n = body.n or 100_000
        cap(n, settings.max_trials, "max-trials", "n")
        depth_cap(body)
        return await work(jobs.simulate_job, body.scenario, n, body.seed, settings.max_dice)

    @app.post("/v1/aim")
    async def aim(body: ScenarioBody) -> Any:
        """A map scenario's placements ranked by exact expected damage (the best n, default 5)."""
        depth_cap(body)
        n = body.n or 5
        cap(n, settings.max_placements, "max-placements", "n")
        return await work(jobs.aim_job, body.scenario, n)

    @app.post("/v1/fights/simulate")
    async def fights_simulate(body: FightBody) -> Any:
        """Monte Carlo of whole fights (as `tohit fight -n --json`)."""
        n = body.n or 10_000
        cap(n, settings.max_fights, "max-fights", "n")
        return await work(jobs.fights_simulate_job, body.fight, n, body.seed)

    @app.post("/v1/fights/exact")
    async def fights_exact(body: FightBody) -> Any:
        """Exact duel odds (as `tohit fight --exact --json`), within the caps on states and time."""
        return await work(jobs.fights_exact_job, body.fight, settings.max_states, settings.exact_seconds)
