"""Two simulated fights compared on common random numbers, with the paired interval of their difference.

`compare` and `solve --against` run A and B on one seed: the fights are split in blocks (`BLOCKS`, each of at
least `MIN_BLOCK` fights), and block k of A and block k of B draw from the same stream (the k-th child of the
point's seed). So the luck a block hands A it hands B too, and B - A measured block by block keeps the
difference the builds make and cancels much of the luck they share. The blocks are independent of each other (their
streams are), so the block differences d_1 ... d_K are K independent draws of one variable: B - A over all the
fights is their mean (weighted by the blocks' fights), and its 95% interval is the paired (batch-means) one,
mean +- t(K-1) x sd(d) / sqrt(K) (Student's t, 97.5%). An interval of two independent runs (Newcombe's) would be
too wide for runs that share their dice, and wrong for a run compared with itself (which differs by exactly 0).

Fewer than two blocks' worth of fights (`-n` under 2 x `MIN_BLOCK`): one run each on the one seed, and the
independent interval of a chance (`compare.newcombe`), which is the wider one.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from typing import Any

from tohit.engine.stats import wilson
from tohit.sweeps.measure import Task, measure, point_seed

#: Blocks a simulated side is split into (at most).
BLOCKS = 10
#: Fights a block holds at the least.
MIN_BLOCK = 10
#: Student's t at 97.5% for 1 ... 19 degrees of freedom (K blocks: K - 1 of them; a 95% interval).
T975 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
)
#: Columns of a fight row that are not means over its fights.
NOT_MEANS = ("point_seed", "method")

Row = dict[str, Any]
Interval = tuple[float, float]


def block_sizes(n: int) -> list[int]:
    """n fights in `BLOCKS` blocks (fewer when n is small), their sizes differing by one at the most."""
    k = min(BLOCKS, n // MIN_BLOCK)
    if k < 2:
        return [n]
    return [n // k + (1 if j < n % k else 0) for j in range(k)]


def blocks(task: Task) -> list[Task]:
    """The tasks of one point's blocks: block k runs on the k-th child of the point's own seed."""
    sizes = block_sizes(task.n)
    if len(sizes) == 1:
        return [task]
    seed = point_seed(task.seed, task.index)
    return [dataclasses.replace(task, index=k, n=size, seed=seed) for k, size in enumerate(sizes)]


def merged(rows: list[Row], sizes: list[int]) -> Row:
    """The row of all the blocks' fights: each mean weighted by its block's fights, win intervals anew."""
    if len(rows) == 1:
        return rows[0]
    n = sum(sizes)
    out: Row = {}
    for key, value in rows[0].items():
        if key in NOT_MEANS or key.endswith(("_lo", "_hi")) or not isinstance(value, (int, float)):
            out[key] = value
            continue
        out[key] = sum(row[key] * size for row, size in zip(rows, sizes, strict=True)) / n
    out.pop("point_seed", None)
    for key in [k for k in out if k.startswith("win_") and f"{k}_lo" in rows[0]]:
        out[f"{key}_lo"], out[f"{key}_hi"] = wilson(round(out[key] * n), n)
    return out


def paired(a: Task, b: Task) -> tuple[Row, Row, dict[str, Interval]]:
    """A and B simulated on common random numbers, block by block: each side's row over all its fights, and the
    paired 95% interval of B - A of every measure (none when there is one block)."""
    tasks_a, tasks_b = blocks(a), blocks(b)
    sizes = [t.n for t in tasks_a]
    rows_a = [measure(t)[0] for t in tasks_a]
    rows_b = [measure(t)[0] for t in tasks_b]
    row_a, row_b = merged(rows_a, sizes), merged(rows_b, sizes)
    if len(sizes) == 1:
        return row_a, row_b, {}
    intervals: dict[str, Interval] = {}
    for key, value in row_a.items():
        if key in NOT_MEANS or key.endswith(("_lo", "_hi")) or not isinstance(value, (int, float)):
            continue
        if not isinstance(row_b.get(key), (int, float)):
            continue
        diffs = [y[key] - x[key] for x, y in zip(rows_a, rows_b, strict=True)]
        half = T975[len(diffs) - 2] * statistics.stdev(diffs) / math.sqrt(len(diffs))
        centre = row_b[key] - row_a[key]
        intervals[key] = (centre - half, centre + half)
    return row_a, row_b, intervals
