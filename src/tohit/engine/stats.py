"""Summary statistics of simulated counts: confidence intervals, mean, standard deviation, percentiles."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_sd(counts: dict[int, int]) -> tuple[float, float]:
    n = sum(counts.values())
    if n == 0:
        return (0.0, 0.0)
    mean = sum(v * c for v, c in counts.items()) / n
    var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1) if n > 1 else 0.0
    return (mean, math.sqrt(var))


def percentile(counts: dict[int, int], q: float) -> int:
    """The smallest value with at least q% of the counts at or below it (nearest-rank)."""
    n = sum(counts.values())
    rank = max(1, math.ceil(q / 100 * n))
    seen = 0
    for v in sorted(counts):
        seen += counts[v]
        if seen >= rank:
            return v
    return max(counts)
