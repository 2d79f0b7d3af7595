"""FullPlate benchmarks: exact odds vs icepool, simulation vs raw dice, traced roll vs d20.

The attack: THAC0 14 with a +1 longbow and Strength +2 (flat +3), `double_dice` critical damage (2d8 + 3 on a
Critical Hit), against AC 2 (issue #5, "Speed").
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil
from typing import Any

import d20
import icepool
import numpy as np

from benchmarks.common import ROLL_TARGET, SEEDS, Row, best_time, first_odds, micros, per_second
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import Loaded, from_dict
from tohit.engine.simulate import simulate

SCENARIO: dict[str, Any] = {
    "system": "fullplate",
    "attacker": {
        "name": "Archer",
        "thac0": 14,
        "damage_bonus": 2,
        "weapon": {"name": "longbow", "damage": "1d8", "enhancement": 1, "kind": "bow_like"},
    },
    "attack": {},
    "targets": [{"name": "Bandit", "ac": 2}],
    "options": {"crit_damage": "double_dice"},
}
EFF, AC, FLAT = 13, 2, 3


def icepool_odds() -> dict[tuple[str, int], Fraction]:
    """The same (result, damage) distribution, computed by icepool over d20 x d8 x d8."""

    def outcome(nat: int, a: int, b: int) -> tuple[str, int]:
        if nat == 1:
            return ("fumble", 0)
        roll_ = EFF - nat
        if roll_ > AC and nat != 20:
            return ("miss", 0)
        short = roll_ - AC
        halvings = ceil((short - 10) / 5) if short > 10 else 0
        critical = nat == 20 and AC - roll_ >= 5
        damage = Fraction((a + b if critical else a) + FLAT, 2**halvings)
        if damage < Fraction(1, 2):
            return ("miss", 0)
        return ("hit", max(1, int(damage)))

    die = icepool.map(outcome, icepool.d20, icepool.d8, icepool.d8)
    return {o: Fraction(q, die.denominator()) for o, q in die.items()}


def _check_same(loaded: Loaded) -> None:
    """Both sides compute the same distribution: the result and damage marginals agree."""
    ours = odds(loaded).targets[0]
    theirs = icepool_odds()
    for label in ("hit", "miss", "fumble"):
        assert ours.probability("result", label) == sum(p for (r, _), p in theirs.items() if r == label)
    damage: dict[int, Fraction] = {}
    for (_, d), p in theirs.items():
        damage[d] = damage.get(d, Fraction(0)) + p
    assert {v: p for v, p in ours.distribution("damage") if p} == damage


def run(quick: bool) -> list[Row]:
    loaded = from_dict(SCENARIO, source="bench_fullplate")
    _check_same(loaded)
    rows: list[Row] = []

    # Exact odds vs icepool.
    repeat = 3 if quick else 7
    ours = best_time(lambda: first_odds(loaded), repeat=repeat, number=5 if quick else 20)
    again = best_time(lambda: odds(loaded), repeat=repeat, number=100)
    ref = best_time(icepool_odds, repeat=repeat, number=1 if quick else 3)
    rows.append(
        Row("fullplate", "exact odds, longbow 2d8+3 crit", micros(ours), f"icepool {micros(ref)}", ref / ours, 5.0)
    )
    rows.append(
        Row("fullplate", "exact odds, longbow 2d8+3 crit, again: tables kept", micros(again), f"icepool {micros(ref)}",
            ref / again)
    )  # fmt: skip

    # Simulation vs generating the raw dice (d20, d8, d8 per attack).
    n = 1_000_000 if quick else 10_000_000
    simulate(loaded, 10_000, seed=1)
    sim = best_time(lambda: simulate(loaded, n, seed=1), repeat=2 if quick else 3)
    rng = np.random.default_rng(1)

    def raw() -> None:
        for sides in (20, 8, 8):
            rng.integers(1, sides + 1, size=n, dtype=np.uint8)

    raw_t = best_time(raw, repeat=2 if quick else 3)
    rows.append(
        Row(
            "fullplate",
            f"simulate {n:,} attacks (table)",
            per_second(n, sim),
            f"raw dice {per_second(n, raw_t)}",
            raw_t / sim,
            0.5,
        )
    )
    direct = best_time(lambda: simulate(loaded, n, seed=1, method="direct"), repeat=2 if quick else 3)
    rows.append(
        Row(
            "fullplate",
            f"simulate {n:,} attacks (direct)",
            per_second(n, direct),
            f"raw dice {per_second(n, raw_t)}",
            raw_t / direct,
        )
    )

    # A traced roll vs d20 rolling "2d6+5" and rendering it.
    count = 200 if quick else 2000
    traced = best_time(lambda: roll(loaded, seed=next(SEEDS)), repeat=3, number=count)
    d20_t = best_time(lambda: str(d20.roll("2d6+5")), repeat=3, number=count)
    d20_rate = f"d20 {per_second(1, d20_t)}"
    rows.append(Row("fullplate", "traced roll", per_second(1, traced), d20_rate, d20_t / traced, ROLL_TARGET))
    return rows
