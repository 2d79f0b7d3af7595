"""Sweeps (issue 18, item 7): a 2-D sweep of 100 fight points (10 x 10: the bandits' Offensive Skill and LP,
four bandits against the party of examples/fights/kaiser-party-vs-bandits.yaml) on a Dask LocalCluster, two
workers against one (target 1.7x on two free cores), and against a plain Python loop of `tohit` API calls over
the same points (`tohit.fight_from_dict` + `tohit.fight(n=...)` per point, in this process). Then a short run
(10 points) on a LocalCluster against a local process pool, cluster start-up included, to see which is faster
for short runs. Wall times (the clusters are started once, outside the timed runs, except where said; the runs on
one and two workers are interleaved, best of 2, so that a busy machine's changing load hits both alike). Beside
the wall times, the CPU seconds the workers spent: on a machine shared with other work, 2 workers can only be as
fast as the free cores allow, and the CPU seconds show whether sharing the points costs anything.

`solve` (issue 31): the most bandits the party beats half the time, `tohit solve` (bisection, straddling points
refined within its budget of fights) against sweeping the whole range of 1 to 16 bandits at the same -n, both in
this process: the points each evaluated, and the time.
"""

from __future__ import annotations

import copy
import resource
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import tohit
from benchmarks.common import Row
from tohit.core.loader import read_document
from tohit.sweeps import run as sweeps
from tohit.sweeps.execute import local_cluster
from tohit.sweeps.solve import solver

FILE = Path(__file__).resolve().parents[1] / "examples" / "fights" / "kaiser-party-vs-bandits.yaml"
GRID = [
    "sides[1].combatants[0].attacker.offensive_skill=5..14",
    "sides[1].combatants[0].target.lp=16..34:2",
    "count:sides[1].combatants[0]=4",
]
SHORT = ["sides[1].combatants[0].attacker.offensive_skill=5..14", "count:sides[1].combatants[0]=4"]


def _wall(fn: Any, repeat: int = 2) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _cpu() -> float:
    """CPU seconds of this process (run in each worker: what the points cost, whatever else the machine runs)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _loop(n: int) -> None:
    """The same 100 points as a plain loop of API calls."""
    base = read_document(FILE)
    for skill in range(5, 15):
        for lp in range(16, 35, 2):
            doc = copy.deepcopy(base)
            bandit = doc["sides"][1]["combatants"][0]
            bandit["attacker"]["offensive_skill"] = skill
            bandit["target"]["lp"] = lp
            doc["sides"][1]["combatants"] = [bandit] + [{**bandit, "name": f"Bandit {k}"} for k in range(2, 5)]
            tohit.fight(tohit.fight_from_dict(doc), n=n, seed=1)


def run(quick: bool) -> list[Row]:
    n = 100 if quick else 300
    sweep = sweeps.plan(FILE, GRID, n=n, seed=1)
    assert sweep.grid.size == 100
    warm = sweeps.plan(FILE, [*SHORT[:1], "count:sides[1].combatants[0]=1"], n=10, seed=1)
    times: dict[str, float] = {"dask1": float("inf"), "dask2": float("inf")}
    start = time.perf_counter()
    with local_cluster(1) as one:
        times["start1"] = time.perf_counter() - start
        start = time.perf_counter()
        with local_cluster(2) as two:
            times["start2"] = time.perf_counter() - start
            for client in (one, two):
                sweeps.run(warm, client=client)  # the workers import tohit on their first points
            # Interleaved (1, 2, 1, 2), best of each: a busy machine's load drifts less between the two.
            for _ in range(1 if quick else 2):
                for workers, client in ((1, one), (2, two)):
                    before = client.run(_cpu)
                    took = _wall(lambda c=client: sweeps.run(sweep, client=c), repeat=1)
                    after = client.run(_cpu)
                    if took < times[f"dask{workers}"]:
                        times[f"dask{workers}"] = took
                        times[f"cpu{workers}"] = sum(after[w] - before[w] for w in after)
    times["loop"] = _wall(lambda: _loop(n), repeat=1)
    times["pool2"] = _wall(lambda: sweeps.run(sweep, workers=2, executor="pool"), repeat=1)
    short = sweeps.plan(FILE, SHORT, n=n, seed=1)
    times["short_dask"] = _wall(lambda: sweeps.run(short, workers=2), repeat=1)
    times["short_pool"] = _wall(lambda: sweeps.run(short, workers=2, executor="pool"), repeat=1)
    points = f"100 points x {n} fights"
    solve_range = ["count:sides[1].combatants[0]=1..16"]
    crossing = sweeps.plan(FILE, solve_range, n=n, seed=1, measure="win_Party")
    start = time.perf_counter()
    with solver(crossing, "win_Party", Fraction(1, 2)) as solving:
        solved = solving.solve(scan=False)
    times["solve"] = time.perf_counter() - start
    times["solve_sweep"] = _wall(lambda: sweeps.run(crossing, workers=1), repeat=1)
    return [
        Row(
            "sweep",
            f"solve: the party's 50% crossing over 1-16 bandits, {len(solved.points)} of 16 points evaluated "
            f"({solved.fights:,} fights, refinement included) vs sweeping all 16 x {n} fights (1 process each)",
            f"{times['solve']:.2f} s",
            f"{times['solve_sweep']:.2f} s",
            times["solve_sweep"] / times["solve"],
        ),
        Row(
            "sweep",
            f"{points}: LocalCluster 2 workers vs 1",
            f"{times['dask2']:.2f} s",
            f"{times['dask1']:.2f} s",
            times["dask1"] / times["dask2"],
            1.7,
        ),
        Row(
            "sweep",
            f"{points}: the workers' CPU seconds, 2 workers vs 1 (1.00x: no cost to sharing the points)",
            f"{times['cpu2']:.2f} s",
            f"{times['cpu1']:.2f} s",
            times["cpu1"] / times["cpu2"],
        ),
        Row(
            "sweep",
            f"{points}: LocalCluster 2 workers vs a plain loop of tohit API calls",
            f"{times['dask2']:.2f} s",
            f"{times['loop']:.2f} s",
            times["loop"] / times["dask2"],
        ),
        Row(
            "sweep",
            f"{points}: LocalCluster 2 vs process pool 2 (pool start-up included)",
            f"{times['dask2']:.2f} s",
            f"{times['pool2']:.2f} s",
            times["pool2"] / times["dask2"],
        ),
        Row(
            "sweep",
            "LocalCluster start-up, 1 / 2 workers",
            f"{times['start1']:.2f} s / {times['start2']:.2f} s",
            "",
            1.0,
        ),
        Row(
            "sweep",
            f"short run, 10 points x {n} fights, start-up included: LocalCluster 2 vs process pool 2",
            f"{times['short_dask']:.2f} s",
            f"{times['short_pool']:.2f} s",
            times["short_pool"] / times["short_dask"],
        ),
    ]
