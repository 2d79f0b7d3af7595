"""What one point of a sweep holds: the measures of its attack (exact odds) or its fight (Monte Carlo, or a
duel solved exactly). `measure` runs where the work runs (in this process, a local worker or a cluster
worker): it takes plain data and returns plain rows, so it pickles the same everywhere.

Attack rows (one per target): `target`, `p_<result>` for every result the game's outcome has, `mean_damage`,
the damage percentiles `damage_p5` ... `damage_p95`, `beyond_depth`.
Fight rows: `win_<side>`, `win_<side>_lo`, `win_<side>_hi` (95% Wilson interval), `draw`, `mean_rounds`, and per
side `survivors_<side>` (mean number standing at the end) and `health_<side>` (mean health those survivors
keep, summed over the side; 0 for a side that falls).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from tohit.core.exact_text import fraction_text
from tohit.engine.fight.context import Method
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.odds import odds
from tohit.engine.scenario import from_dict
from tohit.engine.stats import wilson
from tohit.engine.tally import value_key

#: The damage percentiles of an attack point.
PERCENTILES = (5, 25, 50, 75, 95)
#: Columns every row starts with.
POINT = "point"


@dataclass(frozen=True)
class Task:
    """One point's work, as plain data: its index, its document, and how to measure it."""

    index: int
    document: dict[str, Any]
    source: str
    kind: str
    n: int
    seed: int
    exact: bool = False
    method: Method = "table"
    depth: int | None = None


def point_seed(seed: int, index: int) -> int:
    """The seed of point `index`: the `index`-th child of `SeedSequence(seed)` (as `.spawn()` makes it), as a
    128-bit whole number (so `tohit fight FILE -n N --seed <it>` on the point's file repeats the point)."""
    child = np.random.SeedSequence(seed, spawn_key=(index,))
    words = child.generate_state(2, np.uint64)
    return (int(words[0]) << 64) | int(words[1])


def measure(task: Task) -> list[dict[str, Any]]:
    """The rows of one point (without its varied values, which the caller adds)."""
    if task.kind == "fight":
        return [_fight_row(task)]
    return _attack_rows(task)


def _percentile(dist: list[tuple[Any, Fraction]], q: int) -> int:
    """The smallest damage with at least q% of the probability at or below it (over the outcomes counted)."""
    total = sum((p for _, p in dist), Fraction(0))
    running = Fraction(0)
    for value, p in dist:
        running += p
        if running * 100 >= q * total and p:
            return int(value)
    return int(dist[-1][0]) if dist else 0


def _attack_rows(task: Task) -> list[dict[str, Any]]:
    loaded = from_dict(task.document, source=task.source)
    result = odds(loaded, task.depth)
    rows = []
    for target in result.targets:
        exact: dict[str, Any] = {}
        row: dict[str, Any] = {"target": target.name}
        for value, p in target.distribution("result"):
            key = f"p_{value_key(value)}"
            row[key] = float(p)
            exact[key] = fraction_text(p)
        row["mean_damage"] = float(target.mean_damage)
        exact["mean_damage"] = fraction_text(target.mean_damage)
        dist = target.distribution("damage")
        for q in PERCENTILES:
            row[f"damage_p{q}"] = _percentile(dist, q)
        row["beyond_depth"] = float(target.beyond_depth)
        row["exact"] = exact
        rows.append(row)
    return rows


def _fight_row(task: Task) -> dict[str, Any]:
    from tohit.engine.fight.exact import exact_duel
    from tohit.engine.fight.run import simulate_fights

    fight = fight_from_dict(task.document, source=task.source)
    sides = fight.roster.side_names
    row: dict[str, Any] = {}
    if task.exact:
        result = exact_duel(fight, depth=task.depth)
        for name, p in zip(sides, result.wins, strict=True):
            row[f"win_{name}"] = row[f"win_{name}_lo"] = row[f"win_{name}_hi"] = float(p)
        row["draw"] = float(result.draw)
        row["mean_rounds"] = None if result.expected_rounds is None else float(result.expected_rounds)
        row["exact"] = {f"win_{name}": fraction_text(p) for name, p in zip(sides, result.wins, strict=True)}
        row["exact"]["draw"] = fraction_text(result.draw)
        return row
    seed = point_seed(task.seed, task.index)
    stats = simulate_fights(fight, task.n, seed, method=task.method)
    tally, n = stats.tally, task.n
    row["point_seed"] = str(seed)
    for s, name in enumerate(sides):
        low, high = wilson(int(tally.wins[s]), n)
        row[f"win_{name}"] = int(tally.wins[s]) / n
        row[f"win_{name}_lo"] = low
        row[f"win_{name}_hi"] = high
    row["draw"] = tally.draws / n
    row["mean_rounds"] = sum(r * c for r, c in tally.rounds.items()) / n
    side = fight.roster.side
    for s, name in enumerate(sides):
        members = [c for c in range(fight.roster.size) if side[c] == s]
        row[f"survivors_{name}"] = sum(int(tally.standing[c]) for c in members) / n
        row[f"health_{name}"] = sum(int(tally.health_standing[c]) for c in members) / n
    return row
