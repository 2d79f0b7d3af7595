"""The garbage collector's full passes while encounters' history grows (issue 38, item 6): the server's app in
this process (as `tohit serve` runs it: what start-up made frozen first), 8 encounters attacked in turn, and
every collection of the oldest generation counted and timed (CPU time) through `gc.callbacks`. The attacks are
cut into four quarters; at the end of each, one full pass more (`gc.collect()`) is timed: what a full pass
costs at that point of the history. Each row gives that pass, the quarter's own full passes (how many, their
mean) and the objects the collector tracks. A flat tail: the last quarter's pass no more than twice the
first's (the ratio shown is first / last, target >= 0.5). Measured both ways: with what start-up made frozen
only, and with each full pass's survivors frozen too (server/collector.py, what `tohit serve` does)."""

from __future__ import annotations

import gc
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_server_load import _long_duel
from benchmarks.common import Row
from tohit.server import collector

GROUP = "server"
TABLES, QUARTERS = 8, 4


class FullPasses:
    """The durations (seconds) of the collector's passes over its oldest generation, while installed: the CPU
    time of the thread it ran in (a pass runs in the thread that set it off), so a busy machine does not count."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._began = time.thread_time()
        else:
            self.seconds.append(time.thread_time() - self._began)

    def __enter__(self) -> FullPasses:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self)


def quarters(attacks: int, freeze: bool) -> tuple[list[tuple[int, list[float], int]], int]:
    """For each quarter of `attacks`: the attacks made by its end, its full passes, the objects tracked; with
    `freeze`, each full pass's survivors frozen (server/collector.py) as `tohit serve` does. Beside them, the
    objects frozen that died in cycles (what freezing kept from the collector)."""
    from fastapi.testclient import TestClient

    from tohit.server.app import Settings, create_app

    folder = Path(tempfile.mkdtemp(prefix="tohit-bench-gc-"))
    settings = Settings(db=f"sqlite:///{folder / 'gc.db'}", admin_token="bench", workers=0)
    bodies = [
        {"kind": "attack", "attacker": "Ceil", "targets": ["Bandit chief"]},
        {"kind": "attack", "attacker": "Bandit chief", "targets": ["Ceil"]},
    ]
    found = []
    with TestClient(create_app(settings)) as client:
        tables = []
        for _ in range(TABLES):
            made = client.post("/v1/encounters", json={"fight": _long_duel(), "seed": 1}).json()
            tables.append([f"/v1/encounters/{made['id']}/actions", {"Authorization": f"Bearer {made['gm_token']}"}, 0])
        gc.collect()
        gc.freeze()  # as `tohit serve` does once started (cli/serve.py)
        if freeze:
            collector.freeze_survivors()
        seq = 0
        for _ in range(QUARTERS):
            with FullPasses() as passes:
                for i in range(attacks // QUARTERS):
                    table = tables[i % TABLES]
                    answer = client.post(str(table[0]), json=bodies[int(table[2]) % 2], headers=table[1])
                    while answer.status_code != 201:  # not this one's turn: the other attacks
                        table[2] = int(table[2]) + 1
                        answer = client.post(str(table[0]), json=bodies[int(table[2]) % 2], headers=table[1])
                    seq += 1
                tracked = len(gc.get_objects())
                gc.collect()  # one full pass more, timed: what a pass costs at this point of the history
            found.append((seq, passes.seconds, tracked))
    collector.stop_freezing()
    return found, collector.frozen_cycles()


def run(quick: bool) -> list[Row]:
    attacks = 2_000 if quick else 8_000
    rows = []
    for freeze in (False, True):
        measured, leaked = quarters(attacks, freeze)
        how = "survivors frozen after each full pass" if freeze else "start-up frozen only"
        for n, (seq, passes, tracked) in enumerate(measured, 1):
            *natural, forced = passes
            mean = sum(natural) / len(natural) if natural else 0.0
            rows.append(
                Row(
                    GROUP,
                    f"full collections ({how}), quarter {n}: {seq:,} attacks on {TABLES} encounters",
                    f"{forced * 1e3:.1f} ms; {len(natural)} passes of their own, mean {mean * 1e3:.1f} ms",
                    f"{tracked:,} objects tracked" + (f"; {leaked:,} frozen objects died in cycles" if n == 4 else ""),
                    1.0,
                )
            )
        first, last = measured[0][1][-1], measured[-1][1][-1]
        rows.append(
            Row(
                GROUP,
                f"full collections ({how}): a full pass at the end of the first quarter against the last's",
                f"last {last * 1e3:.1f} ms",
                f"first {first * 1e3:.1f} ms",
                first / last,
                0.5,  # the last pass at most twice the first: flat
            )
        )
    return rows
