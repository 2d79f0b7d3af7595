"""The encounter routes: create one from a fight file, read it (its state, sheet, events, map, previews), act on
it (the GM) and rename or delete it. An encounter is a fight file and its events in the store; each action is
one transaction that appends events with the next seq, and the unique (encounter, seq) makes two writers never
both win. Reads are stopped by the request's deadline, writes only until they start (server/admission.py)."""

from __future__ import annotations

import asyncio
import functools
import json
import math
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from tohit import __version__
from tohit.engine import presence
from tohit.engine.actions import Action, Undo
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained
from tohit.engine.gm_hand import hidden
from tohit.engine.seeds import fresh_seed
from tohit.server import answers, examples, jobs, limits, read_models
from tohit.server.answers import ok
from tohit.server.authorization import GAME_MASTER, Acting, ActingGameMaster, GameMaster, Reader, State
from tohit.server.bodies import After, CreateBody, DiceBody, MapBody, MeasureBody, PreviewBody, UndoBody, fight_of
from tohit.server.errors import ERRORS, ApiError
from tohit.server.links import players_link
from tohit.server.players_map import for_players, refuse_aim_out_of_sight
from tohit.server.players_view import RenameBody
from tohit.server.security import for_view, hash_token, next_view_token
from tohit.server.state import ServerState
from tohit.store.db import StoredEncounter

#: The app answers errors in one shape: each route documents them (server/errors.py).
router = APIRouter(responses=ERRORS)


def summary(row: StoredEncounter, enc: Encounter) -> dict[str, Any]:
    """The GM's summary of the encounter: its state, whose turn, who stands, the cards, what is hidden."""
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
        "hidden": sorted(hidden(enc.events) | presence.absent(enc.events)),
        "hidden_entirely": sorted(presence.absent(enc.events)),
    }


def exported(state: ServerState, row: StoredEncounter) -> list[dict[str, Any]]:
    """The stored events, closed (mid-fight) by where the fight stands and its state, which replay checks."""
    found = state.the_store().events(row.id)
    if not found or found[-1]["kind"] == "end":
        return found
    enc = state.load(row)
    if enc.seq != len(found) - 1:  # another write came between the two reads: the events read decide
        enc = Encounter.restore(row.fight, found, source=row.name)
    return enc.exported()


@router.get("/v1/examples", **ok(list[answers.Example]))
async def list_examples() -> list[dict[str, Any]]:
    """The bundled example fights a new encounter may start from (`example` of POST /v1/encounters)."""
    return await asyncio.to_thread(examples.list_examples)


@router.post("/v1/encounters", **ok(answers.Created, 201))
async def create(body: CreateBody, request: Request, state: State) -> dict[str, Any]:
    """A new encounter from a fight file: its id, its GM and view tokens (shown once), its state. At most
    `--creates-per-minute` a minute from one client address (past it: a 429 with Retry-After)."""
    settings = state.settings
    wait = state.creations.take(request.client.host if request.client else "", time.monotonic())
    if wait is not None:
        per = settings.creates_per_minute
        message = f"over the cap creates-per-minute = {per} (tohit serve --creates-per-minute)"
        raise ApiError(429, message, "creates-per-minute", retry_after=math.ceil(wait))
    name, fight = await state.work("encounter", request, fight_of, body, settings.max_pixels)
    limits.depth_cap(None, fight, settings.max_depth)
    limits.names_cap(fight)
    # Fresh dice unless the GM asks: a file's own seed (every starter has one, and examples are public) would let
    # anyone who has the file predict every roll. A seed given in the body is the GM's own choice.
    seed = body.seed if body.seed is not None else None if body.keep_seed else fresh_seed()
    # Within the deadline until the store's write starts (a 503 before it writes nothing); the write then ends.
    enc = await state.work("encounter", request, functools.partial(Encounter.create, fight, source=name, seed=seed))
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
    await asyncio.to_thread(state.the_store().create, row, enc.events[0], enc.events[1:])
    state.cache[row.id], state.rows[row.id] = enc, row
    return {"id": row.id, "gm_token": gm_token, "view_token": view_token, "seq": enc.seq, "state": enc.state_json()}


@router.get("/v1/encounters/{encounter_id}", **ok(answers.Summary))
async def get_encounter(encounter_id: str, request: Request, access: Reader, state: State) -> dict[str, Any]:
    """An encounter's state and whose turn it is (the GM or the view token)."""

    def answer() -> dict[str, Any]:
        enc = state.load(access.row)
        found = summary(access.row, enc)
        return found if access.role == "gm" else access.view(enc).summary(found)

    return await state.work("encounter", request, answer)


