"""Issue 28, item 2: admission (a bounded lane per kind of work, small work in its own lane: a 429 with
Retry-After past a lane) and caps on work, not only on the body (targets, targets x dice, fights x combatants,
the answer's size, the preview's targets): each a 422 naming the field and the cap, before any work."""

from __future__ import annotations

import asyncio
import copy
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.conftest import ADMIN
from tests.server.test_server_deadlines import Client, Loop, request
from tohit.engine import cancel
from tohit.server import admission, jobs, limits
from tohit.server.admission import Admission, Refused
from tohit.server.app import Settings, create_app

CEIL = yaml.safe_load((EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text())
DUEL = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
RTW_MAP = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())


def app_client(tmp_path: Path, **options: Any) -> TestClient:
    settings = Settings(db=f"sqlite:///{tmp_path / 'tohit.db'}", admin_token=ADMIN, **options)
    return TestClient(create_app(settings), raise_server_exceptions=False)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path, workers=0) as c:
        yield c


def no_work(*args: Any) -> Any:
    raise AssertionError("a request over a cap reached its work")


def with_targets(count: int) -> dict[str, Any]:
    scenario = copy.deepcopy(CEIL)
    scenario["targets"] = [{**CEIL["targets"][0], "name": f"Bandit {i}"} for i in range(count)]
    return scenario


def assert_cap(answer: httpx.Response, field: str, cap: str) -> None:
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["field"] == field, error
    assert cap in error["message"], error


# -- admission -----------------------------------------------------------------------------------------------------
def spin_job(*args: Any) -> dict[str, Any]:
    """Heavy work in a pool worker: minutes of chunks, checked between chunks."""
    for _ in range(60_000):
        cancel.check()
        time.sleep(0.01)
    return {}


def test_admission_a_roll_is_answered_while_heavy_work_holds_every_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One pool worker, busy with minutes of fight simulation: a roll does not wait for it (its own lane)."""
    monkeypatch.setattr(jobs, "fights_simulate_job", spin_job)
    answers: list[httpx.Response] = []
    with app_client(tmp_path, workers=1, request_seconds=8) as c:
        heavy = threading.Thread(
            target=lambda: answers.append(c.post("/v1/fights/simulate", json={"fight": DUEL, "n": 10}))
        )
        heavy.start()
        time.sleep(1.0)  # the worker has taken it
        rolled = c.post("/v1/roll", json={"scenario": CEIL, "seed": 3})
        assert rolled.status_code == 200, rolled.text
        assert heavy.is_alive()  # answered while the heavy one still runs
        heavy.join(60)
    (late,) = answers
    assert late.status_code == 503 and late.json()["error"]["field"] == "request-seconds"


class Gate:
    """A roll job that waits (checking for cancellation) until the gate opens."""

    def __init__(self) -> None:
        self.entered, self.opened = threading.Event(), threading.Event()

    def __call__(self, *args: Any) -> dict[str, Any]:
        self.entered.set()
        while not self.opened.wait(0.01):
            cancel.check()
        return {"gate": "open"}


def test_admission_past_a_lane_is_a_429_with_retry_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    monkeypatch.setattr(jobs, "roll_job", gate)
    monkeypatch.setattr(admission, "SMALL_RUNNING", 1)
    monkeypatch.setattr(admission, "SMALL_WAITING", 0)
    answers: list[httpx.Response] = []
    with app_client(tmp_path, workers=0) as c:
        first = threading.Thread(target=lambda: answers.append(c.post("/v1/roll", json={"scenario": CEIL})))
        first.start()
        assert gate.entered.wait(20)
        refused = c.post("/v1/roll", json={"scenario": CEIL})
        gate.opened.set()
        first.join(20)
    assert refused.status_code == 429, refused.text
    assert refused.headers["retry-after"] == "1"
    assert "roll requests are running" in refused.json()["error"]["message"]
    (answered,) = answers
    assert answered.json() == {"gate": "open"}


def test_admission_a_lane_holds_its_running_and_waiting_then_refuses() -> None:
    """Per kind: `running` at once, `waiting` more in line, the next refused; other kinds are not affected."""
    loops = [Loop() for _ in range(3)]

    async def scene() -> None:
        lanes = Admission(None, 0, seconds=600)
        lanes.lanes["odds"].running, lanes.lanes["odds"].waiting = 1, 1
        lanes.lanes["odds"]._free = None
        clients = [Client() for _ in loops]
        tasks = [
            asyncio.ensure_future(lanes.run("odds", request(cl), work)) for cl, work in zip(clients, loops, strict=True)
        ]
        while loops[0].chunks < 2:
            await asyncio.sleep(0.01)
        with pytest.raises(Refused) as refused:
            await tasks[2]
        assert refused.value.status == 429
        assert loops[1].chunks == 0  # waiting, not running
        assert lanes.lanes["odds"].admitted == 2
        for cl in clients[:2]:
            cl.hang_up()
        await asyncio.gather(*tasks[:2], return_exceptions=True)
        lanes.close()

    asyncio.run(scene())
    assert loops[0].ended.wait(20)


# -- caps on work --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/v1/roll", "/v1/odds", "/v1/simulate"])
def test_admission_targets_over_max_targets_are_a_422_before_any_work(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    for name in ("roll_job", "odds_job", "simulate_job"):
        monkeypatch.setattr(jobs, name, no_work)
    answer = client.post(path, json={"scenario": with_targets(Settings.max_targets + 1), "n": 10})
    assert_cap(answer, "targets", "max-targets = 100 (tohit serve --max-targets)")


def test_admission_targets_times_dice_over_the_cap_is_a_422(tmp_path: Path) -> None:
    with app_client(tmp_path, workers=0, max_target_dice=7) as c:
        assert c.post("/v1/odds", json={"scenario": with_targets(1)}).status_code == 200
        answer = c.post("/v1/odds", json={"scenario": with_targets(3)})
    assert_cap(answer, "max-target-dice", "max-target-dice = 7 (tohit serve --max-target-dice)")


def test_admission_fights_times_combatants_over_the_cap_is_a_422_before_any_work(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's repro: rtw-map (5 combatants) with n = 1,000,000 is 5,000,000 combatant-fights."""
    monkeypatch.setattr(jobs, "fights_simulate_job", no_work)
    answer = client.post("/v1/fights/simulate", json={"fight": RTW_MAP, "n": 1_000_000})
    assert_cap(answer, "n", "max-combatant-fights = 4,000,000 (tohit serve --max-combatant-fights)")
    assert "x 5 combatants" in answer.json()["error"]["message"]


