"""The encounter routes have the request's deadline too. A read past it (aim, preview, dice) is a 503 naming
request-seconds, and its work stops at its next check (between placements, between targets); a client that
hangs up stops it the same way; aim and preview each have a bounded lane (a 429 past it) that the other
reads never wait behind. A write has the deadline only until it starts: one that waits past it for the
encounter's earlier write is a 503 and writes nothing, and one that started runs to its end and is answered.

Nothing here races a stopwatch: the slow work is held on an event the test opens only once the answer it
waits for has come, so the deadline has always passed by then, however loaded the machine."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN
from tests.server.test_server_deadlines import Client, request
from tohit.engine import aim as engine_aim
from tohit.engine import dice_needs
from tohit.engine import plan as engine_plan
from tohit.engine.encounter import Encounter
from tohit.server import admission, jobs
from tohit.server.admission import Admission, ClientGone, Refused
from tohit.server.app import Settings, create_app
from tohit.store.db import open_store

RTW_MAP = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())
#: Long enough for any machine to answer the quick requests of these tests well within it.
SLOW_SECONDS = 1.0
#: The deadline of a write that must start before it (its own reading of the store and its checks on a loaded
#: machine: a CI run's two workers and a browser took more than 1 s once) and then outlive it.
STARTED_SECONDS = 4.0


def app_client(tmp_path: Path, seconds: float) -> TestClient:
    settings = Settings(db=f"sqlite:///{tmp_path / 'tohit.db'}", admin_token=ADMIN, workers=0, request_seconds=seconds)
    return TestClient(create_app(settings), raise_server_exceptions=False)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def within_deadline(send: Callable[[], httpx.Response], tries: int = 5) -> httpx.Response:
    """The answer of a quick request that must not be held, sent again while its answer is the deadline's 503 (at
    most `tries` times): on a machine at load 13-15 a quick request alone once passed SLOW_SECONDS. A deadline's 503
    stores nothing, so sending again is safe; work that is really held would be refused every time."""
    answer = send()
    for _ in range(tries - 1):
        if answer.status_code != 503:
            break
        assert answer.json()["error"]["field"] == "request-seconds", answer.text
        answer = send()
    return answer


def new_encounter(client: TestClient) -> tuple[str, dict[str, str]]:
    made = within_deadline(lambda: client.post("/v1/encounters", json={"name": "camp", "fight": RTW_MAP, "seed": 1}))
    assert made.status_code == 201, made.text
    return made.json()["id"], bearer(made.json()["gm_token"])


class Held:
    """Wraps `real`: once `armed`, its first call waits until `opened` (at most a minute), and every call is
    counted."""

    def __init__(self, real: Callable[..., Any], armed: bool = True) -> None:
        self.real, self.calls, self.armed = real, 0, armed
        self.entered, self.opened = threading.Event(), threading.Event()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self.armed:
            return self.real(*args, **kwargs)
        self.calls += 1
        if self.calls == 1:
            self.entered.set()
            assert self.opened.wait(60)
        return self.real(*args, **kwargs)


class Outcomes:
    """Wraps the server's threaded work (`jobs.watched_call`): how each one ended (the exception's type name,
    or "answered"), and an event set when one has ended."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real, self.ended, self.seen = real, threading.Event(), list[str]()

    def forget(self) -> None:
        """From here on: what came before (creating the encounter runs in the server's threads too) is dropped."""
        self.seen.clear()
        self.ended.clear()

    def __call__(self, *args: Any) -> Any:
        try:
            found = self.real(*args)
        except BaseException as exc:
            self.seen.append(type(exc).__name__)
            raise
        else:
            self.seen.append("answered")
        finally:
            self.ended.set()
        return found


@pytest.fixture
def outcomes(monkeypatch: pytest.MonkeyPatch) -> Outcomes:
    found = Outcomes(jobs.watched_call)
    monkeypatch.setattr(jobs, "watched_call", found)
    return found


def assert_deadline(answer: httpx.Response) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.headers["retry-after"] == "1"
    error = answer.json()["error"]
    assert error["field"] == "request-seconds"
    assert "--request-seconds" in error["message"]


