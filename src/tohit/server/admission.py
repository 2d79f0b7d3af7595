"""How the server runs CPU work: every request has a deadline, work is stopped when its
client hangs up or its deadline passes, and each kind of work goes through its own bounded lane.

- A lane runs at most `running` requests of its kind at once and lets at most `waiting` more wait; past that,
  a 429 with `Retry-After`, before any work.
- Small work (a roll: one resolution per target, within the dice caps) runs in the server's own threads, in
  its own lane: it never waits behind heavy work. Heavy work (odds, simulations, aim, fights) runs in the
  process pool.
- Over the deadline (`tohit serve --request-seconds`): a 503 naming the cap, and the work is stopped in its
  worker (`engine/cancel.py`: the worker is free at its next check, not when the work would have ended).
  A client that hangs up has its work stopped the same way.
- Encounter reads run in the server's threads (the encounter is in this process's memory), in lanes of
  their own: aim and preview (the dice route, which plans the attack as a preview does, with it) each in a
  small one, the other reads in a wide one. A preview of many targets runs in the process pool instead
  ("preview-big": the worker rebuilds the encounter from its events), so that no read shares the interpreter
  with it; when every worker already has work, it is a 429 with Retry-After at once rather than a wait behind
  that work. Their loops check the same way (between placements, targets, turns played), so a read past its
  deadline stops.
- An encounter's writes (actions, undo) have the deadline only before they start: a write that waits past it
  for the encounter's earlier writes is a 503 and writes nothing. Once started, a write (one action: bounded
  work) runs to its end and is answered; it is never answered with an error and then stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from tohit.engine.pool import HealingPool
from tohit.server import jobs
from tohit.server.errors import error_body
from tohit.server.limits import (
    ENCOUNTER_HEAVY_RUNNING,
    ENCOUNTER_HEAVY_WAITING,
    ENCOUNTER_READ_RUNNING,
    ENCOUNTER_READ_WAITING,
    SMALL_RUNNING,
    SMALL_WAITING,
    WAITING_PER_WORKER,
)


class Refused(Exception):
    """A request refused for the server's sake, not its input's: its status, message, field and Retry-After."""

    def __init__(self, status: int, message: str, field: str | None, retry_after: int = 1) -> None:
        super().__init__(message)
        self.status, self.message, self.field, self.retry_after = status, message, field, retry_after


class ClientGone(Exception):
    """The client hung up before its answer was ready."""


@dataclass
class Lane:
    """One kind of work: how many run at once, how many may wait, and whether it runs in the server's threads."""

    kind: str
    running: int
    waiting: int
    inline: bool
    admitted: int = 0
    #: Requests of this kind running now (a stopped one counts until its worker has really stopped).
    busy: int = 0
    _free: asyncio.Semaphore | None = field(default=None, repr=False)

    def free(self) -> asyncio.Semaphore:
        if self._free is None:
            self._free = asyncio.Semaphore(self.running)
        return self._free


#: The kinds of heavy work (routes that run in the pool); "roll" is the small kind, "roll-big" a roll of many
#: targets (`limits.roll_lane`), "preview-big" an encounter's preview of many targets (`limits.preview_lane`).
HEAVY = ("roll-big", "preview-big", "odds", "simulate", "aim", "fights-simulate", "fights-exact", "picture")
#: The encounter reads that run in the pool: refused (a 429 with Retry-After) rather than queued behind heavy work
#: when every worker is busy.
READS_IN_POOL = ("preview-big",)
#: The kinds of encounter reads, run in the server's threads: the heavy two (the dice route, which plans the
#: attack, runs as a preview), and the rest ("encounter").
ENCOUNTER_HEAVY = ("encounter-aim", "encounter-preview")


