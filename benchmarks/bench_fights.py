"""Fights (issue 8): per system, a 1-v-1 and a 4-v-4 fight simulated at n = 100,000 beside a plain Python loop
over the same rules (benchmarks/fight_reference.py) in the same run (issue 42's targets: 40x for 1-v-1, 25x for
the 4-v-4 groups), and the time of
`--exact` for a 1-v-1 with 40 health each, beside simulating 100,000 of the same duel. Times are CPU times
of this process (best of 3), which a busy machine disturbs much less than wall time. Last, `--workers 2`
against 1 on the costliest fight (the 4-v-4 with the fewest fights per second) at n = 400,000, so that each
worker runs whole batches, in wall time (target 1.7x on two free cores).

`--against REF` (issue 42): every fight and exact duel above on this tree and on REF, in turns in the same run
(benchmarks/fight_ab.py), each row this tree's figure against REF's (target 2x), with the ratio to the plain loop
beside it and whether the two trees give the same result for the same seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from benchmarks import fight_ab, fight_reference
from benchmarks.common import Row, best_time, per_second
from benchmarks.fight_cases import (
    fullplate_fights,
    kaiser_fights,
    last_odyssey_fights,
    rtw_fights,
    wsswnn_fights,
)
from tohit.core.fight.contract import LoadedFight
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import simulate_fights

N = 100_000
REFERENCE_N = 2_000


#: Per system: (1-v-1, 4-v-4, 1-v-1 with 40 health each for --exact), and the plain Python fight.
SYSTEMS: dict[str, tuple[Callable[[], tuple[LoadedFight, LoadedFight, LoadedFight]], Callable[..., Any]]] = {
    "kaiser": (kaiser_fights, fight_reference.kaiser_fight),
    "fullplate": (fullplate_fights, fight_reference.fullplate_fight),
    "rtw": (rtw_fights, fight_reference.rtw_fight),
    "wsswnn": (wsswnn_fights, fight_reference.wsswnn_fight),
    "last-odyssey": (last_odyssey_fights, fight_reference.last_odyssey_fight),
}


REPEAT = 3
#: Issue 42's targets against the plain loop: one-on-one fights, and groups (the 4-v-4).
PLAIN_TARGET = {"1v1": 40.0, "4v4": 25.0}
#: ... and against today's main (`--against 13449cd`): twice the fights per second on every row.
AGAINST_TARGET = 2.0


def best_cpu(fn: Callable[[], object], repeat: int = REPEAT) -> float:
    """Best CPU time of `fn` in this process over `repeat` tries, in seconds. Both sides are single-threaded,
    so CPU time compares them fairly on a busy machine, where wall time mostly measures the other load."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def _rate(fight: LoadedFight, n: int) -> float:
    return n / best_cpu(lambda: simulate_fights(fight, n, seed=1))


def workers_row(fight: LoadedFight, name: str, n: int, repeat: int = REPEAT) -> Row:
    """Wall time of n fights with 2 worker processes against 1 (fork; each task its own stream): the best of
    `repeat` tries of each, taken in turns, so that a busy spell of this VM falls on both alike."""
    one = two = float("inf")
    for _ in range(repeat):
        one = min(one, best_time(lambda: simulate_fights(fight, n, seed=1), repeat=1))
        two = min(two, best_time(lambda: simulate_fights(fight, n, seed=1, workers=2), repeat=1))
    return Row(
        "fights workers",
        f"{name}: --workers 2 vs 1, n={n:,} (wall)",
        per_second(n, two),
        per_second(n, one),
        one / two,
        1.7,
    )


def _reference_rate(fight: LoadedFight, play: Callable[..., Any], n: int) -> float:
    rng = random.Random(1)

    def loop() -> None:
        for _ in range(n):
            play(fight, rng)

    return n / best_cpu(loop)


def against_rows(ref: str, quick: bool) -> list[Row]:
    """Every fight and exact duel of the bench on this tree and on REF, in turns (`fight_ab.compare`)."""
    n = 10_000 if quick else N
    ref_n = 300 if quick else REFERENCE_N
    rows: list[Row] = []
    with fight_ab.sides(ref) as (theirs, ours):
        for system, (make, play) in SYSTEMS.items():
            fights = dict(zip(("1v1", "4v4"), make()[:2], strict=False))
            for label, fight in fights.items():
                t = fight_ab.compare(theirs, ours, system, label, n, REPEAT)
                plain = (n / t.ours) / _reference_rate(fight, play, ref_n)
                verdict = "ok" if plain >= PLAIN_TARGET[label] else "MISSED"
                rows.append(
                    Row(
                        f"fights {system}",
                        f"{label} fights/s, n={n:,}: this tree vs {ref}{'' if t.same else ' (RESULTS DIFFER)'}",
                        per_second(n, t.ours),
                        per_second(n, t.ref),
                        t.ref / t.ours,
                        AGAINST_TARGET,
                        also=f"{plain:.1f}x plain loop (≥ {PLAIN_TARGET[label]:.0f}x {verdict})",
                    )
                )
            if not quick:
                t = fight_ab.compare(theirs, ours, system, "exact", n, REPEAT)
                rows.append(
                    Row(
                        f"fights {system}",
                        f"--exact 1v1, 40 health each ({t.states:,} states): this tree vs {ref}"
                        + ("" if t.same else " (RESULTS DIFFER)"),
                        f"{t.ours:.2f} s",
                        f"{t.ref:.2f} s",
                        t.ref / t.ours,
                    )
                )
    return rows


def run(quick: bool, against: str | None = None) -> list[Row]:
    if against is not None:
        return against_rows(against, quick)
    n = 10_000 if quick else N
    ref_n = 300 if quick else REFERENCE_N
    rows: list[Row] = []
    slowest: tuple[float, str, LoadedFight] | None = None
    for system, (make, play) in SYSTEMS.items():
        one, four, duel40 = make()
        for label, fight in (("1v1", one), ("4v4", four)):
            target = PLAIN_TARGET[label]
            ours = _rate(fight, n)
            if label == "4v4" and (slowest is None or ours < slowest[0]):
                slowest = (ours, f"{system} 4v4", fight)
            ref = _reference_rate(fight, play, ref_n)
            rows.append(
                Row(
                    f"fights {system}",
                    f"{label} fights/s, n={n:,} vs plain Python loop",
                    per_second(int(ours), 1.0),
                    per_second(int(ref), 1.0),
                    ours / ref,
                    target,
                )
            )
        if not quick:
            start = time.process_time()
            result = exact_duel(duel40, seconds=math.inf)  # timed: a cap on time would only refuse
            exact_s = time.process_time() - start
            sim_s = n / _rate(duel40, n)
            rows.append(
                Row(
                    f"fights {system}",
                    f"--exact 1v1, 40 health each ({result.states:,} states) vs simulating {n:,}",
                    f"{exact_s:.2f} s",
                    f"{sim_s:.2f} s",
                    sim_s / exact_s,
                )
            )
    if slowest is not None:  # each worker runs a whole batch of 100,000: the large runs workers are for
        rows.append(workers_row(slowest[2], slowest[1], 2 * n, repeat=1 if quick else 2))
    return rows
