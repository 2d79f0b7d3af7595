"""Monte Carlo: N independent attacks per target, vectorised, from a seeded generator.

Two samplers share the rules:
- "table" (default): each attack draws one point of the joint dice support with its exact probability
  (integer alias method); the outcome of each point is `resolve` run once on the whole support. Points
  beyond a cut depth (open-ended dice) get their tail dice from the roles and go through `resolve` as
  they come. Counting per support point keeps memory flat however large N is.
- "direct": every role samples its dice and `resolve` runs on each batch of attacks.
Both are exact samplers of the same distribution; the tests check them against the exact odds.
When every role of every target is rolled once for the whole attack (scope "attack"), the table sampler
draws once per attack for all the targets, as the dice are rolled at the table.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from tohit.core.outcome import Field, Outcome
from tohit.core.steps import Silent
from tohit.core.system import Dice
from tohit.engine import cancel, joint
from tohit.engine.alias import MAX_TOTAL, Alias
from tohit.engine.frames import Views, simulate_frame
from tohit.engine.pool import process_pool
from tohit.engine.scenario import Loaded, pick_target
from tohit.engine.seeds import fresh_seed as fresh_seed  # re-exported: older callers import it from here
from tohit.engine.stats import mean_sd, percentile, wilson
from tohit.engine.tally import Histogram, value_key

Method = Literal["table", "direct"]
CHUNK = 1 << 18
#: Draws per step of the table sampler: small enough for every array of a step to stay in the CPU cache.
TABLE_STEP = 1 << 15
#: Depth of the open-ended dice in the sampling table; deeper rolls are sampled from the role's tail.
TABLE_DEPTH = 1
PERCENTILES = (5, 25, 50, 75, 95)
Progress = Callable[[int], None]


@dataclass
class TargetSim:
    name: str
    n: int
    histograms: dict[str, Histogram]
    outcome: Outcome = field(repr=False)  # labels for decoding
    #: Extra keys from the system (System.target_json), e.g. a target's cover on a grid.
    extra: dict[str, Any] = field(default_factory=dict)

    def frequency(self, field_name: str, value: Any) -> int:
        return sum(c for v, c in self.histograms[field_name].items(self.outcome) if v == value)

    def to_json(self) -> dict[str, Any]:
        results = {}
        for value, count in self.histograms["result"].items(self.outcome):
            low, high = wilson(count, self.n)
            results[value_key(value)] = {"count": count, "p": count / self.n, "ci95": [low, high]}
        dmg = self.histograms["damage"].counts
        mean, sd = mean_sd(dmg)
        fields = {}
        for name, hist in self.histograms.items():
            if name in ("result", "damage") or not hist.field.in_odds:
                continue
            fields[name] = {value_key(v): c / self.n for v, c in hist.items(self.outcome)}
        return {
            "name": self.name,
            "n": self.n,
            "result": results,
            "damage": {
                "mean": mean,
                "sd": sd,
                "percentiles": {str(q): percentile(dmg, q) for q in PERCENTILES},
                "histogram": {value_key(v): c for v, c in sorted(dmg.items())},
            },
            "fields": fields,
            **self.extra,
        }


@dataclass
class SimResult(Views):
    """Monte Carlo summary of n attacks per target; in a notebook a table (`to_dataframe()`, engine/frames.py)."""

    system: str
    n: int
    seed: int
    method: str
    targets: list[TargetSim]
    #: Extra keys from the system (System.scenario_json), e.g. the squares of a grid attack.
    extra: dict[str, Any] = field(default_factory=dict)

    def target(self, name: str) -> TargetSim:
        return pick_target(self.targets, name)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "n": self.n,
            "seed": self.seed,
            "method": self.method,
            "targets": [t.to_json() for t in self.targets],
            **self.extra,
        }

    def _frame(self) -> Any:
        return simulate_frame(self)

    def _title(self) -> str:
        return f"{self.n:,} attacks per target, seed {self.seed}"

    def __repr__(self) -> str:
        """One line: what it is, and where the rest is."""
        return f"<SimResult {self.system}: {self.n:,} attacks per target, seed {self.seed}; .to_dataframe()>"


def _empty(fields: tuple[Field, ...]) -> dict[str, Histogram]:
    return {f.name: Histogram(f) for f in fields}


def _add(hists: dict[str, Histogram], outcome: Outcome, weights: np.ndarray) -> None:
    for name, h in hists.items():
        h.add(outcome[name], weights)


def simulate_target(
    loaded: Loaded,
    target: Any,
    n: int,
    rng: np.random.Generator,
    *,
    method: Method = "table",
    progress: Progress | None = None,
) -> TargetSim:
    system, scenario = loaded.system, loaded.scenario
    hists = _empty(system.fields)
    labels_from: Outcome | None = None
    table = joint.build(system, scenario, target, TABLE_DEPTH) if method == "table" else None
    if table is not None and table.total > MAX_TOTAL:
        table = None
    if table is not None:
        sampler = Alias([int(w) for w in table.weights])
        counts = np.zeros(len(table.weights), dtype=np.int64)
        done = 0
        all_finite = bool(table.finite.all())
        while done < n:
            cancel.check()
            m = min(CHUNK, n - done)
            if all_finite:  # nothing beyond the depth: only the counts per support point are needed
                counts += sampler.counts(rng, m)
            else:
                for start in range(0, m, TABLE_STEP):
                    step = min(TABLE_STEP, m - start)
                    counts += np.bincount(sampler.sample(rng, step), minlength=len(counts))
            done += m
            if progress:
                progress(m)
        _add(hists, table.outcome, counts[table.finite])
        # Attacks that drew a point beyond the depth: their tail dice are sampled now, through `resolve`.
        beyond = np.flatnonzero(~table.finite & (counts > 0))
        if beyond.size:
            rows = np.repeat(beyond, counts[beyond])
            for start in range(0, rows.size, CHUNK):
                cancel.check()  # between chunks: stopped when its asker went away
                part = rows[start : start + CHUNK]
                extra = system.resolve(scenario, target, Dice(table.columns(part, rng)), Silent())
                _add(hists, extra, np.ones(extra.n, dtype=np.int64))
        labels_from = table.outcome
    else:
        roles = system.roles(scenario, target)
        done = 0
        while done < n:
            cancel.check()
            m = min(CHUNK, n - done)
            dice = Dice({name: role.sample(rng, m) for name, role in roles.items()})
            out = system.resolve(scenario, target, dice, Silent())
            _add(hists, out, np.ones(m, dtype=np.int64))
            labels_from = labels_from or out
            done += m
            if progress:
                progress(m)
    assert labels_from is not None
    return TargetSim(target.name, n, hists, labels_from, system.target_json(scenario, target))


def simulate(
    loaded: Loaded,
    n: int,
    seed: int | None = None,
    *,
    method: Method = "table",
    progress: Progress | None = None,
    workers: int = 1,
) -> SimResult:
    """N independent attacks against each target.

    With `workers` > 1 the attacks are split into tasks run by that many processes, each task with its
    own stream spawned from the seed; the tasks depend only on N and the worker count, so the same seed
    and worker count give the same result.
    """
    if seed is None:
        seed = loaded.scenario.seed if loaded.scenario.seed is not None else fresh_seed()
    targets_in = loaded.scenario.targets
    if workers <= 1:
        rng = np.random.default_rng(seed)
        shared = _simulate_shared(loaded, n, rng, progress) if method == "table" else None
        targets = shared or [simulate_target(loaded, t, n, rng, method=method, progress=progress) for t in targets_in]
        return SimResult(loaded.system.id, n, seed, method, targets, loaded.system.scenario_json(loaded.scenario))
    _SHARED["loaded"] = loaded
    results: list[Share] = []
    context = multiprocessing.get_context("fork")
    try:
        with process_pool(workers, context) as pool:
            shares = share_streams(n, seed, workers)
            futures = {pool.submit(_task, share, stream, method): share for share, stream in shares}
            for future in as_completed(futures):
                results.append(future.result())
                if progress:
                    progress(futures[future] * len(targets_in))
    finally:
        _SHARED.clear()
    return result_from_shares(loaded, n, seed, method, results)


#: One share's result: per target, its histograms' counts by field and the labels of its label fields.
Share = list[tuple[dict[str, dict[int, int]], Any]]


def share_streams(n: int, seed: int, workers: int) -> list[tuple[int, np.random.SeedSequence]]:
    """n attacks split into the tasks `workers` processes run (TASKS_PER_WORKER each), each with its stream spawned
    from the seed: a cluster given the same worker count gives the same result as that many local workers."""
    shares = _shares(n, workers * TASKS_PER_WORKER)
    return list(zip(shares, np.random.SeedSequence(seed).spawn(len(shares)), strict=True))


def result_from_shares(loaded: Loaded, n: int, seed: int, method: Method, results: list[Share]) -> SimResult:
    """The summary of n attacks per target from its shares' counts (a sum: the order does not matter)."""
    targets_in = loaded.scenario.targets
    merged: list[dict[str, Histogram]] = [_empty(loaded.system.fields) for _ in targets_in]
    labels: list[dict[str, tuple[str, ...]]] = [{} for _ in targets_in]
    for result in results:
        for i, (counts, task_labels) in enumerate(result):
            for name, hist in merged[i].items():
                for code, c in counts[name].items():
                    hist.counts[code] = hist.counts.get(code, 0) + c
            labels[i].update(task_labels)
    targets = []
    for t, hists, lab in zip(targets_in, merged, labels, strict=True):
        stub = Outcome(0)
        stub.labels = lab
        targets.append(TargetSim(t.name, n, hists, stub, loaded.system.target_json(loaded.scenario, t)))
    return SimResult(loaded.system.id, n, seed, method, targets, loaded.system.scenario_json(loaded.scenario))


