"""The caps of `tohit serve` as they are checked: a request over one is a 422 naming the field and the cap, before
any work. The caps set by a flag, with their defaults, live in server/settings.py (their one home); the ones here
are plain named constants of the server's own (no flag): the lanes, the previews, the admin list's page.

The body cap (`--max-body`, server/settings.py): a body over it is refused with a 413 naming the cap before any
route reads it, whether its size is announced (`Content-Length`) or it comes in chunks without one (then it is
counted as it arrives, never kept past the cap).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tohit.core.errors import InputError
from tohit.engine import requests

#: Targets of one preview or dice request (read with a view token too), and characters of each target's name.
PREVIEW_TARGETS = 50
PREVIEW_NAME = 200
#: A roll of at most this many targets is small work, run in the server's threads; a larger one runs in the process
#: pool (lane "roll-big"), so that anonymous big rolls never hold the interpreter the encounter reads share.
SMALL_ROLL_TARGETS = 4
#: Small requests (rolls) run at once in the server's threads, and wait in line past them.
SMALL_RUNNING, SMALL_WAITING = 4, 64
#: Heavy requests of one kind wait in line, per pool worker, past those running (one per worker).
WAITING_PER_WORKER = 4
#: Encounter reads that weigh placements or targets (aim, preview) run in the server's threads (an encounter
#: lives in the server's memory, not in the pool), two of each kind at once: threads share one interpreter, so
#: more CPU-bound ones at once add no speed, only split it and bring each nearer its deadline, while two let a
#: short one pass beside a long one. Eight wait past them (their work is one deadline at most each); past
#: that, a 429. Being bounded, they never take the threads the other encounter reads run in.
ENCOUNTER_HEAVY_RUNNING, ENCOUNTER_HEAVY_WAITING = 2, 8
#: Other encounter reads (state, sheet, map, dice, events): small work, many at once, a long line.
ENCOUNTER_READ_RUNNING, ENCOUNTER_READ_WAITING = 4, 256

#: Pictures kept made (each an encoded image within the pixels tohit decodes: a few MB at most).
KEPT_PICTURES = 16

#: Encounters on one page of the admin's list (`GET /v1/encounters?limit=`): each is read whole to say where it
#: stands, so a page is bounded work however many the store holds.
LIST_PAGE = 200

#: Methods whose request may carry a body.
WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def over_body_cap(limit: int) -> JSONResponse:
    """The 413 (Content Too Large) of a body over the cap, in the error shape of every other error: at once from
    its Content-Length, else as soon as the chunks pass it."""
    message = f"the body is over the cap of {limit:,} bytes (max_body: tohit serve --max-body)"
    return JSONResponse({"error": {"source": None, "field": "body", "message": message}}, status_code=413)


class BodyCap:
    """Pure ASGI middleware: requests with a body over `limit` bytes get `over_body_cap`."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in WITH_BODY:
            await self.app(scope, receive, send)
            return
        size = dict(scope["headers"]).get(b"content-length")
        if size is not None:  # announced: the server reads no more than it says
            if not size.isdigit() or int(size) > self.limit:
                await over_body_cap(self.limit)(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        total = 0
        while True:  # chunked: counted as it comes
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body: bytes = message.get("body", b"")
            total += len(body)
            if total > self.limit:
                await over_body_cap(self.limit)(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        await self.app(scope, replay_body(b"".join(chunks), receive), send)


def replay_body(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the body read already, then what the client sends next (a disconnect)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            found: dict[str, Any] = {"type": "http.request", "body": body, "more_body": False}
            return found
        return await receive()

    return again


def over(what: str, value: int, name: str, limit: int, field: str | None = None, flag: bool = True) -> InputError:
    """The 422 of a request over a cap: the value, the cap's name (and its flag), naming `field` (or the cap)."""
    where = f" (tohit serve --{name})" if flag else ""
    return InputError(f"{what} {value:,} is over the cap {name} = {limit:,}{where}", field=field or name)


def preview_lane(targets: list[str]) -> str:
    """The lane of an encounter's preview: its own in the server's threads ("encounter-preview") for at most
    SMALL_ROLL_TARGETS targets, else "preview-big" (the process pool): the exact odds of many targets never hold
    the interpreter the encounter reads share."""
    return "preview-big" if len(targets) > SMALL_ROLL_TARGETS else "encounter-preview"


def roll_lane(scenario: Mapping[str, Any]) -> str:
    """The lane of a roll: "roll" (small work, the server's threads) for at most SMALL_ROLL_TARGETS targets as
    given, else "roll-big" (the process pool)."""
    targets = scenario.get("targets")
    many = isinstance(targets, list) and len(targets) > SMALL_ROLL_TARGETS
    return "roll-big" if many else "roll"


def cap(value: int | None, limit: int, name: str, what: str) -> None:
    """A request's `what` within the cap `name` (its flag): past it, the 422 of `over`."""
    if value is not None and value > limit:
        raise over(what, value, name, limit)


def depth_cap(depth: int | None, data: Mapping[str, Any], limit: int) -> None:
    """The open-roll depth asked for, in the request or in the scenario's or fight's own options (an encounter's
    too): within max-depth."""
    cap(depth, limit, "max-depth", "depth")
    options = data.get("options")
    given = options.get("depth") if isinstance(options, dict) else None
    if isinstance(given, int) and not isinstance(given, bool):
        cap(given, limit, "max-depth", "options.depth")


def names_cap(data: Mapping[str, Any]) -> None:
    """Every name in the fight within MAX_NAME characters (a 422 naming where the long one is)."""
    found = long_name(data)
    if found is not None:
        where, length = found
        raise InputError(f"a name of {length:,} characters, over the cap of {MAX_NAME}", field=where)


def count_targets(scenario: Mapping[str, Any], limit: int) -> None:
    """A scenario's targets, counted as given (before it is loaded): at most `limit`."""
    targets = scenario.get("targets")
    if isinstance(targets, list) and len(targets) > limit:
        raise over("the scenario's targets number", len(targets), "max-targets", limit, "targets")


def count_combatant_fights(fight: Mapping[str, Any], n: int, limit: int) -> None:
    """A fight simulation's fights x combatants (counted as given, before it is loaded): at most `limit`."""
    sides = fight.get("sides")
    combatants = 0
    if isinstance(sides, list):
        for side in sides:
            found = side.get("combatants") if isinstance(side, dict) else None
            combatants += len(found) if isinstance(found, list) else 0
    if combatants * n > limit:
        raise over(f"n {n:,} x {combatants} combatants:", combatants * n, "max-combatant-fights", limit, "n")


def count_preview(targets: Collection[str], field: str = "targets", of: str = "the preview's") -> None:
    """A preview's targets (a view token may ask one), or those of another encounter read as heavy (`of`; named
    by its `field`): at most PREVIEW_TARGETS names of PREVIEW_NAME characters."""
    if len(targets) > PREVIEW_TARGETS:
        raise over(f"{of} {field} number", len(targets), "preview-targets", PREVIEW_TARGETS, field, False)
    longest = max((len(name) for name in targets), default=0)
    if longest > PREVIEW_NAME:
        raise over("a target's name has characters:", longest, "preview-name", PREVIEW_NAME, field, False)


#: The longest name the server takes (a combatant's, a side's, an attack's, a stat's...), in characters.
MAX_NAME = requests.MAX_NAME


def long_name(data: Any, limit: int = MAX_NAME) -> tuple[str, int] | None:
    """The first name in `data` (a request's fight or scenario) longer than `limit`: where it is (`sides[0].name`)
    and its length; a name is the value of a `name` field, or any mapping's key. None when every name fits."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and len(key) > limit:
                    return f"{where or 'the top'}: a key", len(key)
                path = f"{where}.{key}" if where else str(key)
                if key == "name" and isinstance(item, str) and len(item) > limit:
                    return path, len(item)
                stack.append((item, path))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i}]") for i, item in enumerate(value))
    return None


class CreationRate:
    """At most `per_minute` encounters created a minute per client address, as a token
    bucket: `per_minute` at once, then one more each 60 / per_minute seconds. A time limit that only refuses
    (a 429 with Retry-After); what is created is never changed by it. Addresses whose bucket is full again
    are forgotten, so the table stays small."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def take(self, address: str, now: float) -> float | None:
        """One creation for `address` at `now` (seconds): None when allowed, else the seconds until it is."""
        rate = self.per_minute / 60.0
        tokens, when = self.buckets.get(address, (float(self.per_minute), now))
        tokens = min(float(self.per_minute), tokens + (now - when) * rate)
        if tokens < 1.0:
            self.buckets[address] = (tokens, now)
            return (1.0 - tokens) / rate
        self.buckets[address] = (tokens - 1.0, now)
        if len(self.buckets) > 10_000:
            self.forget(now)
        return None

    def forget(self, now: float) -> None:
        """Drop the addresses whose bucket has filled up again since their last creation."""
        rate = self.per_minute / 60.0
        full = [a for a, (t, w) in self.buckets.items() if t + (now - w) * rate >= self.per_minute]
        for address in full:
            del self.buckets[address]