@router.get("/v1/encounters/{encounter_id}/sheet", **ok(answers.Sheet))
async def sheet(encounter_id: str, request: Request, access: Reader, state: State) -> dict[str, Any]:
    """What a page shows beside the state: the health stat and its word, the sides, each combatant's side,
    attacks and starting stats, and whether it has a map (its game's map rules and a map in its fight)."""

    def answer() -> dict[str, Any]:
        enc = state.load(access.row)
        found = {**read_models.sheet(enc), "map": enc.has_map, "role": access.role}
        if access.player is not None:
            found["player"] = access.player
        return found if access.role == "gm" else access.view(enc).sheet(found)

    return await state.work("encounter", request, answer)


@router.post("/v1/encounters/{encounter_id}/dice", **ok(answers.Dice))
async def dice(encounter_id: str, body: DiceBody, request: Request, access: Reader, state: State) -> dict[str, Any]:
    """The dice roles an attack rolls against its first target, for faces typed by hand (`dice` of an
    attack): each role's name, its dice in words, the sides of each die (None: a varying count) and `when`
    it is needed (always / conditional / never); `targets`, the creatures it rolls against; given `dice`
    (the faces typed so far, or a set per target), `needed`: the roles they still call for (per target).
    It plays the attack's turn as a preview does (the plan, then the game's declarations of its dice read on it),
    so it is capped and run as a preview is."""
    limits.count_preview(body.targets, of="the dice request's")
    if body.dice and any(isinstance(faces, dict) for faces in body.dice.values()):  # a set per target
        limits.count_preview(list(body.dice), "dice", "the dice request's per-target")
    if not body.targets:
        raise ApiError(422, "name the target(s): a list of combatant names", "targets")

    def answer() -> dict[str, Any]:
        enc = state.load(access.row)
        answered = functools.partial(read_models.dice_answer, enc) if access.role == "gm" else access.view(enc).dice
        found = answered(body.attacker, body.attack, body.targets, body.placement, body.dice)
        return {"seq": enc.seq, **found}

    return await state.work("encounter-preview", request, answer)


@router.post("/v1/encounters/{encounter_id}/map", **ok(answers.MapView))
async def encounter_map(
    encounter_id: str, body: MapBody, request: Request, access: Reader, state: State
) -> dict[str, Any]:
    """The encounter's map (games with map rules): the board, the creatures, and the attack placed as given:
    its squares, the creatures it reaches and each creature's cover line (as `tohit map --json`); with a view
    token, only what the players' characters see (server/players_map.py)."""

    def answer() -> dict[str, Any]:
        enc = state.load(access.row)
        asked = (body.attacker, body.attack, body.placement)
        if access.role == "gm":  # everything, with the party's sight to outline
            return {"seq": enc.seq, **read_models.map_view(enc, *asked)}
        return {"seq": enc.seq, **for_players(enc, access.view(enc).map_view(*asked))}  # what the party sees

    return await state.work("encounter", request, answer)


@router.post("/v1/encounters/{encounter_id}/aim", **ok(answers.EncounterAim))
async def encounter_aim(
    encounter_id: str, body: MapBody, request: Request, access: Reader, state: State
) -> dict[str, Any]:
    """The best placements of the attack on the encounter's map (as `tohit aim --json`'s `best`), in its
    own lane (server/admission.py), within the deadline."""

    def answer() -> dict[str, Any]:
        enc = state.load(access.row)
        if access.role != "gm":
            access.view(enc).aim(body.attacker)
            refuse_aim_out_of_sight(enc)
        best = read_models.aim(enc, body.attacker, body.attack, body.n or 5)
        return {"seq": enc.seq, "best": best, **({} if best else {"note": "no placement reaches anyone"})}

    return await state.work("encounter-aim", request, answer)


@router.post("/v1/encounters/{encounter_id}/measure", **ok(answers.Measured))
async def measure(
    encounter_id: str, body: MeasureBody, request: Request, access: Reader, state: State
) -> dict[str, Any]:
    """The ruler: squares between two squares of the encounter's map, in the game's count."""

    def answer() -> dict[str, Any]:
        enc = state.load(access.row)
        return {"seq": enc.seq, "squares": read_models.measure(enc, body.start, body.to)}

    return await state.work("encounter", request, answer)


@router.post("/v1/encounters/{encounter_id}/view_token", **ok(answers.ViewToken, 201))
async def new_view_token(encounter_id: str, row: GameMaster, state: State) -> dict[str, str]:
    """A new view token (the GM): the share link of a read-only view. The old view token stops working; the GM
    reads the current one again with GET (server/links.py)."""
    token = await asyncio.to_thread(next_view_token, row.gm_hash, row.view_hash)  # up to MAX_LINKS HMACs
    await asyncio.to_thread(state.the_store().set_view_hash, encounter_id, hash_token(token))
    state.rows.pop(encounter_id, None)  # the row kept in memory holds the old view token's hash
    state.fanout.poke(encounter_id)  # its streams check their tokens again
    return {"view_token": token}


