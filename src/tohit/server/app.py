"""`tohit serve`: the HTTP API (FastAPI) for play at the table and for tools (docs/architecture.md, "The server, the
store and the web table").

Every route is under /v1; the OpenAPI docs are at /docs. The stateless routes answer with the CLI's `--json`
shapes and run their CPU work in a process pool, off the event loop, within caps. An encounter is a fight file
and its events in the store; each action is one transaction that appends events with the next seq, and the
unique (encounter, seq) makes two writers never both win. The encounter routes have the request's deadline too:
reads are stopped by it, writes only until they start (server/admission.py). Errors are JSON, `{"error":
{"source", "field", "message"}}`, never a 500 for bad input.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import secrets
import time
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Literal

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import Response, StreamingResponse

from tohit import __version__
from tohit.engine import registry
from tohit.engine.actions import Action, AnyAction, Undo
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained
from tohit.engine.gm_hand import hidden
from tohit.engine.pool import HealingPool
from tohit.engine.seeds import fresh_seed
from tohit.server import admission, answers, errors, examples, jobs, limits, pictures, read_models
from tohit.server.admission import Admission
from tohit.server.answers import ok
from tohit.server.bodies import (
    After,
    CreateBody,
    DiceBody,
    FightBody,
    MapBody,
    MeasureBody,
    PreviewBody,
    ScenarioBody,
    UndoBody,
    fight_of,
)
from tohit.server.cache import Lru
from tohit.server.contract import SystemInfo, describe
from tohit.server.docs import mount_docs
from tohit.server.errors import ERRORS, ApiError
from tohit.server.fanout import Fanout
from tohit.server.limits import LIST_PAGE, BodyCap, CreationRate
from tohit.server.links import players_link
from tohit.server.players_view import PlayersView, RenameBody
from tohit.server.security import SecurityHeaders, for_view, hash_token, matches, next_view_token, same_token
from tohit.server.settings import Settings as Settings
from tohit.server.streams import Streams
from tohit.server.strict_json import StrictJson
from tohit.server.writes import Writer
from tohit.store.db import Store, StoredEncounter, open_store
from tohit.web import mount_pages


# -- the app -------------------------------------------------------------------------------------------------
def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    """The FastAPI app: its store opened (migrations applied) and its process pool started with it."""
    settings = settings or Settings()
    state: dict[str, Any] = {"store": store, "pool": None, "admission": Admission(None, 0, settings.request_seconds)}
    state["fanout"] = Fanout(lambda: state["store"], settings.poll)
    streams = Streams(state["fanout"], settings.stream_seconds, settings.max_streams)
    caps = jobs.Caps(settings.max_dice, settings.max_target_dice, settings.max_response)
    creations = CreationRate(settings.creates_per_minute)
    #: Each encounter's picture as made once (PNG or WebP bytes and type).
    made_pictures = pictures.Made(limits.KEPT_PICTURES)
    #: The encounters in memory (each with its fight's memo), the least recently used forgotten first.
    cache: Lru[str, Encounter] = Lru(settings.cached_encounters)
    #: Each encounter's row as last read (a row does not change; a write's own check of the seq finds one
    #: deleted by another process, and then the row is read again).
    rows: Lru[str, StoredEncounter] = Lru(settings.cached_encounters)
    # One lock per encounter being written, gone once no write holds or waits for it (weak values): no growth.
    locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
    owned = store is None  # a store given to the app is its giver's to close

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state["store"] = state["store"] or open_store(settings.db)
        state["pool"] = HealingPool(settings.workers) if settings.workers > 0 else None
        state["admission"] = Admission(state["pool"], settings.workers, settings.request_seconds)
        yield
        try:
            state["admission"].close()
            if state["pool"] is not None:
                state["pool"].close()
        finally:
            if owned:
                state["store"].close()
                state["store"] = None  # a second start opens it again

    app = FastAPI(
        title="tohit",
        docs_url=None,  # served by the server itself (server/docs.py)
        redoc_url=None,
        version=__version__,
        description="Tabletop-RPG attack rules: rolls, exact odds, simulations and live encounters.",
        lifespan=lifespan,
        responses=ERRORS,
    )

    app.state.encounters, app.state.locks = cache, locks  # read by tests: the bounds hold

    def the_store() -> Store:
        found: Store = state["store"]
        return found

    async def work(kind: str, request: Request, fn: Callable[..., Any], *args: Any) -> Any:
        """CPU work off the event loop, in its kind's lane, within the deadline (server/admission.py)."""
        return await state["admission"].run(kind, request, fn, *args)

    errors.install(app)
    admission.install(app)
    app.add_middleware(StrictJson)  # inside the body cap: reads a body the cap has bounded
    app.add_middleware(BodyCap, limit=settings.max_body)
    app.add_middleware(SecurityHeaders)

    # -- stateless routes --------------------------------------------------------------------------------------
    @app.get("/v1/systems")
    async def systems() -> list[SystemInfo]:
        """The rule systems (as `tohit systems --json`)."""
        return [SystemInfo(id=s.id, title=s.title, summary=s.summary, page=s.page) for s in registry.systems().values()]

    @app.get("/v1/systems/{system_id}/schema", **ok(answers.ScenarioSchema))
    async def schema(system_id: str) -> dict[str, Any]:
        """The JSON Schema of a system's scenario files."""
        if system_id not in registry.systems():
            raise ApiError(404, f"no system {system_id!r:.40}; GET /v1/systems lists them", "system")
        found: dict[str, Any] = registry.get(system_id).scenario_schema()
        return found

    @app.post("/v1/roll")
    async def roll(body: ScenarioBody, request: Request) -> Any:
        """One traced resolution per target (as `tohit roll --json`)."""
        limits.count_targets(body.scenario, settings.max_targets)
        lane = limits.roll_lane(body.scenario)  # a big roll runs in the pool, away from the encounter reads
        return await work(lane, request, jobs.roll_job, body.scenario, body.seed, caps)

    @app.post("/v1/odds")
    async def odds(body: ScenarioBody, request: Request) -> Any:
        """Exact odds of every outcome, per target (as `tohit odds --json`)."""
        limits.count_targets(body.scenario, settings.max_targets)
        limits.depth_cap(body.depth, body.scenario, settings.max_depth)
        return await work("odds", request, jobs.odds_job, body.scenario, body.depth, caps)

    @app.post("/v1/simulate")
    async def simulate(body: ScenarioBody, request: Request) -> Any:
        """Monte Carlo, n attacks per target (as `tohit simulate --json`)."""
        n = body.n or 100_000
        limits.cap(n, settings.max_trials, "max-trials", "n")
        limits.count_targets(body.scenario, settings.max_targets)
        limits.depth_cap(body.depth, body.scenario, settings.max_depth)
        return await work("simulate", request, jobs.simulate_job, body.scenario, n, body.seed, caps)

    @app.post("/v1/aim", **ok(list[answers.Aimed]))
    async def aim(body: ScenarioBody, request: Request) -> Any:
        """A map scenario's placements ranked by exact expected damage (the best n, default 5)."""
        limits.count_targets(body.scenario, settings.max_targets)
        limits.depth_cap(body.depth, body.scenario, settings.max_depth)
        n = body.n or 5
        limits.cap(n, settings.max_placements, "max-placements", "n")
        return await work("aim", request, jobs.aim_job, body.scenario, n)

    @app.post("/v1/fights/simulate")
    async def fights_simulate(body: FightBody, request: Request) -> Any:
        """Monte Carlo of whole fights (as `tohit fight -n --json`)."""
        n = body.n or 10_000
        limits.cap(n, settings.max_fights, "max-fights", "n")
        limits.depth_cap(None, body.fight, settings.max_depth)
        limits.count_combatant_fights(body.fight, n, settings.max_combatant_fights)
        return await work("fights-simulate", request, jobs.fights_simulate_job, body.fight, n, body.seed, caps)

    @app.post("/v1/fights/exact")
    async def fights_exact(body: FightBody, request: Request) -> Any:
        """Exact duel odds (as `tohit fight --exact --json`), within the caps on states and time."""
        limits.depth_cap(None, body.fight, settings.max_depth)
        args = (body.fight, settings.max_states, settings.exact_cap)
        return await work("fights-exact", request, jobs.fights_exact_job, *args)

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
        if matches(token, row.gm_hash) or same_token(token, settings.admin_token):
            return "gm"
        if matches(token, row.view_hash):
            return "view"
        raise ApiError(403, "this token is not this encounter's", "Authorization")

    def gm(row: StoredEncounter, authorization: str | None) -> None:
        if role(row, authorization) != "gm":
            raise ApiError(403, "a view token reads; only the GM token acts", "Authorization")

    def admin(authorization: str | None) -> None:
        if not same_token(token_of(authorization), settings.admin_token):
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
        return enc.exported()

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
            **read_models.cards(enc),
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

    @app.get("/v1/examples", **ok(list[answers.Example]))
    async def list_examples() -> list[dict[str, Any]]:
        """The bundled example fights a new encounter may start from (`example` of POST /v1/encounters)."""
        return await asyncio.to_thread(examples.list_examples)

    @app.post("/v1/encounters", **ok(answers.Created, 201))
    async def create(body: CreateBody, request: Request) -> dict[str, Any]:
        """A new encounter from a fight file: its id, its GM and view tokens (shown once), its state. At most
        `--creates-per-minute` a minute from one client address (past it: a 429 with Retry-After)."""
        wait = creations.take(request.client.host if request.client else "", time.monotonic())
        if wait is not None:
            per = settings.creates_per_minute
            message = f"over the cap creates-per-minute = {per} (tohit serve --creates-per-minute)"
            raise ApiError(429, message, "creates-per-minute", retry_after=math.ceil(wait))
        name, fight = await work("encounter", request, fight_of, body, settings.max_pixels)
        limits.depth_cap(None, fight, settings.max_depth)
        limits.names_cap(fight)
        # Fresh dice unless the GM asks: a file's own seed (every starter has one, and examples are public) would let
        # anyone who has the file predict every roll. A seed given in the body is the GM's own choice.
        seed = body.seed if body.seed is not None else None if body.keep_seed else fresh_seed()
        # Within the deadline until the store's write starts (a 503 before it writes nothing); the write then ends.
        enc = await work("encounter", request, functools.partial(Encounter.create, fight, source=name, seed=seed))
        gm_token = secrets.token_urlsafe(24)
        view_token = next_view_token(hash_token(gm_token), None)
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

    @app.get("/v1/encounters", **ok(list[answers.Listed]))
    async def list_encounters(
        request: Request,
        response: Response,
        authorization: str | None = Header(default=None),
        limit: int = Query(default=50, ge=1, le=LIST_PAGE, description="Encounters on this page (the newest first)."),
        offset: int = Query(default=0, ge=0, le=2**31 - 1, description="Encounters skipped before this page."),
    ) -> list[dict[str, Any]]:
        """The encounters (the admin token), a page at a time, the newest first: each one's system, seq, round
        (where the game counts rounds), who is standing and whether it is over; `X-Total-Count` says how many there
        are in all. The admin token also acts as the GM of every encounter. Within the request's deadline (it
        reads the page's encounters)."""
        admin(authorization)

        def page() -> tuple[list[dict[str, Any]], int]:
            store = the_store()
            return [listed(r) for r, _ in store.all(offset, limit)], store.count()

        found, total = await work("encounter", request, page)
        response.headers["X-Total-Count"] = str(total)
        return found

    @app.get("/v1/encounters/{encounter_id}", **ok(answers.Summary))
    async def get_encounter(
        encounter_id: str, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """An encounter's state and whose turn it is (the GM or the view token)."""
        row = stored(encounter_id)
        who = role(row, authorization)

        def answer() -> dict[str, Any]:
            enc = load(row)
            return summary(row, enc) if who == "gm" else PlayersView(enc).summary(summary(row, enc))

        return await work("encounter", request, answer)

    @app.get("/v1/encounters/{encounter_id}/sheet", **ok(answers.Sheet))
    async def sheet(
        encounter_id: str, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """What a page shows beside the state: the health stat and its word, the sides, each combatant's side,
        attacks and starting stats, and whether it has a map (its game's map rules and a map in its fight)."""
        row = stored(encounter_id)
        who = role(row, authorization)

        def answer() -> dict[str, Any]:
            enc = load(row)
            found = {**read_models.sheet(enc), "map": enc.has_map, "role": who}
            return found if who == "gm" else PlayersView(enc).sheet(found)

        return await work("encounter", request, answer)

    @app.post("/v1/encounters/{encounter_id}/dice", **ok(answers.Dice))
    async def dice(
        encounter_id: str, body: DiceBody, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The dice roles an attack rolls against its first target, for faces typed by hand (`dice` of an
        attack): each role's name, its dice in words, the sides of each die (None: a varying count) and `when`
        it is needed (always / conditional / never); `targets`, the creatures it rolls against; given `dice`
        (the faces typed so far, or a set per target), `needed`: the roles they still call for (per target).
        Its probes try the attack many times, so it is capped and run as a preview is."""
        limits.count_preview(body.targets, of="the dice request's")
        if body.dice and any(isinstance(faces, dict) for faces in body.dice.values()):  # a set per target
            limits.count_preview(list(body.dice), "dice", "the dice request's per-target")
        row = stored(encounter_id)
        who = role(row, authorization)
        if not body.targets:
            raise ApiError(422, "name the target(s): a list of combatant names", "targets")

        def answer() -> dict[str, Any]:
            enc = load(row)
            answered = functools.partial(read_models.dice_answer, enc) if who == "gm" else PlayersView(enc).dice
            found = answered(body.attacker, body.attack, body.targets, body.placement, body.dice)
            return {"seq": enc.seq, **found}

        return await work("encounter-preview", request, answer)

    @app.post("/v1/encounters/{encounter_id}/map", **ok(answers.MapView))
    async def encounter_map(
        encounter_id: str, body: MapBody, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The encounter's map (games with map rules): the board, the creatures, and the attack placed as given:
        its squares, the creatures it reaches and each creature's cover line (as `tohit map --json`)."""
        row = stored(encounter_id)
        who = role(row, authorization)

        def answer() -> dict[str, Any]:
            enc = load(row)
            drawn = functools.partial(read_models.map_view, enc) if who == "gm" else PlayersView(enc).map_view
            return {"seq": enc.seq, **drawn(body.attacker, body.attack, body.placement)}

        return await work("encounter", request, answer)

    @app.get("/v1/encounters/{encounter_id}/picture", response_class=Response, responses=answers.PICTURE)
    async def picture(
        encounter_id: str, request: Request, authorization: str | None = Header(default=None)
    ) -> Response:
        """The picture under the encounter's map (its UVTT map's image, PNG or WebP); 404 when it has none. Made
        once per encounter (its size checked from the image's header before anything is decoded, any decoding in
        the pool's "picture" lane within the deadline), then kept: a later GET is a read of what was made, and GETs
        that come while it is being made wait for that one making."""
        row = stored(encounter_id)
        role(row, authorization)
        made = functools.partial(work, "picture", request, pictures.picture, row.fight, settings.max_pixels)
        found = await made_pictures.of(row.id, made)
        if found is None:
            raise ApiError(404, "this encounter's map has no picture", "map")
        return Response(found[0], media_type=found[1])

    @app.post("/v1/encounters/{encounter_id}/aim", **ok(answers.EncounterAim))
    async def encounter_aim(
        encounter_id: str, body: MapBody, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The best placements of the attack on the encounter's map (as `tohit aim --json`'s `best`), in its
        own lane (server/admission.py), within the deadline."""
        row = stored(encounter_id)
        who = role(row, authorization)

        def answer() -> dict[str, Any]:
            enc = load(row)
            if who != "gm":
                PlayersView(enc).aim(body.attacker)
            best = read_models.aim(enc, body.attacker, body.attack, body.n or 5)
            return {"seq": enc.seq, "best": best, **({} if best else {"note": "no placement reaches anyone"})}

        return await work("encounter-aim", request, answer)

    @app.post("/v1/encounters/{encounter_id}/measure", **ok(answers.Measured))
    async def measure(
        encounter_id: str, body: MeasureBody, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The ruler: squares between two squares of the encounter's map, in the game's count."""
        row = stored(encounter_id)
        role(row, authorization)

        def answer() -> dict[str, Any]:
            enc = load(row)
            return {"seq": enc.seq, "squares": read_models.measure(enc, body.start, body.to)}

        return await work("encounter", request, answer)

    @app.post("/v1/encounters/{encounter_id}/view_token", **ok(answers.ViewToken, 201))
    async def new_view_token(encounter_id: str, authorization: str | None = Header(default=None)) -> dict[str, str]:
        """A new view token (the GM): the share link of a read-only view. The old view token stops working
        (tokens are kept only as hashes, so a lost one is replaced, never shown again)."""
        row = stored(encounter_id)
        gm(row, authorization)
        token = await asyncio.to_thread(next_view_token, row.gm_hash, row.view_hash)  # up to MAX_LINKS HMACs
        await asyncio.to_thread(the_store().set_view_hash, encounter_id, hash_token(token))
        rows.pop(encounter_id, None)  # the row kept in memory holds the old view token's hash
        state["fanout"].poke(encounter_id)  # its streams check their tokens again
        return {"view_token": token}

    @app.get("/v1/encounters/{encounter_id}/view_token", **ok(answers.ViewToken))
    async def view_token(encounter_id: str, authorization: str | None = Header(default=None)) -> dict[str, str]:
        """The players' link as it is now (the GM), not replaced; a 404 for one that cannot be read again (made
        before links were kept so: replace it)."""
        row = stored(encounter_id)
        gm(row, authorization)
        return {"view_token": await asyncio.to_thread(players_link, row.gm_hash, row.view_hash)}

    writer = Writer(cache, the_store, fresh, stored)

    async def change(
        encounter_id: str, request: Request, authorization: str | None, action: AnyAction, expected: int | None
    ) -> dict[str, Any]:
        """One write under the encounter's lock: the deadline holds only until it starts (server/admission.py)."""
        row = rows.get(encounter_id) or stored(encounter_id)
        gm(row, authorization)
        lock = locks.setdefault(encounter_id, asyncio.Lock())
        found: dict[str, Any] = await state["admission"].write(request, lock, writer.applied, row, action, expected)
        return found

    @app.post("/v1/encounters/{encounter_id}/actions", **ok(answers.Acted, 201))
    async def act(
        encounter_id: str, body: Action, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """One GM action: attack, auto (the side's policy picks), adjust, end_turn, move (on a map), undo (the GM
        token); the body is one of the engine's action types, told apart by `kind`."""
        return await change(encounter_id, request, authorization, body, body.expected_seq)

    @app.post("/v1/encounters/{encounter_id}/undo", **ok(answers.Acted, 201))
    async def undo(
        request: Request,
        encounter_id: str,
        body: UndoBody | None = None,
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """Take back the last action not yet taken back, by one more event (the log keeps both)."""
        expected = body.expected_seq if body else None
        return await change(encounter_id, request, authorization, Undo(kind="undo"), expected)

    @app.post("/v1/encounters/{encounter_id}/preview", **ok(answers.Preview))
    async def preview(
        encounter_id: str, body: PreviewBody, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The exact odds of an attack on each target in the current state; changes nothing. Its targets are
        capped, for the view token too (limits.PREVIEW_TARGETS); it is refused a hidden attacker or target (403)."""
        limits.count_preview(body.targets)
        row = stored(encounter_id)
        who = role(row, authorization)

        def answer() -> dict[str, Any]:
            enc = load(row)
            ask = enc.preview if who == "gm" else PlayersView(enc).preview  # the players': nothing of a hidden one's
            return {
                "seq": enc.seq,
                "targets": read_models.exact(ask(body.attacker, body.attack, body.targets, body.placement)),
            }

        return await work("encounter-preview", request, answer)

    @app.get("/v1/encounters/{encounter_id}/events", **ok(list[answers.Event]))
    async def events(
        encounter_id: str, request: Request, after: After = -1, authorization: str | None = Header(default=None)
    ) -> list[dict[str, Any]]:
        """The events after seq `after`, as JSON."""
        row = stored(encounter_id)
        who = role(row, authorization)

        def answer() -> list[dict[str, Any]]:
            found: list[dict[str, Any]] = the_store().events(encounter_id, after)
            return found if who == "gm" else for_view(PlayersView(load(row)).events(found))

        found: list[dict[str, Any]] = await work("encounter", request, answer)
        return found

    @app.get("/v1/encounters/{encounter_id}/events.jsonl", response_class=Response, responses=answers.NDJSON)
    async def events_jsonl(
        encounter_id: str, request: Request, authorization: str | None = Header(default=None)
    ) -> Response:
        """The whole log as `tohit fight --log` writes it (`tohit replay` checks it)."""
        row = stored(encounter_id)
        who = role(row, authorization)

        def answer() -> str:
            found = exported(row) if who == "gm" else for_view(PlayersView(load(row)).events(exported(row)))
            return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in chained(found))

        return Response(await work("encounter", request, answer), media_type="application/x-ndjson")

    @app.get("/v1/encounters/{encounter_id}/stream")
    async def stream(
        encounter_id: str,
        after: After | None = None,
        authorization: str | None = Header(default=None),
    ) -> StreamingResponse:
        """New events as Server-Sent Events, for live views (the view token is enough): checked against the token
        before each read, within the stream's lifetime and the cap on streams per encounter (server/streams.py)."""
        row = stored(encounter_id)
        was = role(row, authorization)
        start = the_store().last_seq(encounter_id) if after is None else after
        streams.admit(encounter_id)

        def ended() -> str | None:
            """Why the stream ends now (None: it goes on)."""
            now = the_store().get(encounter_id)
            if now is None:
                return "the encounter was deleted"
            try:
                return None if role(now, authorization) == was else "this token's role changed"
            except ApiError:
                return "this token no longer opens the encounter"

        feed = streams.feed(row, start, ended, None if was == "gm" else load)
        return StreamingResponse(feed, media_type="text/event-stream")

    @app.patch("/v1/encounters/{encounter_id}", **ok(answers.Renamed))
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
        state["fanout"].poke(encounter_id)  # its streams end

    mount_docs(app, "tohit")
    describe(app)
    mount_pages(app)
    return app
