"""WSSWNN benchmarks (issue 7, "Speed"): a d10 melee attack with maneuver advantage d8.

- exact odds per call vs icepool computing the same distribution (target: at least 5x faster);
- simulate attacks/s (both samplers) vs numpy generating the raw dice those attacks need (target 0.5x);
- traced rolls/s vs `d20.roll("2d6+5")` + `str()`.
"""

from __future__ import annotations

from typing import Any

import icepool
import numpy as np

from benchmarks.common import ROLL_TARGET, SEEDS, Row, best_time, first_odds, micros, per_second, resolve_alone
from tohit.engine.odds import odds
from tohit.engine.roll import roll, roll_many
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


def _outcome(r: int) -> tuple[str, int, int, int, int]:
    """(result, lethal, guard damage, guard after, life after) of a kept attack roll `r`."""
    if r > GUARD:
        lethal = max(0, r - GUARD - ARMOR)
        gd = max(0, GUARD_DAMAGE - UNFLINCHING)
        return ("hit", lethal, gd, GUARD - gd, 12 - lethal)
    if r > AGILITY:
        gd = max(0, GUARD_DAMAGE - UNFLINCHING)
        return ("block", 0, gd, GUARD - gd, 12)
    return ("miss", 0, 0, GUARD, 12)


def _marginals(joint: Any, kept: Any) -> dict[str, dict[Any, int]]:
    names = ("result", "lethal", "guard_damage", "guard_after", "life_after")
    out: dict[str, dict[Any, int]] = {name: {} for name in names}
    for values, quantity in joint.items():
        for name, value in zip(names, values, strict=True):
            out[name][value] = out[name].get(value, 0) + quantity
    out["attack_roll"] = dict(kept.items())
    return out


def icepool_highest_then_map() -> dict[str, dict[Any, int]]:
    """The distribution tohit's odds report, in icepool: keep the higher of d10 and d8, map it to the joint
    outcome, then each field's marginal (the leaner of the two icepool formulations)."""
    kept = icepool.highest(icepool.d10, icepool.d8)
    return _marginals(kept.map(_outcome), kept)


def icepool_map_over_dice() -> dict[str, dict[Any, int]]:
    """The same, with icepool.map over both dice (as the Kaiser benchmark maps over its dice)."""
    joint = icepool.map(lambda a, m: _outcome(max(a, m)), icepool.d10, icepool.d8)
    return _marginals(joint, icepool.map(lambda a, m: max(a, m), icepool.d10, icepool.d8))


def run(quick: bool) -> list[Row]:
    loaded: Loaded = from_dict(SCENARIO, source="bench_wsswnn")
    rows: list[Row] = []

    # Exact odds.
    repeat, number = (3, 20) if quick else (5, 200)
    ours = best_time(lambda: first_odds(loaded), repeat=repeat, number=number)
    again = best_time(lambda: odds(loaded), repeat=repeat, number=number)
    lean = best_time(icepool_highest_then_map, repeat=repeat, number=max(1, number // 4))
    mapped = best_time(icepool_map_over_dice, repeat=repeat, number=max(1, number // 4))
    what = "exact odds, d10 melee + maneuver advantage d8"
    rows.append(Row("wsswnn", what, micros(ours), f"icepool highest+map {micros(lean)}", lean / ours, 5.0))
    rows.append(Row("wsswnn", what, micros(ours), f"icepool map(d10, d8) {micros(mapped)}", mapped / ours))
    floor = best_time(resolve_alone(loaded), repeat=repeat, number=number)
    rows.append(
        Row("wsswnn", f"{what}: floor, resolve alone", micros(floor), f"icepool highest+map {micros(lean)}",
            lean / floor)
    )  # fmt: skip
    rows.append(
        Row("wsswnn", f"{what}, again: tables kept", micros(again), f"icepool highest+map {micros(lean)}",
            lean / again)
    )  # fmt: skip

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

    # A traced roll vs d20 (imported here: its parser warns on import, and the tests import this module).
    import d20

    number = 200 if quick else 2000
    traced = best_time(lambda: roll(loaded, seed=next(SEEDS)), repeat=3, number=number)
    d20_time = best_time(lambda: str(d20.roll("2d6+5")), repeat=3, number=number)
    rows.append(
        Row(
            "wsswnn",
            "traced roll, 1 per call",
            per_second(1, traced),
            f"d20 {per_second(1, d20_time)}",
            d20_time / traced,
            ROLL_TARGET,
        )
    )
    batch = best_time(lambda: roll_many(loaded, 1000, seed=4), repeat=3) / 1000
    rows.append(
        Row(
            "wsswnn",
            "traced roll, --times 1000",
            per_second(1, batch),
            f"d20 {per_second(1, d20_time)}",
            d20_time / batch,
            ROLL_TARGET,
        )
    )
    return rows
