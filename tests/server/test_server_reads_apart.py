"""Reads never wait behind work (issue 38, item 4): a preview of many targets runs in the pool's lane
"preview-big" (the worker rebuilds the encounter from its events), never in the threads the encounter reads
share, and is a 429 with Retry-After rather than a wait when every worker already has work; an error it raises
there reaches the client as it would from the thread; and against a live `tohit serve` flooded with big rolls
and big previews, every encounter read is answered, none a 5xx, and each refusal of the flood is a 429 with
Retry-After."""

from __future__ import annotations

import asyncio
import pickle
import threading
from collections import Counter
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import yaml
from fastapi import Request
from fastapi.testclient import TestClient

from tests.conftest import EXAMPLES
from tests.server.conftest import free_port
from tests.server.test_server_process import start
from tohit.engine.pool import HealingPool
from tohit.server import jobs, limits
from tohit.server.admission import Admission, Refused
from tohit.server.errors import ApiError

DUEL = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
SCENARIO = yaml.safe_load((EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text())


def kinds_seen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lanes the requests' work goes to, in order."""
    seen: list[str] = []
    real = Admission.run

    async def spy(self: Admission, kind: str, *args: Any) -> Any:
        seen.append(kind)
        return await real(self, kind, *args)

    monkeypatch.setattr(Admission, "run", spy)
    return seen


def duel(client: TestClient) -> tuple[str, dict[str, str], dict[str, str]]:
    created = client.post("/v1/encounters", json={"fight": DUEL, "seed": 1}).json()
    return (
        created["id"],
        {"Authorization": f"Bearer {created['gm_token']}"},
        {"Authorization": f"Bearer {created['view_token']}"},
    )


def test_reads_apart_a_preview_of_many_targets_runs_in_the_pools_lane(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    eid, gm, _ = duel(client)
    seen = kinds_seen(monkeypatch)
    few = {"attacker": "Ceil", "targets": ["Bandit chief"] * limits.SMALL_ROLL_TARGETS}
    many = {"attacker": "Ceil", "targets": ["Bandit chief"] * (limits.SMALL_ROLL_TARGETS + 1)}
    small = client.post(f"/v1/encounters/{eid}/preview", json=few, headers=gm)
    big = client.post(f"/v1/encounters/{eid}/preview", json=many, headers=gm)
    assert small.status_code == big.status_code == 200, (small.text, big.text)
    assert seen == ["encounter-preview", "encounter", "preview-big"]  # the big one: the encounter read, then the pool
    assert big.json()["targets"][0] == small.json()["targets"][0]  # the same odds, wherever they are worked out
    assert big.json()["seq"] == small.json()["seq"]


def test_reads_apart_a_big_preview_keeps_the_players_view(client: TestClient) -> None:
    """In the pool as in the threads, the players may not preview a hidden creature: a 403 naming it."""
    eid, _, view = duel(client)
    many = {"attacker": "Ceil", "targets": ["Bandit chief"] * (limits.SMALL_ROLL_TARGETS + 1)}
    answer = client.post(f"/v1/encounters/{eid}/preview", json=many, headers=view)
    few = client.post(f"/v1/encounters/{eid}/preview", json={**many, "targets": ["Bandit chief"]}, headers=view)
    assert answer.status_code == few.status_code == 403, answer.text
    assert answer.json() == few.json()


def test_reads_apart_a_big_preview_is_a_429_with_retry_after_rather_than_wait_behind_heavy_work() -> None:
    """With every pool worker busy (here: two big rolls on two workers), a big preview is refused at once; with
    one worker free it is admitted. Nothing is sent to the pool: the refusal comes before any work."""
    admission = Admission(cast(HealingPool, object()), 2, 30.0)
    admission.lanes["roll-big"].busy = 2

    async def preview() -> Any:
        return await admission.run("preview-big", cast(Request, None), lambda: None)

    with pytest.raises(Refused) as refused:
        asyncio.run(preview())
    assert refused.value.status == 429 and refused.value.retry_after >= 1
    assert "pool workers are all busy" in refused.value.message
    assert admission.lanes["preview-big"].admitted == 0
    admission.lanes["roll-big"].busy = 1
    assert not admission.pool_busy()


def test_reads_apart_an_api_error_raised_in_a_worker_crosses_back_whole() -> None:
    error = pickle.loads(pickle.dumps(ApiError(429, "too many", "n", retry_after=3)))
    assert (error.status, error.message, error.field, error.extra) == (429, "too many", "n", {"retry_after": 3})


def test_reads_apart_a_worker_rebuilds_an_encounter_once_per_seq(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tohit.engine.encounter import Encounter

    eid, gm, _ = duel(client)
    events = client.get(f"/v1/encounters/{eid}/events", headers=gm).json()
    rebuilt: list[int] = []
    real = Encounter.restore

    def counted(*args: Any, **kw: Any) -> Encounter:
        rebuilt.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(Encounter, "restore", staticmethod(counted))
    monkeypatch.setattr(jobs, "REBUILT", type(jobs.REBUILT)(4))
    asked = jobs.Asked("Ceil", None, ["Bandit chief"] * 5, None)
    first = jobs.preview_job((eid, len(events) - 1), DUEL, events, "duel", False, asked)
    again = jobs.preview_job((eid, len(events) - 1), DUEL, events, "duel", False, asked)
    assert first == again and len(rebuilt) == 1


# -- the flood, against a live server -----------------------------------------------------------------------------
FLOODERS, ROUNDS, READS = 4, 1, 12


def big_roll(n: int) -> dict[str, Any]:
    target = {k: v for k, v in SCENARIO["targets"][0].items() if k != "dice"}
    return {"scenario": {**SCENARIO, "targets": [{**target, "name": f"Bandit {n}-{i}"} for i in range(100)]}}


def test_reads_apart_a_live_server_flooded_with_big_work_answers_every_read(tmp_path: Path) -> None:
    """FLOODERS clients each send ROUNDS big rolls and big previews at once while one client reads the
    encounter READS times: every read is a 200 (each within the server's deadline: a read past it would be a
    503), the flood's answers are 200s or 429s, and every 429 says when to come back (Retry-After)."""
    port = free_port()
    proc = start(f"sqlite:///{tmp_path / 'flood.db'}", port, 1, "--request-seconds", "20")
    base = f"http://127.0.0.1:{port}"
    try:
        created = httpx.post(f"{base}/v1/encounters", json={"fight": DUEL, "seed": 1}, timeout=60).json()
        url, gm = f"{base}/v1/encounters/{created['id']}", {"Authorization": f"Bearer {created['gm_token']}"}
        preview = {"attacker": "Ceil", "targets": ["Bandit chief"] * (limits.SMALL_ROLL_TARGETS + 1)}  # the pool's
        flood: Counter[tuple[int, bool]] = Counter()

        def flooder(k: int) -> None:
            with httpx.Client(timeout=120) as http:
                for n in range(ROUNDS):
                    for answer in (
                        http.post(f"{base}/v1/roll", json=big_roll(k * ROUNDS + n)),
                        http.post(f"{url}/preview", json=preview, headers=gm),
                    ):
                        flood[answer.status_code, "retry-after" in answer.headers] += 1

        threads = [threading.Thread(target=flooder, args=(k,)) for k in range(FLOODERS)]
        for thread in threads:
            thread.start()
        with httpx.Client(timeout=120) as http:
            reads = Counter(http.get(url, headers=gm).status_code for _ in range(READS))
        for thread in threads:
            thread.join()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert reads == {200: READS}, reads
    assert set(flood) <= {(200, False), (429, True)}, flood
    assert sum(flood.values()) == 2 * FLOODERS * ROUNDS
