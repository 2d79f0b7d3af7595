"""Timing helpers and the result table shared by the benchmark modules."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: Issue 9's target for a traced roll, in every system: at least as fast as `d20.roll("2d6+5")` + `str()`.
ROLL_TARGET = 1.0
#: Issue 19's target for a traced roll of an attack on five targets (five resolutions traced per call).
MULTI_ROLL_TARGET = 0.5
#: Seeds for single traced rolls, a new one on every call (a seed met before would replay faces already seen:
#: the rows a scenario keeps would flatter the figure).
SEEDS = itertools.count(1_000_000)


def first_odds(loaded: Any, depth: int | None = None) -> object:
    """`odds` computed afresh, as on a scenario met for the first time: what the engine keeps beside the
    validated scenario (its small joint tables and their tallies, engine/memo.py) is forgotten first. A repeat
    call on the same scenario only reads them back: benchmarks time that apart, as "again"."""
    from tohit.engine import memo
    from tohit.engine.odds import odds

    memo.clear(loaded.scenario)
    return odds(loaded, depth)


def resolve_alone(loaded: Any) -> Callable[[], object]:
    """The game's one `resolve`, once per target, on the joint tables `odds` feeds it (built beforehand): the
    floor under `odds` from scratch as long as each game keeps one `resolve`, run once per target (issue 19)."""
    from tohit.core.steps import Silent
    from tohit.core.system import Dice
    from tohit.engine import joint

    system, scenario = loaded.system, loaded.scenario
    fed = [(target, joint.build(system, scenario, target).finite_columns) for target in scenario.targets]

    def resolve() -> object:
        return [system.resolve(scenario, target, Dice(columns or {}), Silent()) for target, columns in fed]

    return resolve


@dataclass(frozen=True)
class Row:
    """One figure beside its reference: `ratio` is how many times better ours is (higher is better)."""

    group: str
    what: str
    ours: str
    reference: str
    ratio: float
    target: float | None = None
    #: A second figure beside the ratio (the fights bench against another tree: the ratio to the plain loop).
    also: str = ""

    @property
    def verdict(self) -> str:
        if self.target is None:
            return ""
        return "ok" if self.ratio >= self.target else "MISSED"


def best_time(fn: Callable[[], object], *, repeat: int = 5, number: int = 1) -> float:
    """Best wall time of `number` calls, over `repeat` tries, in seconds per call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def per_second(count: int, seconds: float) -> str:
    rate = count / seconds
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M/s"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k/s"
    return f"{rate:.1f} /s"


def micros(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} µs"
