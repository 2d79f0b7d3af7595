"""The encounter routes: a fight file and its events in the store, played at the table (create, read, act,
undo, preview, events, stream, delete); a game master's token or a view token (that reads nothing secret)
for each; each action one transaction that appends events with the next seq."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal

from fastapi import FastAPI, Header, Request
from fastapi.responses import Response, StreamingResponse

from tohit import __version__
from tohit.engine.actions import Action, AnyAction, Undo
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained, unfinished_event
from tohit.server import examples
from tohit.server.cache import Lru
from tohit.server.settings import Settings, Work
from tohit.server.shapes import ApiError, CreateBody, DiceBody, MapBody, PreviewBody, UndoBody, _exact, fight_of
from tohit.store.db import StaleSeq, Store, StoredEncounter


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _matches(token: str, stored: str) -> bool:
    return hmac.compare_digest(hash_token(token), stored)


def add_encounter_routes(
    app: FastAPI,
    settings: Settings,
    the_store: Callable[[], Store],
    work: Work,
    cache: Lru[str, Encounter],
    rows: Lru[str, StoredEncounter],
    locks: dict[str, asyncio.Lock],
) -> None:
    """The encounter routes on `app`: the encounters in memory in `cache`, their rows in `rows`, one lock per
    encounter in `locks`."""

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
        role(row, authorization)
        enc = await asyncio.to_thread(load, row)
        return summary(row, enc)

    @app.get("/v1/encounters/{encounter_id}/sheet")
    async def sheet(encounter_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """What a page shows beside the state: the health stat and its word, the sides, each combatant's side,
        attacks and starting stats, and whether it has a map (its game's map rules and a map in its fight)."""
        row = stored(encounter_id)
        role(row, authorization)
        enc = await asyncio.to_thread(load, row)
        return {**enc.sheet(), "map": enc.has_map, "role": role(row, authorization)}

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
        found = await asyncio.to_thread(enc.preview, body.attacker, body.attack, body.targets)
        return {"seq": enc.seq, "targets": _exact(found)}

    @app.get("/v1/encounters/{encounter_id}/events")
    async def events(
        encounter_id: str, after: int = -1, authorization: str | None = Header(default=None)
    ) -> list[dict[str, Any]]:
        """The events after seq `after`, as JSON."""
        row = stored(encounter_id)
        role(row, authorization)
        found: list[dict[str, Any]] = await asyncio.to_thread(the_store().events, encounter_id, after)
        return found

    @app.get(
        "/v1/encounters/{encounter_id}/events.jsonl",
        responses={200: {"content": {"application/x-ndjson": {}}, "description": "One event a line."}},
    )
    async def events_jsonl(encounter_id: str, authorization: str | None = Header(default=None)) -> Response:
        """The whole log as `tohit fight --log` writes it (`tohit replay` checks it)."""
        row = stored(encounter_id)
        role(row, authorization)
        found = await asyncio.to_thread(exported, row)
        text = "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in chained(found))
        return Response(text, media_type="application/x-ndjson")

    @app.get("/v1/encounters/{encounter_id}/stream")
    async def stream(
        encounter_id: str, request: Request, after: int | None = None, authorization: str | None = Header(default=None)
    ) -> StreamingResponse:
        """New events as Server-Sent Events, for live views (the view token is enough)."""
        row = stored(encounter_id)
        role(row, authorization)
        start = the_store().last_seq(encounter_id) if after is None else after

        async def feed() -> AsyncIterator[str]:
            seen = start
            yield f": tohit encounter {encounter_id} from seq {seen}\n\n"
            while not await request.is_disconnected():
                for event in await asyncio.to_thread(the_store().events, encounter_id, seen):
                    seen = int(event["n"])
                    yield f"id: {seen}\nevent: {event['kind']}\ndata: {json.dumps(event)}\n\n"
                await asyncio.sleep(settings.poll)

        return StreamingResponse(feed(), media_type="text/event-stream")

    @app.delete("/v1/encounters/{encounter_id}", status_code=204)
    async def delete(encounter_id: str, authorization: str | None = Header(default=None)) -> None:
        """Delete an encounter and its events (the GM token)."""
        row = stored(encounter_id)
        gm(row, authorization)
        await asyncio.to_thread(the_store().delete, encounter_id)
        cache.pop(encounter_id, None)
        rows.pop(encounter_id, None)