def test_admission_an_answer_over_max_response_is_a_422(tmp_path: Path) -> None:
    with app_client(tmp_path, workers=0, max_response=500) as c:
        answer = c.post("/v1/odds", json={"scenario": CEIL})
    assert_cap(answer, "max-response", "max-response = 500 (tohit serve --max-response)")


def encounter(client: TestClient) -> tuple[str, dict[str, str]]:
    created = client.post("/v1/encounters", json={"fight": DUEL, "seed": 1}).json()
    return created["id"], {"Authorization": f"Bearer {created['view_token']}"}


def test_admission_a_preview_of_too_many_targets_is_a_422_even_for_the_view_token(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = client.post("/v1/encounters", json={"fight": DUEL, "seed": 1}).json()
    eid, view = created["id"], {"Authorization": f"Bearer {created['view_token']}"}
    reveal = {"kind": "reveal", "combatant": "Bandit chief", "to_players": True}  # the players may preview it
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    assert client.post(f"/v1/encounters/{eid}/actions", json=reveal, headers=gm).status_code == 201
    body = {"attacker": "Ceil", "targets": ["Bandit chief"] * limits.PREVIEW_TARGETS}
    assert client.post(f"/v1/encounters/{eid}/preview", json=body, headers=view).status_code == 200
    body["targets"] = ["Bandit chief"] * (limits.PREVIEW_TARGETS + 1)
    answer = client.post(f"/v1/encounters/{eid}/preview", json=body, headers=view)
    assert_cap(answer, "targets", "preview-targets = 50")


def test_admission_a_preview_target_name_too_long_is_a_422(client: TestClient) -> None:
    eid, view = encounter(client)
    body = {"attacker": "Ceil", "targets": ["x" * (limits.PREVIEW_NAME + 1)]}
    answer = client.post(f"/v1/encounters/{eid}/preview", json=body, headers=view)
    assert_cap(answer, "targets", "preview-name = 200")
