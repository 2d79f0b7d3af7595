"""`tohit serve`: the HTTP API (FastAPI) for play at the table and for tools (issue 16; design.md, "The table").

Every route is under /v1; the OpenAPI docs are at /docs. The stateless routes answer with the CLI's `--json`
shapes and run their CPU work in a process pool, off the event loop, within caps. An encounter is a fight file
and its events in the store; each action is one transaction that appends events with the next seq, and the
unique (encounter, seq) makes two writers never both win. Errors are JSON, `{"error": {"source", "field",
"message"}}`, never a 500 for bad input.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from fastapi import FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from tohit import __version__
from tohit.core.errors import TohitError
from tohit.core.exact_text import fraction_json
from tohit.core.loader import parse_document
from tohit.engine import registry
from tohit.engine.actions import Action, AnyAction, Undo, field_of
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained, unfinished_event
from tohit.engine.gm_hand import hidden
from tohit.engine.requests import MAX_SEED
from tohit.server import examples, jobs
from tohit.server.cache import Lru
from tohit.server.limits import BodyCap
from tohit.server.players_view import PlayersView, RenameBody
from tohit.store.db import StaleSeq, Store, StoredEncounter, open_store
from tohit.web import mount_pages


@dataclass
class Settings:
    """What `tohit serve` is started with; the caps bound the work one request may ask for."""

    db: str = "sqlite:///tohit.db"
    admin_token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    #: Processes for the CPU work of stateless routes; 0 runs it in a thread (tests).
    workers: int = 2
    max_trials: int = 10_000_000
    max_fights: int = 1_000_000
    max_depth: int = 20
    max_states: int = 50_000
    exact_seconds: float = 30.0
    max_body: int = 1 << 20
    max_placements: int = 100
    max_dice: int = 1000
    #: Encounters kept in memory (each with its fight's tables); more are read again from the store when asked.
    cached_encounters: int = 256
    #: How often a live stream looks for new events (seconds).
    poll: float = 0.25


class ApiError(Exception):
    """An answer that is an error: its status and the error body's field and message."""

    def __init__(self, status: int, message: str, field: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.field, self.extra = status, message, field, extra


def error_body(message: str, field: str | None = None, source: str | None = None) -> dict[str, Any]:
    return {"error": {"source": source, "field": field, "message": message}}


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _matches(token: str, stored: str) -> bool:
    return hmac.compare_digest(hash_token(token), stored)


def _exact(value: Any) -> Any:
    """Fractions (at any depth) as the CLI's JSON gives them."""
    if isinstance(value, Fraction):
        return fraction_json(value)
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_exact(v) for v in value]
    return value


class ErrorDetail(BaseModel):
    source: str | None = None
    field: str | None = None
    message: str


class ErrorBody(BaseModel):
    """Every error: where (the source and field) and what, in one line."""

    error: ErrorDetail
    seq: int | None = Field(default=None, description="409: the encounter's current seq.")


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": what}
    for code, what in (
        (400, "a body that is not JSON"),
        (401, "no token"),
        (403, "a token that may not do this"),
        (404, "no such encounter"),
        (409, "a stale expected_seq: another write came first"),
        (422, "bad input, or over a cap: the field named"),
    )
}


# -- request bodies ------------------------------------------------------------------------------------------
class ScenarioBody(BaseModel):
    """A scenario file as JSON, and the options of the command."""

    scenario: dict[str, Any] = Field(description="A scenario file's content (`tohit schema SYSTEM`).")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)
    n: int | None = Field(default=None, ge=1, description="simulate: attacks per target; aim: placements shown.")
    depth: int | None = Field(default=None, ge=0, le=40)


class FightBody(BaseModel):
    """A fight file as JSON."""

    fight: dict[str, Any] = Field(description="A fight file's content (see docs/fights.md).")
    n: int | None = Field(default=None, ge=1)
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)


class CreateBody(BaseModel):
    """A fight given one of three ways: as JSON (`fight`), as the text of a YAML or JSON file (`text`, read as the
    CLI reads a file, `name` naming it in errors), or as a bundled example (`example`, an id of /v1/examples)."""

    name: str | None = Field(default=None, max_length=200)
    fight: dict[str, Any] | None = None
    text: str | None = Field(default=None, description="A fight file's text (YAML or JSON).")
    example: str | None = Field(default=None, max_length=200, description="An example's id (GET /v1/examples).")
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)


class UndoBody(BaseModel):
    expected_seq: int | None = Field(default=None, ge=0)


class PreviewBody(BaseModel):
    attacker: str
    attack: str | None = None
    targets: list[str]
    placement: str | None = Field(default=None, max_length=200)


