"""A real `tohit serve` process on 127.0.0.1 (issue 16): a round trip, and the crash test: kill -9 while four
clients send attacks; after a restart every attack answered 201 is in the log, and the log replays to the
state the server serves."""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.conftest import EXAMPLES, ROOT
from tests.server.conftest import free_port
from tests.subprocesses import ending_with_the_run
from tohit.engine.fight.replay import replay

ADMIN = "admin-token-for-the-process-test"
CLIENTS, ATTACKS = 4, 100


def start(db: str, port: int, workers: int = 0, *options: str, files: int | None = None) -> subprocess.Popen[str]:
    """`tohit serve` on `port` (`options` added; `files`: its limit on open descriptors)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TOHIT_ADMIN_TOKEN": ADMIN}
    code = "import sys; from tohit.cli.app import main; sys.argv[0] = 'tohit'; main()"
    if files is not None:
        code = f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({files}, {files})); {code}"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "--port", str(port), "--db", db, "--workers", str(workers), *options],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        **ending_with_the_run(),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/systems", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the server did not start: " + (proc.stdout.read() if proc.stdout else ""))


def long_duel() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    for side in data["sides"]:
        side["combatants"][0]["target"]["lp"] = 100_000
    return copy.deepcopy(data)


def test_serve_process_round_trip_and_login_line(tmp_path: Path) -> None:
    port = free_port()
    proc = start(f"sqlite:///{tmp_path / 'tohit.db'}", port)
    try:
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{base}/docs", timeout=5).status_code == 200
        rolled = httpx.post(f"{base}/v1/roll", json={"scenario": yaml.safe_load(
            (EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml").read_text()), "seed": 1}, timeout=30).json()  # fmt: skip
        assert rolled["targets"][0]["damage"] == 14
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert f"/docs?token={ADMIN}" in out


def test_serve_crash_kill_9_loses_no_answered_attack(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tohit.db'}"
    port = free_port()
    proc = start(db, port)
    base = f"http://127.0.0.1:{port}"
    created = httpx.post(f"{base}/v1/encounters", json={"fight": long_duel(), "seed": 1}, timeout=30).json()
    eid, gm = created["id"], {"Authorization": f"Bearer {created['gm_token']}"}
    answered: list[dict[str, Any]] = []
    lock = threading.Lock()
    stop = threading.Event()

    def client() -> None:
        with httpx.Client(timeout=10) as http:
            for _ in range(ATTACKS):
                if stop.is_set():
                    return
                try:
                    r = http.post(f"{base}/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=gm)
                except httpx.HTTPError:
                    return  # the server is gone
                if r.status_code == 201:
                    with lock:
                        answered.extend(r.json()["events"])

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with lock:
            if len({e["action"] for e in answered}) >= CLIENTS * ATTACKS // 2:
                break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)  # mid-stream, with requests in flight
    proc.wait(timeout=10)
    stop.set()
    for t in threads:
        t.join(timeout=30)
    assert answered, "no attack was answered before the kill"

    proc = start(db, port)
    try:
        log_text = httpx.get(f"{base}/v1/encounters/{eid}/events.jsonl", headers=gm, timeout=30).text
        logged = {e["n"]: e for e in map(json.loads, log_text.splitlines())}
        for event in answered:  # every answered event is there, as it was answered
            stored = logged.get(event["n"])
            assert stored is not None, f"event {event['n']} was answered 201 and is lost"
            assert {k: v for k, v in stored.items() if k != "prev"} == event
        path = tmp_path / "evening.jsonl"
        path.write_text(log_text)
        rebuilt = replay(path)
        served = httpx.get(f"{base}/v1/encounters/{eid}", headers=gm, timeout=30).json()
        final = rebuilt.final.row(rebuilt.roster)
        assert final["combatants"] == served["state"]["combatants"]
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_serve_crash_kill_9_loses_no_answered_attack_of_eight_tables(tmp_path: Path) -> None:
    """Eight clients, each on an encounter of its own, attacking at once: after kill -9 mid-stream (half the
    attacks answered) and a restart, every attack answered 201 is in its encounter's log, as answered. It checks
    durability only, not whether the appends were committed in groups."""
    db = f"sqlite:///{tmp_path / 'tohit.db'}"
    port = free_port()
    proc = start(db, port)
    base = f"http://127.0.0.1:{port}"
    tables = []
    for _ in range(8):
        created = httpx.post(f"{base}/v1/encounters", json={"fight": long_duel(), "seed": 1}, timeout=30).json()
        tables.append((created["id"], {"Authorization": f"Bearer {created['gm_token']}"}))
    answered: dict[str, list[dict[str, Any]]] = {eid: [] for eid, _ in tables}
    lock = threading.Lock()

    def client(eid: str, gm: dict[str, str]) -> None:
        with httpx.Client(timeout=10) as http:
            for _ in range(ATTACKS):
                try:
                    r = http.post(f"{base}/v1/encounters/{eid}/actions", json={"kind": "auto"}, headers=gm)
                except httpx.HTTPError:
                    return  # the server is gone
                if r.status_code == 201:
                    with lock:
                        answered[eid].extend(r.json()["events"])

    threads = [threading.Thread(target=client, args=table) for table in tables]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 120
    while True:
        with lock:
            if sum(len({e["action"] for e in found}) for found in answered.values()) >= len(tables) * ATTACKS // 2:
                break
        if time.monotonic() >= deadline:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
            for t in threads:
                t.join(timeout=30)
            pytest.fail("half the attacks were not answered within 120 s: the kill would not be mid-stream")
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)  # mid-stream, with requests of every table in flight
    proc.wait(timeout=10)
    for t in threads:
        t.join(timeout=30)

    proc = start(db, port)
    try:
        for eid, gm in tables:
            assert answered[eid], f"no attack of {eid} was answered before the kill"
            log_text = httpx.get(f"{base}/v1/encounters/{eid}/events.jsonl", headers=gm, timeout=30).text
            logged = {e["n"]: e for e in map(json.loads, log_text.splitlines())}
            for event in answered[eid]:
                stored = logged.get(event["n"])
                assert stored is not None, f"event {event['n']} of {eid} was answered 201 and is lost"
                assert {k: v for k, v in stored.items() if k != "prev"} == event
    finally:
        proc.terminate()
        proc.communicate(timeout=10)
