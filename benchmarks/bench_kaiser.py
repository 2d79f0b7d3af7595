"""Kaiser RPG benchmarks (issue #2): odds vs icepool, simulate vs raw d6 generation, roll vs d20."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import d20
import icepool
import numpy as np

from benchmarks.common import ROLL_TARGET, SEEDS, Row, best_time, first_odds, micros, per_second
from tohit.engine.odds import odds
from tohit.engine.roll import roll, roll_many
from tohit.engine.scenario import from_dict, load
from tohit.engine.simulate import simulate
from tohit.systems.kaiser.tables import fumble_dice_count

CEIL = Path(__file__).resolve().parents[1] / "examples" / "kaiser" / "ceil-vs-bandit.yaml"


def icepool_damage(depth: int) -> Any:
    """The Ceil scenario's damage distribution in icepool: open rolls to `depth` dice, fumbles, 2d6 each side."""

    def special(a: int, b: int) -> Any:
        if a == b == 6:
            return 12 + icepool.d6.explode(depth=depth - 1)
        if a == b == 1:
            return (2 @ icepool.d6).map(fumble_dice_count)
        return a + b

    roll_die = icepool.map(special, icepool.d6, icepool.d6)
    offense = roll_die + 12
    defense = (roll_die + 7).map(lambda x: x)  # fumble floor is irrelevant at these skills

    def damage(o: int, d: int) -> int:
        dos = o - d
        return max(0, dos - 5) * 7 if dos > 0 else 0

    return icepool.map(damage, offense, defense)


def run(quick: bool) -> list[Row]:
    loaded = load(CEIL)
    rows: list[Row] = []

    # odds: one call, vs icepool building the same damage distribution from scratch
    depth = loaded.system.depth(loaded.scenario)
    ours = best_time(lambda: first_odds(loaded), repeat=3 if quick else 7)
    again = best_time(lambda: odds(loaded), repeat=3 if quick else 7, number=100)
    icepool.Die.__init__  # noqa: B018  (icepool caches nothing across calls below: each builds anew)
    ref = best_time(lambda: icepool_damage(depth), repeat=2 if quick else 5)
    rows.append(Row("kaiser", "odds (Ceil, depth 8)", micros(ours), f"icepool {micros(ref)}", ref / ours, 5.0))
    rows.append(Row("kaiser", "odds (Ceil, depth 8), again: tables kept", micros(again), f"icepool {micros(ref)}",
                    ref / again))  # fmt: skip

    # simulate: attacks per second vs generating the 4 d6 each attack needs
    n = 1_000_000 if quick else 10_000_000
    rng = np.random.default_rng(1)
    sim = best_time(lambda: simulate(loaded, n, seed=1), repeat=2 if quick else 3)
    raw = best_time(lambda: rng.integers(1, 7, size=4 * n, dtype=np.uint8), repeat=3 if quick else 5)
    rows.append(
        Row("kaiser", f"simulate {n:,} attacks", per_second(n, sim), f"numpy 4d6 {per_second(n, raw)}", raw / sim, 0.5)
    )

    # roll with its trace vs d20 rolling 2d6+5 and rendering it: one roll per call, and a batch of 1,000
    count = 200 if quick else 2000
    ref_roll = best_time(lambda: [str(d20.roll("2d6+5")) for _ in range(count)], repeat=3) / count
    single = best_time(lambda: [roll(loaded, seed=next(SEEDS)) for _ in range(count // 10)], repeat=3) / (count // 10)
    rows.append(
        Row(
            "kaiser",
            "roll with trace, 1 per call",
            per_second(1, single),
            f"d20 {per_second(1, ref_roll)}",
            ref_roll / single,
            ROLL_TARGET,
        )
    )
    free = load_free(loaded)
    batch = best_time(lambda: roll_many(free, 1000, seed=1), repeat=3) / 1000
    rows.append(
        Row(
            "kaiser",
            "roll with trace, --times 1000",
            per_second(1, batch),
            f"d20 {per_second(1, ref_roll)}",
            ref_roll / batch,
            ROLL_TARGET,
        )
    )
    return rows


def load_free(loaded: Any) -> Any:
    """The same scenario without forced faces (every roll is rolled)."""
    data = loaded.scenario.model_dump(mode="json")
    data["dice"] = {}
    data["targets"] = [{**t, "dice": {}} for t in data["targets"]]
    return from_dict(data)
