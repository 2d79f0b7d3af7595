"""`tohit serve` under load (issue 38, "Done when"): three rows, each a ratio measured in the same run against a
server started for it on 127.0.0.1 (2 pool workers, as `tohit serve` starts by default).

- Encounter reads (`GET /v1/encounters/{id}`, one client) while 16 clients flood the server with 100-target
  rolls, each a little different: the read's p99 against its p99 with the server quiet (target: within 5x).
- A durable encounter attack with 8 clients, each on its own encounter, for a while (`--long`: 60 s, as the issue
  measured; else 10 s, 4 s with `--quick`): its p99.9 against its p50 (target: within 5x).
- The server's memory (its process and its pool's workers, RSS) after 8 concurrent GETs of the picture of an
  encounter whose map has the largest picture the default `--max-pixels` lets through, against the same servers'
  memory idle (target: under 300 MB more).
"""

from __future__ import annotations

import copy
import io
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import yaml

from benchmarks.bench_server import ROOT, _port, _start
from benchmarks.common import Row

GROUP = "server"
#: The flood: clients sending big rolls, each of this many targets (the server's cap, `--max-targets`).
FLOODERS, FLOOD_TARGETS = 16, 100
#: The largest picture measured: 200 x 200 squares of 31 pixels, 38.4 megapixels (the cap is 40).
PICTURE_SQUARES, PICTURE_PPG = 200, 31
MB = 1 << 20