class Admission:
    """The lanes of one server, its thread pool for small work, and its process pool (None: threads only)."""

    def __init__(self, pool: HealingPool | None, workers: int, seconds: float) -> None:
        self.pool, self.seconds, self.workers = pool, seconds, workers
        heavy_running = max(1, workers)
        self.lanes = {"roll": Lane("roll", SMALL_RUNNING, SMALL_WAITING, inline=True)} | {
            kind: Lane(kind, heavy_running, WAITING_PER_WORKER * heavy_running, inline=pool is None) for kind in HEAVY
        }
        self.lanes |= {
            kind: Lane(kind, ENCOUNTER_HEAVY_RUNNING, ENCOUNTER_HEAVY_WAITING, True) for kind in ENCOUNTER_HEAVY
        }
        self.lanes["encounter"] = Lane("encounter", ENCOUNTER_READ_RUNNING, ENCOUNTER_READ_WAITING, inline=True)
        self.threads = ThreadPoolExecutor(sum(lane.running for lane in self.lanes.values() if lane.inline))
        #: Requests whose work was stopped (a client gone or a deadline passed), for tests and logs.
        self.stopped = 0

    def pool_busy(self) -> bool:
        """Whether the process pool has as much work as it has workers (a read sent now would wait behind it)."""
        if self.pool is None:
            return False
        return sum(lane.busy for lane in self.lanes.values() if not lane.inline) >= self.workers

    def close(self) -> None:
        self.threads.shutdown(wait=False, cancel_futures=True)

    async def run(self, kind: str, request: Request, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in its lane, within the deadline, stopped when the client hangs up."""
        lane = self.lanes[kind]
        if kind in READS_IN_POOL and self.pool_busy():
            raise Refused(
                429,
                f"the server's {self.workers} pool workers are all busy with heavy work, which this read would wait"
                " behind: try again shortly",
                None,
            )
        if lane.admitted >= lane.running + lane.waiting:
            raise Refused(
                429,
                f"{lane.running} {kind} requests are running and {lane.waiting} waiting, the most this server takes"
                " at once: try again shortly",
                None,
            )
        lane.admitted += 1
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            async with asyncio.timeout(self.seconds):
                await _first(lane.free().acquire(), gone, on_late=lane.free().release)
                return await self._started(lane, gone, fn, args)
        except TimeoutError:
            raise Refused(
                503,
                f"the request passed its deadline of {self.seconds:g} s, the cap request-seconds (tohit serve"
                " --request-seconds); its work was stopped: ask for less, or try again when the server is less busy",
                "request-seconds",
            ) from None
        finally:
            gone.cancel()
            lane.admitted -= 1

    async def write(self, request: Request, lock: asyncio.Lock, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` (a write) once `lock` is taken, within the deadline only until then: past it (or when the
        client hangs up first) nothing is written. Once started it runs to its end in a thread and holds the
        lock until that thread ends, even when its answer is no longer awaited."""
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            async with asyncio.timeout(self.seconds):
                await _first(lock.acquire(), gone, on_late=lock.release)
        except TimeoutError:
            raise Refused(
                503,
                f"the action waited past its deadline of {self.seconds:g} s, the cap request-seconds (tohit serve"
                " --request-seconds), for the encounter's earlier actions to end; nothing was written: try again",
                "request-seconds",
            ) from None
        finally:
            gone.cancel()
        try:
            future = asyncio.get_running_loop().run_in_executor(None, functools.partial(fn, *args))
        except BaseException:
            lock.release()
            raise
        future.add_done_callback(lambda _: lock.release())
        return await asyncio.shield(future)

    async def _started(self, lane: Lane, gone: asyncio.Future[None], fn: Callable[..., Any], args: Any) -> Any:
        """The work started (the lane's slot taken), its answer awaited; stopped when the wait ends without it."""
        loop = asyncio.get_running_loop()
        stop: Callable[[], None]
        try:
            if lane.inline:
                asked = threading.Event()
                future: Future[Any] = self.threads.submit(jobs.watched_call, asked.is_set, fn, *args)
                stop = asked.set
            else:
                assert self.pool is not None
                future = self.pool.submit(fn, *args)
                pool, submitted = self.pool, future
                stop = lambda: pool.stop_work(submitted)  # noqa: E731
        except BaseException:
            lane.free().release()
            raise
        lane.busy += 1

        def done(_: Future[Any]) -> None:
            def release() -> None:
                lane.busy -= 1
                lane.free().release()

            with contextlib.suppress(RuntimeError):  # the loop has closed: the server is ending
                loop.call_soon_threadsafe(release)

        future.add_done_callback(done)
        try:
            return await _first(asyncio.wrap_future(future), gone)
        except BaseException:
            if not future.done():
                stop()
                self.stopped += 1
            raise


async def _first(work: Awaitable[Any], gone: asyncio.Future[None], on_late: Callable[[], Any] | None = None) -> Any:
    """`work`'s result, unless the client hangs up first (`ClientGone`; `work` is cancelled, and when it had
    finished all the same, `on_late` undoes it). The wait may itself be cancelled (the deadline passing): `work`
    is cancelled too, or, when it finished just as the deadline came, `on_late` undoes it all the same (a lane's
    slot taken at that moment is given back, not kept by a request that has gone)."""
    task = asyncio.ensure_future(work)
    answered = False
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
        if task.done() and not task.cancelled() and not gone.done():
            answered = True
            return task.result()
    finally:
        if not answered:
            if not task.done():
                task.cancel()
            elif on_late is not None and not task.cancelled() and task.exception() is None:
                on_late()
    raise ClientGone()


async def _disconnected(request: Request) -> None:
    """Returns when the client has hung up (the body has been read already: what comes next is the end)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def install(app: FastAPI) -> None:
    """The answers to `Refused` (its status, with Retry-After) and to a client gone (nobody reads it)."""

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)}
        return JSONResponse(error_body(exc.message, exc.field), status_code=exc.status, headers=headers)

    @app.exception_handler(ClientGone)
    async def _gone(request: Request, exc: ClientGone) -> JSONResponse:
        return JSONResponse(error_body("the client hung up; its work was stopped"), status_code=503)