@router.get("/v1/encounters/{encounter_id}/view_token", **ok(answers.ViewToken))
async def view_token(encounter_id: str, row: GameMaster) -> dict[str, str]:
    """The players' link as it is now (the GM), not replaced; a 404 for one that cannot be read again (made
    before links were kept so: replace it)."""
    return {"view_token": await asyncio.to_thread(players_link, row.gm_hash, row.view_hash)}


@router.post("/v1/encounters/{encounter_id}/actions", **ok(answers.Acted, 201))
async def act(encounter_id: str, body: Action, request: Request, actor: Acting, state: State) -> Any:
    """One GM action: attack, auto (the side's policy picks), adjust, end_turn, move (on a map), undo (the GM
    token); the body is one of the engine's action types, told apart by `kind`. A player's link plays its own
    combatant's attack, move and end_turn on its turn only (else a 403 saying why); its events carry `player`."""
    return await state.change(request, actor.row, body, body.expected_seq, actor.player)


@router.post("/v1/encounters/{encounter_id}/undo", **ok(answers.Acted, 201))
async def undo(
    request: Request, encounter_id: str, row: ActingGameMaster, state: State, body: UndoBody | None = None
) -> Any:
    """Take back the last action not yet taken back, by one more event (the log keeps both)."""
    return await state.change(request, row, Undo(kind="undo"), body.expected_seq if body else None)


@router.post("/v1/encounters/{encounter_id}/preview", **ok(answers.Preview))
async def preview(
    encounter_id: str, body: PreviewBody, request: Request, access: Reader, state: State
) -> dict[str, Any]:
    """The exact odds of an attack on each target in the current state; changes nothing. Its targets are
    capped, for the view token too (limits.PREVIEW_TARGETS); it is refused a hidden attacker or target (403)."""
    limits.count_preview(body.targets)
    if limits.preview_lane(body.targets) == "preview-big":  # in the pool, away from the reads
        enc = await state.work("encounter", request, state.load, access.row)
        asked = jobs.Asked(body.attacker, body.attack, body.targets, body.placement)
        players = access.role != "gm"
        args = (access.row.id, enc.seq), access.row.fight, enc.events, access.row.name, players, asked, access.own
        found: dict[str, Any] = await state.work("preview-big", request, jobs.preview_job, *args)
        return found

    def answer() -> dict[str, Any]:
        enc = state.load(access.row)
        ask = enc.preview if access.role == "gm" else access.view(enc).preview  # the players': nothing hidden
        found = ask(body.attacker, body.attack, body.targets, body.placement)
        return {"seq": enc.seq, "targets": read_models.exact(found)}

    return await state.work("encounter-preview", request, answer)


@router.get("/v1/encounters/{encounter_id}/events", **ok(list[answers.Event]))
async def events(
    encounter_id: str, request: Request, access: Reader, state: State, after: After = -1
) -> list[dict[str, Any]]:
    """The events after seq `after`, as JSON."""

    def answer() -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = state.the_store().events(encounter_id, after)
        return found if access.role == "gm" else for_view(access.view(state.load(access.row)).events(found))

    found: list[dict[str, Any]] = await state.work("encounter", request, answer)
    return found


@router.get("/v1/encounters/{encounter_id}/events.jsonl", response_class=Response, responses=answers.NDJSON)
async def events_jsonl(encounter_id: str, request: Request, access: Reader, state: State) -> Response:
    """The whole log as `tohit fight --log` writes it (`tohit replay` checks it)."""

    def answer() -> str:
        found = exported(state, access.row)
        if access.role != "gm":
            found = for_view(access.view(state.load(access.row)).events(found))
        return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in chained(found))

    return Response(await state.work("encounter", request, answer), media_type="application/x-ndjson")


@router.patch("/v1/encounters/{encounter_id}", dependencies=[GAME_MASTER], **ok(answers.Renamed))
async def rename(encounter_id: str, body: RenameBody, state: State) -> dict[str, Any]:
    """Rename an encounter (the GM token)."""
    await asyncio.to_thread(state.the_store().rename, encounter_id, body.name)
    state.rows.pop(encounter_id, None)
    return {"id": encounter_id, "name": body.name}


@router.delete("/v1/encounters/{encounter_id}", status_code=204, dependencies=[GAME_MASTER])
async def delete(encounter_id: str, state: State) -> None:
    """Delete an encounter and its events (the GM token)."""
    await asyncio.to_thread(state.the_store().delete, encounter_id)
    state.forget(encounter_id)
    state.fanout.poke(encounter_id)  # its streams end