def run(quick: bool, long: bool = False) -> list[Row]:
    folder = Path(tempfile.mkdtemp(prefix="tohit-bench-load-"))
    port = _port()
    code = "import sys; from tohit.cli.app import main; sys.argv[0] = 'tohit'; main()"
    server = _start(["-c", code, "serve", "--port", str(port), "--db", f"sqlite:///{folder / 'tohit.db'}"], port)
    base = f"http://127.0.0.1:{port}"
    try:
        rows = [_flooded_reads(base, 100 if quick else 300)]
        rows.append(_durable_tail(base, 60.0 if long else 4.0 if quick else 10.0))
        rows.append(_picture_memory(base, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=30)
    return rows


def _long_duel() -> dict[str, Any]:
    fight: dict[str, Any] = yaml.safe_load((ROOT / "examples" / "fights" / "kaiser-duel.yaml").read_text())
    for side in fight["sides"]:
        side["combatants"][0]["target"]["lp"] = 1_000_000  # the fight lasts the whole benchmark
    fight["max_rounds"] = 100_000
    return fight


def _created(base: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(f"{base}/v1/encounters", json=body, timeout=120)
    if answer.status_code != 201:
        raise RuntimeError(f"POST /v1/encounters: {answer.status_code} {answer.text[:200]}")
    found: dict[str, Any] = answer.json()
    return found


def _percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _reads(url: str, headers: dict[str, str], count: int) -> list[float]:
    """The seconds of `count` GETs of `url`, one after another (each answered 200)."""
    times = []
    with httpx.Client(timeout=60) as http:
        for _ in range(count):
            start = time.perf_counter()
            answer = http.get(url, headers=headers)
            times.append(time.perf_counter() - start)
            if answer.status_code != 200:
                raise RuntimeError(f"GET {url}: {answer.status_code} {answer.text[:200]}")
    return times


def big_roll(client: int, n: int) -> dict[str, Any]:
    """A roll against FLOOD_TARGETS targets, a little different for each client and each time (its names)."""
    scenario: dict[str, Any] = yaml.safe_load((ROOT / "examples" / "kaiser" / "ceil-vs-bandit.yaml").read_text())
    target = scenario["targets"][0]
    target.pop("dice", None)
    scenario["targets"] = [{**target, "name": f"Bandit {client}-{n}-{i}"} for i in range(FLOOD_TARGETS)]
    return {"scenario": scenario}


def _flood(base: str, stop: threading.Event, statuses: Counter[int], client: int) -> None:
    with httpx.Client(timeout=120) as http:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                answer = http.post(f"{base}/v1/roll", json=big_roll(client, n))
            except httpx.HTTPError:
                statuses[0] += 1
                continue
            statuses[answer.status_code] += 1
            if answer.status_code == 429:
                time.sleep(float(answer.headers.get("Retry-After", "1")))


def _flooded_reads(base: str, count: int) -> Row:
    """An encounter's reads quiet, then while FLOODERS clients send big rolls."""
    created = _created(base, {"fight": _long_duel()})
    url, view = f"{base}/v1/encounters/{created['id']}", {"Authorization": f"Bearer {created['view_token']}"}
    _reads(url, view, 20)  # warm
    quiet = _reads(url, view, count)
    stop, statuses = threading.Event(), Counter[int]()
    flooders = [threading.Thread(target=_flood, args=(base, stop, statuses, i)) for i in range(FLOODERS)]
    for thread in flooders:
        thread.start()
    time.sleep(2.0)  # the flood under way
    try:
        flooded = _reads(url, view, count)
    finally:
        stop.set()
        for thread in flooders:
            thread.join()
    q99, f99 = _percentile(quiet, 0.99), _percentile(flooded, 0.99)
    answered = ", ".join(f"{k or 'no answer'}: {v}" for k, v in sorted(statuses.items()))
    return Row(
        GROUP,
        f"GET encounter while {FLOODERS} clients send {FLOOD_TARGETS}-target rolls: p50 / p99",
        f"{_percentile(flooded, 0.5) * 1e3:.1f} / {f99 * 1e3:.1f} ms",
        f"quiet {_percentile(quiet, 0.5) * 1e3:.1f} / {q99 * 1e3:.1f} ms; the rolls: {answered}",
        q99 / f99,
        0.2,  # quiet p99 / flooded p99: the flooded p99 at most 5x the quiet one
    )


def _durable_tail(base: str, seconds: float, clients: int = 8) -> Row:
    """`clients` GMs attacking, each on its own encounter, for `seconds`: every committed attack timed."""
    tables = []
    for _ in range(clients):
        created = _created(base, {"fight": _long_duel(), "seed": 1})
        tables.append((f"{base}/v1/encounters/{created['id']}/actions", created["gm_token"]))
    attacks = [
        {"kind": "attack", "attacker": "Ceil", "targets": ["Bandit chief"]},
        {"kind": "attack", "attacker": "Bandit chief", "targets": ["Ceil"]},
    ]
    times: list[float] = []
    lock, end = threading.Lock(), time.monotonic() + seconds

    def play(url: str, token: str) -> None:
        k, refused = 0, 0
        with httpx.Client(timeout=60, headers={"Authorization": f"Bearer {token}"}) as http:
            while time.monotonic() < end:
                start = time.perf_counter()
                answer = http.post(url, json=attacks[k % 2])
                took = time.perf_counter() - start
                if answer.is_success:
                    with lock:
                        times.append(took)
                    continue
                refused += 1  # not this one's turn: the other combatant attacks
                k += 1
                if refused > 10_000:
                    raise RuntimeError(f"{url}: {answer.status_code} {answer.text[:200]}")

    players = [threading.Thread(target=play, args=table) for table in tables]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join()
    p50, p999 = _percentile(times, 0.5), _percentile(times, 0.999)
    return Row(
        GROUP,
        f"encounter attack (durable), {clients} clients for {seconds:g} s: p99.9 against p50",
        f"p99.9 {p999 * 1e3:.1f} ms",
        f"p50 {p50 * 1e3:.1f} ms, p99 {_percentile(times, 0.99) * 1e3:.1f} ms; {len(times):,} attacks",
        p50 / p999,
        0.2,  # p50 / p99.9: the p99.9 at most 5x the p50
    )


def _rss(pid: int) -> int:
    """Resident bytes of the process `pid` and of its children (the pool's workers)."""
    total = 0
    for each in [pid, *_children(pid)]:
        for line in Path(f"/proc/{each}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def largest_picture() -> dict[str, Any]:
    """A Universal VTT map of PICTURE_SQUARES squares a side whose picture is all zeros: a small PNG that
    decodes to the most pixels measured."""
    import base64

    from PIL import Image

    side = PICTURE_SQUARES * PICTURE_PPG
    out = io.BytesIO()
    Image.new("RGB", (side, side)).save(out, format="PNG")
    origin, size = {"x": 0, "y": 0}, {"x": PICTURE_SQUARES, "y": PICTURE_SQUARES}
    return {
        "format": 0.3,
        "resolution": {"map_origin": origin, "map_size": size, "pixels_per_grid": PICTURE_PPG},
        "line_of_sight": [],
        "portals": [],
        "image": base64.b64encode(out.getvalue()).decode("ascii"),
    }


def _picture_memory(base: str, pid: int, gets: int = 8) -> Row:
    """The server's RSS idle, then after `gets` concurrent GETs of the largest picture."""
    fight = copy.deepcopy(yaml.safe_load((ROOT / "examples" / "fights" / "rtw-map.yaml").read_text()))
    for i, side in enumerate(fight["sides"]):
        for j, combatant in enumerate(side["combatants"]):
            combatant["position"] = [2 * j, 2 * i]
    idle = _rss(pid)
    created = _created(base, {"fight": fight, "uvtt": largest_picture()})
    url = f"{base}/v1/encounters/{created['id']}/picture"
    gm = {"Authorization": f"Bearer {created['gm_token']}"}
    statuses: list[int] = []

    def get() -> None:
        statuses.append(httpx.get(url, headers=gm, timeout=120).status_code)

    threads = [threading.Thread(target=get) for _ in range(gets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if statuses != [200] * gets:
        raise RuntimeError(f"GET picture: {statuses}")
    after = _rss(pid)
    over = (after - idle) / MB
    return Row(
        GROUP,
        f"server RSS after {gets} concurrent GETs of a {PICTURE_PPG * PICTURE_SQUARES}² picture",
        f"+{over:.0f} MB ({after / MB:.0f} MB)",
        f"idle {idle / MB:.0f} MB (the server and its pool's workers)",
        300 / max(over, 1e-6),
        1.0,  # 300 MB / the growth: under 300 MB over idle
    )
