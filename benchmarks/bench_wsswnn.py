"""WSSWNN benchmarks (issue 7, "Speed"): a d10 melee attack with maneuver advantage d8.

- exact odds per call vs icepool computing the same distribution (target: at least 5x faster);
- simulate attacks/s (both samplers) vs numpy generating the raw dice those attacks need (target 0.5x);
- traced rolls/s vs `d20.roll("2d6+5")` + `str()`.
"""

from __future__ import annotations

from typing import Any

import d20
import icepool
import numpy as np

from benchmarks.common import Row, best_time, micros, per_second
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import Loaded, from_dict
from tohit.engine.simulate import simulate

GUARD, AGILITY, ARMOR, GUARD_DAMAGE, UNFLINCHING = 5, 2, 1, 2, 1

SCENARIO: dict[str, Any] = {
    "system": "wsswnn",
    "attacker": {
        "name": "Champion",
        "attack_die": "d10",
        "maneuver_die": "d8",
        "weapon": {"name": "greatsword", "guard_damage": GUARD_DAMAGE},
    },
    "attack": {"kind": "melee", "advantage": "maneuver"},
    "targets": [
        {"name": "Foe", "guard": GUARD, "agility": AGILITY, "armor": ARMOR, "unflinching": UNFLINCHING, "life": 12}
    ],
}


def _icepool_same() -> dict[str, dict[Any, int]]:
    """The distribution tohit's odds report, computed with icepool: the attack roll's joint outcome
    (result, lethal, guard damage, guard after, life after), then each field's marginal."""

    def outcome(r: int) -> tuple[str, int, int, int, int]:
        if r > GUARD:
            lethal = max(0, r - GUARD - ARMOR)
            gd = max(0, GUARD_DAMAGE - UNFLINCHING)
            return ("hit", lethal, gd, GUARD - gd, 12 - lethal)
        if r > AGILITY:
            gd = max(0, GUARD_DAMAGE - UNFLINCHING)
            return ("block", 0, gd, GUARD - gd, 12)
        return ("miss", 0, 0, GUARD, 12)

    joint = icepool.highest(icepool.d10, icepool.d8).map(outcome)
    names = ("result", "lethal", "guard_damage", "guard_after", "life_after")
    out: dict[str, dict[Any, int]] = {name: {} for name in names}
    for values, quantity in joint.items():
        for name, value in zip(names, values, strict=True):
            out[name][value] = out[name].get(value, 0) + quantity
    out["attack_roll"] = dict(icepool.highest(icepool.d10, icepool.d8).items())
    return out


def run(quick: bool) -> list[Row]:
    loaded: Loaded = from_dict(SCENARIO, source="bench_wsswnn")
    rows: list[Row] = []

    # Exact odds.
    repeat, number = (3, 20) if quick else (5, 200)
    ours = best_time(lambda: odds(loaded), repeat=repeat, number=number)
    theirs = best_time(_icepool_same, repeat=repeat, number=max(1, number // 4))
    rows.append(
        Row(
            "wsswnn",
            "exact odds, d10 melee + maneuver advantage d8",
            micros(ours),
            f"icepool {micros(theirs)}",
            theirs / ours,
            5.0,
        )
    )

    # Simulation vs the raw dice (a d10 and a d8 per attack).
    n = 1_000_000 if quick else 10_000_000
    rng = np.random.default_rng(1)

    def raw_dice() -> None:
        rng.integers(1, 11, size=n, dtype=np.uint8)
        rng.integers(1, 9, size=n, dtype=np.uint8)

    raw = best_time(raw_dice, repeat=3)
    for method in ("table", "direct"):
        sim = best_time(lambda m=method: simulate(loaded, n, seed=2, method=m), repeat=3)  # type: ignore[misc]
        rows.append(
            Row(
                "wsswnn",
                f"simulate ({method}), attacks/s",
                per_second(n, sim),
                f"raw dice {per_second(n, raw)}",
                raw / sim,
                0.5 if method == "table" else None,
            )
        )

    # A traced roll vs d20.
    number = 200 if quick else 2000
    traced = best_time(lambda: roll(loaded, seed=3), repeat=3, number=number)
    d20_time = best_time(lambda: str(d20.roll("2d6+5")), repeat=3, number=number)
    rows.append(
        Row(
            "wsswnn",
            "traced roll, rolls/s",
            per_second(1, traced),
            f"d20 {per_second(1, d20_time)}",
            d20_time / traced,
        )
    )
    return rows
