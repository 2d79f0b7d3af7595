"""`tohit serve` benchmarks (issue 16): p50 / p99 latency and requests per second, with 1 and 8 concurrent
clients, of `POST /v1/roll` and of an encounter attack (its durable commit included), against a bare FastAPI
route returning a constant and one doing one SQLite insert, all served by uvicorn on 127.0.0.1 in the same run.
Target: an encounter attack's p50 at most 3x the bare insert's (the ratio shown is insert p50 / attack p50,
higher is better, target >= 1/3). With 8 clients each plays its own encounter (eight tables at once): actions on
one encounter are one sequence, taken one at a time."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import yaml

from benchmarks.common import Row

GROUP = "server"
ROOT = Path(__file__).resolve().parents[1]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(args: list[str], port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "TOHIT_ADMIN_TOKEN": "bench"}
    proc = subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/docs", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("a server did not start")


Target = tuple[str, dict[str, str]]


def _measure(targets: list[Target], bodies: list[Any], clients: int, each: int) -> tuple[float, float, float]:
    """(p50 s, p99 s, requests/s) of `clients` threads each sending `each` requests answered 2xx. A request refused
    (an attack by a combatant whose turn it is not and who has no AP left) is not timed: the client sends the
    next of `bodies` instead (the other combatant's attack), so only actions that were played and committed
    count. Client i sends to targets[i % len(targets)] (its URL and headers)."""
    times: list[float] = []
    lock = threading.Lock()

    def run(url: str, headers: dict[str, str]) -> None:
        k = 0
        with httpx.Client(timeout=30) as http:
            done = refused = 0
            while done < each:
                start = time.perf_counter()
                response = http.post(url, json=bodies[k % len(bodies)], headers=headers)
                took = time.perf_counter() - start
                if not response.is_success:
                    refused += 1
                    if refused > 10 * each:
                        raise RuntimeError(f"{url}: {response.status_code} {response.text[:200]}")
                    k += 1
                    continue
                done += 1
                with lock:
                    times.append(took)

    threads = [threading.Thread(target=run, args=targets[i % len(targets)]) for i in range(clients)]
    wall = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - wall
    if not times:
        raise RuntimeError(f"{targets[0][0]}: no request was answered 2xx")
    times.sort()
    return times[len(times) // 2], times[min(len(times) - 1, int(0.99 * len(times)))], len(times) / wall


def run(quick: bool) -> list[Row]:
    each = 30 if quick else 150
    folder = Path(tempfile.mkdtemp(prefix="tohit-bench-"))
    tohit_port, ref_port = _port(), _port()
    code = "import sys; from tohit.cli.app import main; sys.argv[0] = 'tohit'; main()"
    tohit = _start(
        ["-c", code, "serve", "--port", str(tohit_port), "--db", f"sqlite:///{folder / 'tohit.db'}", "--workers", "1"],
        tohit_port,
    )
    ref = _start(["-m", "benchmarks.server_reference", str(folder / "ref.db"), str(ref_port)], ref_port)
    rows: list[Row] = []
    try:
        base, refs = f"http://127.0.0.1:{tohit_port}", f"http://127.0.0.1:{ref_port}"
        scenario = yaml.safe_load((ROOT / "examples" / "kaiser" / "ceil-vs-bandit.yaml").read_text())
        fight = yaml.safe_load((ROOT / "examples" / "fights" / "kaiser-duel.yaml").read_text())
        for side in fight["sides"]:
            side["combatants"][0]["target"]["lp"] = 1_000_000  # the fight lasts the whole benchmark
        fight["max_rounds"] = 10_000  # ... and is not a draw at round 100 (every action after it a 422)
        encounters = []  # one table per client: each GM's attacks wait on its own encounter only
        for _ in range(8):
            created = httpx.post(f"{base}/v1/encounters", json={"fight": fight, "seed": 1}, timeout=30).json()
            gm = {"Authorization": f"Bearer {created['gm_token']}"}
            encounters.append((f"{base}/v1/encounters/{created['id']}/actions", gm))
        attacks = [
            {"kind": "attack", "attacker": "Ceil", "targets": ["Bandit chief"]},
            {"kind": "attack", "attacker": "Bandit chief", "targets": ["Ceil"]},
        ]
        cases: dict[str, tuple[list[Target], list[Any]]] = {
            "roll": ([(f"{base}/v1/roll", {})], [{"scenario": scenario}]),
            "attack": (encounters, attacks),
            "constant": ([(f"{refs}/constant", {})], [{}]),
            "insert": ([(f"{refs}/insert", {})], [{"kind": "attack"}]),
        }
        for clients in (1, 8):
            found = {k: _measure(t, bodies, clients, max(each // clients, 5)) for k, (t, bodies) in cases.items()}
            for name, what in (("roll", "POST /v1/roll"), ("attack", "encounter attack (durable)")):
                p50, p99, rps = found[name]
                c50, _, crps = found["constant"]
                i50, _, _ = found["insert"]
                rows.append(
                    Row(
                        GROUP,
                        f"{what}, {clients} client{'s' if clients > 1 else ''}: p50 / p99, req/s",
                        f"{p50 * 1e3:.1f} / {p99 * 1e3:.1f} ms, {rps:.0f}/s",
                        f"bare {c50 * 1e3:.1f} ms {crps:.0f}/s; insert {i50 * 1e3:.1f} ms",
                        i50 / p50,
                        0.33 if name == "attack" else None,  # insert p50 / attack p50: attack at most 3x
                    )
                )
    finally:
        for proc in (tohit, ref):
            proc.terminate()
            proc.wait(timeout=10)
    return rows