def _simulate_shared(
    loaded: Loaded, n: int, rng: np.random.Generator, progress: Progress | None
) -> list[TargetSim] | None:
    """Several targets whose every role is rolled once for the whole attack (scope "attack", e.g. one
    hit die for the whole attack): one draw per attack serves every target, as at the table. None when this does not
    apply (then each target is simulated on its own)."""
    system, scenario = loaded.system, loaded.scenario
    if len(scenario.targets) < 2 or system.detail_roles:
        return None
    tables: list[joint.JointTable] = []
    for target in scenario.targets:
        table = joint.build(system, scenario, target, TABLE_DEPTH, template=tables[0] if tables else None)
        if any(role.scope != "attack" for role in table.roles.values()) or not bool(table.finite.all()):
            return None
        tables.append(table)
    first = tables[0]
    if first.total > MAX_TOTAL or any(table.weights is not first.weights for table in tables[1:]):
        return None
    sampler = Alias([int(w) for w in first.weights])
    counts = np.zeros(len(first.weights), dtype=np.int64)
    done = 0
    while done < n:
        cancel.check()
        m = min(CHUNK, n - done)
        counts += sampler.counts(rng, m)
        done += m
        if progress:
            progress(m * len(tables))
    out = []
    for target, table in zip(scenario.targets, tables, strict=True):
        hists = _empty(system.fields)
        _add(hists, table.outcome, counts)
        out.append(TargetSim(target.name, n, hists, table.outcome, system.target_json(scenario, target)))
    return out


#: Tasks per worker process: enough for a progress bar and for balance, few enough to stay cheap.
TASKS_PER_WORKER = 4
_SHARED: dict[str, Loaded] = {}


def _shares(n: int, parts: int) -> list[int]:
    parts = max(1, min(parts, n))
    return [n // parts + (1 if i < n % parts else 0) for i in range(parts)]


def _task(n: int, stream: np.random.SeedSequence, method: Method) -> Share:
    """One task in a worker process: its share of attacks per target, as plain counts."""
    return simulate_share(_SHARED["loaded"], n, stream, method)


def simulate_share(loaded: Loaded, n: int, stream: np.random.SeedSequence, method: Method) -> Share:
    """One share of attacks per target from its own stream, as plain counts (run wherever it is sent)."""
    rng = np.random.default_rng(stream)
    out = []
    for target in loaded.scenario.targets:
        sim = simulate_target(loaded, target, n, rng, method=method)
        out.append(({name: dict(h.counts) for name, h in sim.histograms.items()}, dict(sim.outcome.labels)))
    return out