@pytest.mark.parametrize("route", ["aim", "preview", "dice"])
def test_encounter_read_past_its_deadline_is_a_503_and_its_work_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outcomes: Outcomes, route: str
) -> None:
    """The first placement (aim), target (preview) or try of the attack (the dice route's probes) is held until
    the 503 has come: the loop's next check stops the work, so the held step is the last one done (aim's
    Fireball has many placements, the preview names three targets, the dice have many probes)."""
    with app_client(tmp_path, SLOW_SECONDS) as c:
        eid, gm = new_encounter(c)
        outcomes.forget()
        if route == "aim":
            held = Held(engine_aim.reach)
            monkeypatch.setattr(engine_aim, "reach", held)
            body: dict[str, Any] = {"attacker": "Zelda", "attack": "Fireball"}
        elif route == "preview":
            held = Held(engine_plan.outcome_table)
            monkeypatch.setattr(engine_plan, "outcome_table", held)
            body = {"attacker": "Link", "attack": "Strike", "targets": ["Bokoblin", "Bokoblin Archer", "Moblin"]}
        else:
            held = Held(dice_needs._outcome)
            monkeypatch.setattr(dice_needs, "_outcome", held)
            body = {"attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]}
        late = c.post(f"/v1/encounters/{eid}/{route}", json=body, headers=gm)
        assert_deadline(late)
        held.opened.set()
        assert outcomes.ended.wait(60)
        assert outcomes.seen == ["Cancelled"]
        assert held.calls <= 1  # nothing after the held step: the work stopped, not only its answer
        # The lane's slot is free again: the same read, not held now, is answered.
        again = within_deadline(lambda: c.post(f"/v1/encounters/{eid}/{route}", json=body, headers=gm))
        assert again.status_code == 200, again.text


def test_encounter_read_the_lane_of_aims_is_bounded_and_other_reads_pass_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One aim running and none may wait (the lane made small): a second aim is a 429 with Retry-After at
    once, and the encounter's sheet, map and a preview are answered while the aim still runs."""
    monkeypatch.setattr(admission, "ENCOUNTER_HEAVY_RUNNING", 1)
    monkeypatch.setattr(admission, "ENCOUNTER_HEAVY_WAITING", 0)
    held = Held(engine_aim.reach)
    monkeypatch.setattr(engine_aim, "reach", held)
    answers: list[httpx.Response] = []
    body = {"attacker": "Zelda", "attack": "Fireball"}
    with app_client(tmp_path, 600) as c:
        eid, gm = new_encounter(c)
        first = threading.Thread(
            target=lambda: answers.append(c.post(f"/v1/encounters/{eid}/aim", json=body, headers=gm))
        )
        first.start()
        try:
            assert held.entered.wait(60)
            refused = c.post(f"/v1/encounters/{eid}/aim", json=body, headers=gm)
            assert c.get(f"/v1/encounters/{eid}/sheet", headers=gm).status_code == 200
            mapped = c.post(f"/v1/encounters/{eid}/map", json={"attacker": "Link"}, headers=gm)
            assert mapped.status_code == 200, mapped.text
            preview = {"attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]}
            assert c.post(f"/v1/encounters/{eid}/preview", json=preview, headers=gm).status_code == 200
            assert first.is_alive()  # all answered while the aim still ran
        finally:
            held.opened.set()
            first.join(60)
    assert refused.status_code == 429, refused.text
    assert refused.headers["retry-after"] == "1"
    assert "encounter-aim requests are running" in refused.json()["error"]["message"]
    (answered,) = answers
    assert answered.status_code == 200, answered.text
    assert answered.json()["best"]


def test_encounter_read_the_dice_route_runs_in_the_lane_of_previews(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dice route's probes run as a preview does: one held in the lane made small, a preview is a 429 naming
    that lane, while the encounter's sheet (the wide lane) is answered."""
    monkeypatch.setattr(admission, "ENCOUNTER_HEAVY_RUNNING", 1)
    monkeypatch.setattr(admission, "ENCOUNTER_HEAVY_WAITING", 0)
    held = Held(dice_needs._outcome)
    monkeypatch.setattr(dice_needs, "_outcome", held)
    answers: list[httpx.Response] = []
    body = {"attacker": "Link", "attack": "Strike", "targets": ["Bokoblin"]}
    with app_client(tmp_path, 600) as c:
        eid, gm = new_encounter(c)
        first = threading.Thread(
            target=lambda: answers.append(c.post(f"/v1/encounters/{eid}/dice", json=body, headers=gm))
        )
        first.start()
        try:
            assert held.entered.wait(60)
            refused = c.post(f"/v1/encounters/{eid}/preview", json=body, headers=gm)
            assert c.get(f"/v1/encounters/{eid}/sheet", headers=gm).status_code == 200
            assert first.is_alive()
        finally:
            held.opened.set()
            first.join(60)
    assert refused.status_code == 429, refused.text
    assert "encounter-preview requests are running" in refused.json()["error"]["message"]
    (answered,) = answers
    assert answered.status_code == 200, answered.text


def test_encounter_read_a_client_that_hangs_up_stops_its_aim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, outcomes: Outcomes
) -> None:
    """An aim whose client hangs up (its `receive` answers a disconnect once the aim is under way) is
    stopped at its next check: the held placement is the last one tried."""
    store = open_store(f"sqlite:///{tmp_path / 'tohit.db'}")
    app = create_app(Settings(admin_token=ADMIN, workers=0, request_seconds=600), store=store)
    held = Held(engine_aim.reach)

    async def scene() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://tohit") as c:
            made = (await c.post("/v1/encounters", json={"name": "camp", "fight": RTW_MAP, "seed": 1})).json()
        outcomes.forget()
        monkeypatch.setattr(engine_aim, "reach", held)
        body = b'{"attacker": "Zelda", "attack": "Fireball"}'
        gone = asyncio.Event()
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            if not sent:
                sent.append({})
                return {"type": "http.request", "body": body, "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"authorization", f"Bearer {made['gm_token']}".encode()),
        ]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": f"/v1/encounters/{made['id']}/aim",
            "raw_path": f"/v1/encounters/{made['id']}/aim".encode(),
            "query_string": b"",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("tohit", 80),
        }
        asked = asyncio.ensure_future(app(scope, receive, send))
        assert await asyncio.to_thread(held.entered.wait, 60)
        gone.set()
        await asyncio.wait_for(asked, 60)  # answered (to nobody) while the placement is still held
        assert not outcomes.ended.is_set()
        held.opened.set()
        assert await asyncio.to_thread(outcomes.ended.wait, 60)

    asyncio.run(scene())
    assert outcomes.seen == ["Cancelled"]
    assert held.calls == 1


# -- writes ----------------------------------------------------------------------------------------------------------
@pytest.fixture
def held_act(monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    """Once armed, the encounter's next action is held (in its thread, under the encounter's lock)."""
    held = Held(Encounter.act, armed=False)
    monkeypatch.setattr(Encounter, "act", lambda self, *a, **k: held(self, *a, **k))
    yield held
    held.opened.set()


def test_encounter_write_waiting_past_its_deadline_is_a_503_and_writes_nothing(tmp_path: Path, held_act: Held) -> None:
    """A write holds the encounter's lock (its step held); a second write waits for the lock past its deadline:
    a 503 naming request-seconds, and nothing of it is ever written. The first, started before, runs on past
    the deadline and is answered (its events stored)."""
    answers: list[httpx.Response] = []
    with app_client(tmp_path, SLOW_SECONDS) as c:
        eid, gm = new_encounter(c)
        before = c.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"]
        held_act.armed = True
        url = f"/v1/encounters/{eid}/actions"
        first = threading.Thread(target=lambda: answers.append(c.post(url, json={"kind": "end_turn"}, headers=gm)))
        first.start()
        try:
            assert held_act.entered.wait(60)
            late = c.post(url, json={"kind": "end_turn"}, headers=gm)
            assert_deadline(late)
            assert "nothing was written" in late.json()["error"]["message"]
        finally:
            held_act.opened.set()
            first.join(60)
        (started,) = answers
        assert started.status_code == 201, started.text  # started before its deadline: finished and answered
        assert held_act.calls == 1  # the refused write never played its action
        written = c.get(f"/v1/encounters/{eid}/events", params={"after": before}, headers=gm).json()
        assert [e["n"] for e in written] == list(range(before + 1, started.json()["seq"] + 1))
        assert c.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"] == started.json()["seq"]
        # The lock is free again: the next write lands.
        assert c.post(url, json={"kind": "end_turn"}, headers=gm).status_code == 201


def test_encounter_write_that_started_finishes_past_its_deadline_and_is_acknowledged(
    tmp_path: Path, held_act: Held
) -> None:
    """A write whose step runs past the deadline (held until a read, past that deadline, has been refused)
    is answered 201 and stored: the deadline does not reach a write once it has started."""
    answers: list[httpx.Response] = []
    with app_client(tmp_path, STARTED_SECONDS) as c:
        eid, gm = new_encounter(c)
        url = f"/v1/encounters/{eid}/undo"
        c.post(f"/v1/encounters/{eid}/actions", json={"kind": "end_turn"}, headers=gm)
        held_act.armed = True
        first = threading.Thread(target=lambda: answers.append(c.post(url, headers=gm)))
        first.start()
        try:
            assert held_act.entered.wait(60)
            # A write waiting for the lock outlives the deadline only by being refused: the deadline has passed.
            assert_deadline(c.post(f"/v1/encounters/{eid}/actions", json={"kind": "end_turn"}, headers=gm))
        finally:
            held_act.opened.set()
            first.join(60)
        (undone,) = answers
        assert undone.status_code == 201, undone.text
        assert undone.json()["events"][-1]["kind"] == "undo"
        assert c.get(f"/v1/encounters/{eid}", headers=gm).json()["seq"] == undone.json()["seq"]


# -- the write's gate, in one process -------------------------------------------------------------------------------
def never(*args: Any) -> Any:
    raise AssertionError("a write refused before it started was played")


def test_encounter_write_gate_past_the_deadline_for_the_lock_writes_nothing() -> None:
    """The lock held by the test: the write is a 503 naming the cap, its work never runs, and the lock is
    still the test's (the refused write neither took nor freed it)."""

    async def scene() -> None:
        gate = Admission(None, 0, seconds=0.2)
        lock = asyncio.Lock()
        await lock.acquire()
        with pytest.raises(Refused) as refused:
            await gate.write(request(Client()), lock, never)
        assert refused.value.status == 503 and refused.value.field == "request-seconds"
        assert "nothing was written" in refused.value.message
        assert lock.locked()
        lock.release()
        assert await gate.write(request(Client()), lock, lambda: "written") == "written"
        assert not lock.locked()
        gate.close()

    asyncio.run(scene())


def test_encounter_write_gate_a_client_gone_while_waiting_writes_nothing() -> None:
    async def scene() -> None:
        gate = Admission(None, 0, seconds=600)
        lock, client = asyncio.Lock(), Client()
        await lock.acquire()
        waiting = asyncio.ensure_future(gate.write(request(client), lock, never))
        await asyncio.sleep(0)
        client.hang_up()
        with pytest.raises(ClientGone):
            await waiting
        assert lock.locked()  # still the test's
        gate.close()

    asyncio.run(scene())


def test_encounter_write_gate_a_started_write_keeps_the_lock_until_its_thread_ends() -> None:
    """Its awaiting cancelled (the server ending, say) while its step runs: the step runs on, the lock stays
    taken until it ends (no second write may start beside it), and its result is the step's."""
    step = Held(lambda: "written")

    async def scene() -> None:
        gate = Admission(None, 0, seconds=0.2)
        lock = asyncio.Lock()
        running = asyncio.ensure_future(gate.write(request(Client()), lock, step))
        assert await asyncio.to_thread(step.entered.wait, 60)
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
        assert lock.locked()  # a started write is not stopped, and holds the lock while it runs
        step.opened.set()
        async with asyncio.timeout(60):
            async with lock:  # free once the step has ended
                pass
        gate.close()

    asyncio.run(scene())


def test_encounter_create_past_its_deadline_is_a_503_and_nothing_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Creating an encounter (loading its fight, its start events) has the deadline until the store's write starts:
    held past it, the answer is a 503 naming request-seconds and no encounter is stored; the next create lands."""
    held = Held(Encounter.create)
    monkeypatch.setattr(Encounter, "create", held)
    with app_client(tmp_path, SLOW_SECONDS) as c:
        late = c.post("/v1/encounters", json={"name": "camp", "fight": RTW_MAP, "seed": 1})
        assert_deadline(late)
        held.opened.set()
        held.armed = False
        assert c.get("/v1/encounters", headers=bearer(ADMIN)).json() == []
        new_encounter(c)
        assert len(c.get("/v1/encounters", headers=bearer(ADMIN)).json()) == 1


def test_encounter_list_past_its_deadline_is_a_503(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The admin's list reads its page of encounters, within the deadline: held past it, a 503 naming
    request-seconds."""
    from tohit.store.db import Store

    held = Held(Store.all)

    def all_rows(self: Store, *page: Any) -> Any:
        return held(self, *page)

    monkeypatch.setattr(Store, "all", all_rows)
    with app_client(tmp_path, SLOW_SECONDS) as c:
        held.armed = False
        new_encounter(c)
        held.armed = True
        assert_deadline(c.get("/v1/encounters", headers=bearer(ADMIN)))
        held.opened.set()
        held.armed = False
        assert len(c.get("/v1/encounters", headers=bearer(ADMIN)).json()) == 1