class DiceBody(PreviewBody):
    """The dice of an attack; with `dice` (the faces typed so far, role -> faces), also the roles still needed."""

    dice: dict[str, list[int]] | None = None


class MapBody(BaseModel):
    """An attack on an encounter's map, placed by its range's fields (e.g. `at`, `direction`, `target`)."""

    attacker: str
    attack: str | None = None
    placement: dict[str, Any] | None = None
    n: int | None = Field(default=None, ge=1, le=20, description="aim: placements shown (default 5).")


def fight_of(body: CreateBody) -> tuple[str, dict[str, Any]]:
    """The name and fight mapping of a create body (exactly one of fight, text, example)."""
    given = [k for k in ("fight", "text", "example") if getattr(body, k) is not None]
    if len(given) != 1:
        raise ApiError(422, "give exactly one of fight, text or example", "fight")
    if body.example is not None:
        name, fight = examples.example(body.example)
        return body.name or name, fight
    name = body.name or "encounter"
    if body.text is not None:
        suffix = name.lower().rsplit(".", 1)[-1]
        return name, parse_document(body.text, source=name, json_only=suffix == "json")
    assert body.fight is not None
    return name, body.fight


# -- the app -------------------------------------------------------------------------------------------------
def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    """The FastAPI app: its store opened (migrations applied) and its process pool started with it."""
    settings = settings or Settings()
    state: dict[str, Any] = {"store": store, "pool": None}
    #: The encounters in memory (each with its fight's memo), the least recently used forgotten first.
    cache: Lru[str, Encounter] = Lru(settings.cached_encounters)
    #: Each encounter's row as last read (a row does not change; a write's own check of the seq finds one
    #: deleted by another process, and then the row is read again).
    rows: Lru[str, StoredEncounter] = Lru(settings.cached_encounters)
    locks: dict[str, asyncio.Lock] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state["store"] = state["store"] or open_store(settings.db)
        state["pool"] = ProcessPoolExecutor(settings.workers) if settings.workers > 0 else None
        yield
        if state["pool"] is not None:
            state["pool"].shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="tohit",
        docs_url="/docs",
        version=__version__,
        description="Tabletop-RPG attack rules: rolls, exact odds, simulations and live encounters.",
        lifespan=lifespan,
        responses=ERRORS,
    )

    app.state.encounters = cache  # read by tests: the bound holds

    def the_store() -> Store:
        found: Store = state["store"]
        return found

    async def work(fn: Callable[..., Any], *args: Any) -> Any:
        """CPU work off the event loop: in the process pool (or a thread when there is none)."""
        pool = state.get("pool")
        if pool is None:
            return await asyncio.to_thread(fn, *args)
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    # -- errors --------------------------------------------------------------------------------------------------
    @app.exception_handler(TohitError)
    async def _input_error(request: Request, exc: TohitError) -> JSONResponse:
        return JSONResponse(error_body(exc.message, exc.field, exc.source), status_code=422)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({**error_body(exc.message, exc.field), **exc.extra}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = [p for p in first.get("loc", ()) if p not in ("body", "query", "path", "header")]
        if request.url.path.endswith("/actions"):  # an action: named without the union's tag
            field = field_of(loc, str(first.get("type", "")))
        else:
            field = ".".join(str(p) for p in loc) or None
        return JSONResponse(error_body(str(first.get("msg")), field), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(error_body(str(exc.detail)), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover - a bug
        return JSONResponse(error_body(f"internal error: {type(exc).__name__}"), status_code=500)

    app.add_middleware(BodyCap, limit=settings.max_body)

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

    # -- encounters ----------------------------------------------------------------------------------------------
    def stored(encounter_id: str) -> StoredEncounter:
        found = the_store().get(encounter_id)
        if found is None:
            rows.pop(encounter_id, None)
            raise ApiError(404, f"no encounter {encounter_id!r:.40}", "id")
        rows[encounter_id] = found
        return found

    def token_of(authorization: str | None) -> str:
        if not authorization or not authorization.startswith("Bearer "):
            raise ApiError(401, "send the encounter's token: Authorization: Bearer <token>", "Authorization")
        return authorization[len("Bearer ") :].strip()

    def role(row: StoredEncounter, authorization: str | None) -> Literal["gm", "view"]:
        token = token_of(authorization)
        if _matches(token, row.gm_hash) or hmac.compare_digest(token, settings.admin_token):
            return "gm"
        if _matches(token, row.view_hash):
            return "view"
        raise ApiError(403, "this token is not this encounter's", "Authorization")

    def gm(row: StoredEncounter, authorization: str | None) -> None:
        if role(row, authorization) != "gm":
            raise ApiError(403, "a view token reads; only the GM token acts", "Authorization")

    def admin(authorization: str | None) -> None:
        if not hmac.compare_digest(token_of(authorization), settings.admin_token):
            raise ApiError(403, "listing encounters takes the admin token", "Authorization")

    def load(row: StoredEncounter) -> Encounter:
        """The encounter at the store's last seq (kept in memory while it is current)."""
        found = cache.get(row.id)
        if found is None or found.seq != the_store().last_seq(row.id):
            found = fresh(row)
        return found

    def fresh(row: StoredEncounter) -> Encounter:
        """The encounter rebuilt from the store's events, and kept in memory."""
        found = Encounter.restore(row.fight, the_store().events(row.id), source=row.name)
        cache[row.id] = found
        return found

    def exported(row: StoredEncounter) -> list[dict[str, Any]]:
        """The stored events, closed (mid-fight) by where the fight stands and its state, which replay checks."""
        found = the_store().events(row.id)
        if not found or found[-1]["kind"] == "end":
            return found
        enc = load(row)
        if enc.seq != len(found) - 1:  # another write came between the two reads: the events read decide
            enc = Encounter.restore(row.fight, found, source=row.name)
        state = enc.state_json()
        return [*found, unfinished_event(len(found), state["fight"].get("round"), enc.next_turn(), state)]

    def summary(row: StoredEncounter, enc: Encounter) -> dict[str, Any]:
        return {
            "id": row.id,
            "name": row.name,
            "system": row.system,
            "seq": enc.seq,
            "state": enc.state_json(),
            "turn": enc.next_turn(),
            "standing": enc.standing(),
            "over": enc.over,
            "conditions": enc.conditions(),
            "shown": enc.shown(),
            "hidden": sorted(hidden(enc.events)),
        }

    def listed(row: StoredEncounter) -> dict[str, Any]:
        enc = load(row)
        return {
            "id": row.id,
            "name": row.name,
            "system": row.system,
            "seq": enc.seq,
            "round": enc.state_json()["fight"].get("round"),
            "standing": enc.standing(),
            "over": enc.over,
        }

    @app.get("/v1/examples")
    async def list_examples() -> list[dict[str, Any]]:
        """The bundled example fights a new encounter may start from (`example` of POST /v1/encounters)."""
        return await asyncio.to_thread(examples.list_examples)

    @app.post("/v1/encounters", status_code=201)
    async def create(body: CreateBody) -> dict[str, Any]:
        """A new encounter from a fight file: its id, its GM and view tokens (shown once), its state."""
        name, fight = await asyncio.to_thread(fight_of, body)
        enc = await asyncio.to_thread(Encounter.create, fight, source=name, seed=body.seed)
        gm_token, view_token = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        row = StoredEncounter(
            secrets.token_hex(16),
            name,
            enc.fight.system.id,
            __version__,
            fight,
            hash_token(gm_token),
            hash_token(view_token),
        )
        await asyncio.to_thread(the_store().create, row, enc.events[0], enc.events[1:])
        cache[row.id], rows[row.id] = enc, row
        return {"id": row.id, "gm_token": gm_token, "view_token": view_token, "seq": enc.seq, "state": enc.state_json()}

    @app.get("/v1/encounters")
    async def list_encounters(authorization: str | None = Header(default=None)) -> list[dict[str, Any]]:
        """Every encounter (the admin token): its system, seq, round (where the game counts rounds), who is
        standing and whether it is over. The admin token also acts as the GM of every encounter."""
        admin(authorization)
        rows = await asyncio.to_thread(the_store().all)
        return [await asyncio.to_thread(listed, r) for r, _ in rows]

    @app.get("/v1/encounters/{encounter_id}")
    async def get_encounter(encounter_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """An encounter's state and whose turn it is (the GM or the view token)."""
        row = stored(encounter_id)
        who = role(row, authorization)
        enc = await asyncio.to_thread(load, row)
        return summary(row, enc) if who == "gm" else PlayersView(enc).summary(summary(row, enc))

    @app.get("/v1/encounters/{encounter_id}/sheet")
    async def sheet(encounter_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """What a page shows beside the state: the health stat and its word, the sides, each combatant's side,
        attacks and starting stats, and whether it has a map (its game's map rules and a map in its fight)."""
        row = stored(encounter_id)
        who = role(row, authorization)
        enc = await asyncio.to_thread(load, row)
        found = {**enc.sheet(), "map": enc.has_map, "role": who}
        return found if who == "gm" else PlayersView(enc).sheet(found)

    @app.post("/v1/encounters/{encounter_id}/dice")
    async def dice(
        encounter_id: str, body: DiceBody, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The dice roles an attack rolls against its first target, for faces typed by hand (`dice` of an
        attack): each role's name, its dice in words, the sides of each die (None: a varying count) and `when`
        it is needed (always / conditional / never); given `dice` (the faces typed so far), `needed`: the roles
        those faces still call for (a critical's dice only after a Critical Hit)."""
        row = stored(encounter_id)
        role(row, authorization)
        enc = await asyncio.to_thread(load, row)
        if not body.targets:
            raise ApiError(422, "name the target(s): a list of combatant names", "targets")
        found = await asyncio.to_thread(enc.dice, body.attacker, body.attack, body.targets[0])
        if body.dice is None:
            return {"seq": enc.seq, "roles": found}
        needed = await asyncio.to_thread(enc.dice_needed, body.attacker, body.attack, body.targets[0], body.dice)
        return {"seq": enc.seq, "roles": found, "needed": needed}

    @app.post("/v1/encounters/{encounter_id}/map")
    async def encounter_map(
        encounter_id: str, body: MapBody, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The encounter's map (games with map rules): the board, the creatures, and the attack placed as given:
        its squares, the creatures it reaches and each creature's cover line (as `tohit map --json`)."""
        row = stored(encounter_id)
        role(row, authorization)
        enc = await asyncio.to_thread(load, row)
        found = await asyncio.to_thread(enc.map_view, body.attacker, body.attack, body.placement)
        return {"seq": enc.seq, **found}

    @app.post("/v1/encounters/{encounter_id}/aim")
    async def encounter_aim(
        encounter_id: str, body: MapBody, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The best placements of the attack on the encounter's map (as `tohit aim --json`'s `best`)."""
        row = stored(encounter_id)
        role(row, authorization)
        enc = await asyncio.to_thread(load, row)
        found = await asyncio.to_thread(enc.aim, body.attacker, body.attack, body.n or 5)
        return {"seq": enc.seq, "best": found}

    @app.post("/v1/encounters/{encounter_id}/view_token", status_code=201)
    async def new_view_token(encounter_id: str, authorization: str | None = Header(default=None)) -> dict[str, str]:
        """A new view token (the GM): the share link of a read-only view. The old view token stops working
        (tokens are kept only as hashes, so a lost one is replaced, never shown again)."""
        row = stored(encounter_id)
        gm(row, authorization)
        token = secrets.token_urlsafe(24)
        await asyncio.to_thread(the_store().set_view_hash, encounter_id, hash_token(token))
        rows.pop(encounter_id, None)  # the row kept in memory holds the old view token's hash
        return {"view_token": token}

    def applied(row: StoredEncounter, action: AnyAction, expected: int | None) -> dict[str, Any]:
        """One action: played on a fork of the encounter held in memory, its events appended in one transaction
        (which checks, inside it, that the store is still at the seq the fork started from), and the answer (the
        seq and state this action left). Run in a worker thread under the encounter's lock.

        The encounter in memory is not re-read before the write: the append's own check decides. Where another
        process wrote first, the action is played again on the encounter read afresh (when the GM named the seq
        it acts on: a 409). A refused action (bad input) or a failed append leaves the encounter in memory as
        it was."""
        enc = cache.get(row.id)
        if enc is None or (expected is not None and expected != enc.seq):
            enc = fresh(row)
        try:
            return played(row, enc, action, expected)
        except StaleSeq as exc:
            if exc.current < 0:
                stored(row.id)  # no events: deleted by another process (a 404)
            if expected is not None:
                raise ApiError(409, str(exc), "expected_seq", seq=exc.current) from None
        try:
            return played(row, fresh(stored(row.id)), action, expected)
        except StaleSeq as exc:
            raise ApiError(409, str(exc), "expected_seq", seq=exc.current) from None

    def played(row: StoredEncounter, enc: Encounter, action: AnyAction, expected: int | None) -> dict[str, Any]:
        """`action` played on a fork of `enc` and appended at enc's seq; the fork is kept once it is stored."""
        before = enc.seq
        if expected is not None and expected != before:
            raise ApiError(409, f"the encounter is at seq {before}, not {expected}", "expected_seq", seq=before)
        after = enc.fork()
        events = after.act(action)
        try:
            the_store().append(row.id, before, events)
        except BaseException:
            cache.pop(row.id, None)  # the store may have moved on, or not answered: read it afresh next time
            raise
        cache[row.id] = after
        out = {
            "seq": after.seq,
            "events": events,
            "trace": [step for e in events for step in e.get("trace", [])],
            "state": after.state_json(),
        }
        if action.kind == "attack":
            out["out_of_turn"] = not after.in_turn
        return out

    async def change(
        encounter_id: str, authorization: str | None, action: AnyAction, expected: int | None
    ) -> dict[str, Any]:
        row = rows.get(encounter_id) or stored(encounter_id)
        gm(row, authorization)
        async with locks.setdefault(encounter_id, asyncio.Lock()):
            found: dict[str, Any] = await asyncio.to_thread(applied, row, action, expected)
        return found

    @app.post("/v1/encounters/{encounter_id}/actions", status_code=201)
    async def act(encounter_id: str, body: Action, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """One GM action: attack, auto (the side's policy picks), adjust, end_turn, move (on a map), undo (the GM
        token); the body is one of the engine's action types, told apart by `kind`."""
        return await change(encounter_id, authorization, body, body.expected_seq)

    @app.post("/v1/encounters/{encounter_id}/undo", status_code=201)
    async def undo(
        encounter_id: str, body: UndoBody | None = None, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Take back the last action not yet taken back, by one more event (the log keeps both)."""
        return await change(encounter_id, authorization, Undo(kind="undo"), body.expected_seq if body else None)

    @app.post("/v1/encounters/{encounter_id}/preview")
    async def preview(
        encounter_id: str, body: PreviewBody, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The exact odds of an attack on each target in the current state; changes nothing."""
        row = stored(encounter_id)
        role(row, authorization)
        enc = await asyncio.to_thread(load, row)
        found = await asyncio.to_thread(enc.preview, body.attacker, body.attack, body.targets, body.placement)
        return {"seq": enc.seq, "targets": _exact(found)}

    @app.get("/v1/encounters/{encounter_id}/events")
    async def events(
        encounter_id: str, after: int = -1, authorization: str | None = Header(default=None)
    ) -> list[dict[str, Any]]:
        """The events after seq `after`, as JSON."""
        row = stored(encounter_id)
        who = role(row, authorization)
        found: list[dict[str, Any]] = await asyncio.to_thread(the_store().events, encounter_id, after)
        return found if who == "gm" else PlayersView(await asyncio.to_thread(load, row)).events(found)

    @app.get(
        "/v1/encounters/{encounter_id}/events.jsonl",
        responses={200: {"content": {"application/x-ndjson": {}}, "description": "One event a line."}},
    )
    async def events_jsonl(encounter_id: str, authorization: str | None = Header(default=None)) -> Response:
        """The whole log as `tohit fight --log` writes it (`tohit replay` checks it)."""
        row = stored(encounter_id)
        who = role(row, authorization)
        found = await asyncio.to_thread(exported, row)
        if who != "gm":
            found = PlayersView(await asyncio.to_thread(load, row)).events(found)
        text = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in chained(found))
        return Response(text, media_type="application/x-ndjson")

    @app.get("/v1/encounters/{encounter_id}/stream")
    async def stream(
        encounter_id: str, request: Request, after: int | None = None, authorization: str | None = Header(default=None)
    ) -> StreamingResponse:
        """New events as Server-Sent Events, for live views (the view token is enough)."""
        row = stored(encounter_id)
        who = role(row, authorization)
        start = the_store().last_seq(encounter_id) if after is None else after

        async def feed() -> AsyncIterator[str]:
            seen = start
            yield f": tohit encounter {encounter_id} from seq {seen}\n\n"
            while not await request.is_disconnected():
                found = await asyncio.to_thread(the_store().events, encounter_id, seen)
                if found and who != "gm":
                    found = PlayersView(await asyncio.to_thread(load, row)).events(found)
                for event in found:
                    seen = int(event["n"])
                    yield f"id: {seen}\nevent: {event['kind']}\ndata: {json.dumps(event)}\n\n"
                await asyncio.sleep(settings.poll)

        return StreamingResponse(feed(), media_type="text/event-stream")

    @app.patch("/v1/encounters/{encounter_id}")
    async def rename(
        encounter_id: str, body: RenameBody, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """Rename an encounter (the GM token)."""
        gm(stored(encounter_id), authorization)
        await asyncio.to_thread(the_store().rename, encounter_id, body.name)
        rows.pop(encounter_id, None)
        return {"id": encounter_id, "name": body.name}

    @app.delete("/v1/encounters/{encounter_id}", status_code=204)
    async def delete(encounter_id: str, authorization: str | None = Header(default=None)) -> None:
        """Delete an encounter and its events (the GM token)."""
        row = stored(encounter_id)
        gm(row, authorization)
        await asyncio.to_thread(the_store().delete, encounter_id)
        cache.pop(encounter_id, None)
        rows.pop(encounter_id, None)

    mount_pages(app)
    return app
