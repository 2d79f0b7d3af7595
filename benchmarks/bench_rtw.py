"""Reclaim the Wild benchmarks (issue #3): odds vs icepool, simulate vs raw 2d6 generation, roll vs d20.

The odds rows time `tohit.engine.odds.odds` (the whole report: every field's exact distribution, per target)
against icepool building the same per-target joint distribution from scratch: the To-Hit 2d6 (and the effect
2d6) mapped through the same rules, written here as a plain scalar function that reads the scenario (as a
general rules function must), checked to agree with tohit before timing.
"""

from __future__ import annotations

from typing import Any

import d20
import icepool
import numpy as np

from benchmarks.common import ROLL_TARGET, SEEDS, Row, best_time, first_odds, micros, per_second, resolve_alone
from tohit.engine.odds import odds
from tohit.engine.roll import roll, roll_many
from tohit.engine.scenario import from_dict
from tohit.engine.simulate import simulate

SWORD = {"name": "sword", "attack_power": 5, "acc": 3, "damage_type": "sharp", "crit_range": 1}
TARGETS: list[dict[str, Any]] = [
    {"name": "Bokoblin", "evasion": 12, "vitality": 12, "defense": 2, "health": 14, "hearts": 4},
    {"name": "Keese", "evasion": 14, "vitality": 9, "hard_to_hit": "hard", "vulnerable": ["sharp"], "defense": 9},
    {"name": "Knight", "evasion": 9, "vitality": 14, "defense": 5, "reaction": "deflect", "health": 6, "hearts": 2},
]
BASIC: dict[str, Any] = {
    "system": "rtw",
    "attacker": {"accuracy": 2, "combat": 3, "weapon": SWORD},
    "attack": {"name": "Strike", "kind": "basic", "damage": {"trait": "combat", "multiplier": 2}},
    "targets": TARGETS,
}
WITH_EFFECT: dict[str, Any] = {
    **BASIC,
    "attack": {**BASIC["attack"], "effect": {"name": "Off-Balance", "against": "vitality"}},
}


def rules(data: dict[str, Any], target: dict[str, Any], natural: int, effect: int | None) -> tuple[Any, ...]:
    """A Basic Attack's outcome for one To-Hit 2d6 (and effect 2d6), read from the scenario like tohit reads it:
    (result, damage, critical, effect_landed, peril, falls, durability_used, cost_spent). Covers what the
    benchmark scenarios use: Hard to Hit, the critical range, Weapon + k x Trait, Vulnerability, Defense,
    Resistance, Deflect, an effect vs Vitality, Health and Hearts (reclaim-the-wild.md; decisions 1-4, 8)."""
    attacker, attack = data["attacker"], data["attack"]
    weapon = attacker["weapon"]
    penalty = {"none": 0, "hard": -2, "extreme": -5}[target.get("hard_to_hit", "none")]
    bonus = attacker["accuracy"] + weapon["acc"] + penalty
    hit = natural + bonus >= target["evasion"]
    critical = hit and natural >= 12 - weapon.get("crit_range", 0)
    damage = 0
    if hit:
        formula = attack["damage"]
        power = weapon["attack_power"]
        raw = power + formula["multiplier"] * attacker[formula["trait"]] + (power if critical else 0)
        kind = weapon["damage_type"]
        vulnerable = kind in target.get("vulnerable", [])
        raw += 4 if vulnerable else 0
        raw -= target.get("defense", 0)
        raw -= target.get("resistance", {}).get(kind, 0) * (1 if vulnerable else 2)
        if target.get("reaction", "none") != "none":
            raw = max(raw, 0) // 2
        damage = max(raw, 4 if vulnerable else 1)
    landed: bool | None = None
    if effect is not None:
        stat = attack["effect"]["against"]
        landed = hit and effect + bonus >= max(target[stat], target["evasion"])
    peril = falls = None
    if "health" in target:
        after = max(0, target["health"] - damage)
        peril = after <= target["hearts"]
        falls = "perishes" if hit and after == 0 else None
    return ("hit" if hit else "miss", damage, critical, landed, peril, falls, hit, 0)


def icepool_odds(data: dict[str, Any]) -> list[Any]:
    """Per target, the joint distribution of every reported field, built by icepool from the dice up."""
    out = []
    for target in data["targets"]:
        if "effect" in data["attack"]:
            die = icepool.map(lambda a, b, t=target: rules(data, t, a, b), 2 @ icepool.d6, 2 @ icepool.d6)
        else:
            die = (2 @ icepool.d6).map(lambda a, t=target: rules(data, t, a, None))
        out.append(die)
    return out


def check_same(data: dict[str, Any]) -> None:
    """The two sides compute the same distribution (result and damage), or the figures mean nothing."""
    ours = odds(from_dict(data))
    for target, die in zip(data["targets"], icepool_odds(data), strict=True):
        mine = ours.target(target["name"])
        for index, field in ((0, "result"), (1, "damage")):
            marginal = die.marginals[index]
            theirs = {k: marginal.probability(k) for k in marginal.outcomes()}
            assert {v: p for v, p in mine.distribution(field) if p} == theirs, (target["name"], field)


def run(quick: bool) -> list[Row]:
    rows: list[Row] = []
    repeat = 3 if quick else 7

    for label, data in (("Basic Attack vs 3 targets", BASIC), ("Basic Attack + effect vs 3 targets", WITH_EFFECT)):
        check_same(data)
        loaded = from_dict(data)
        ours = best_time(lambda loaded=loaded: first_odds(loaded), repeat=repeat, number=5)
        again = best_time(lambda loaded=loaded: odds(loaded), repeat=repeat, number=100)
        ref = best_time(lambda data=data: icepool_odds(data), repeat=repeat, number=5)
        floor = best_time(resolve_alone(loaded), repeat=repeat, number=5)
        rows.append(Row("rtw", f"odds, {label}", micros(ours), f"icepool {micros(ref)}", ref / ours, 5.0))
        rows.append(
            Row("rtw", f"odds, {label}: floor, resolve alone once per target", micros(floor), f"icepool {micros(ref)}",
                ref / floor)
        )  # fmt: skip
        rows.append(
            Row("rtw", f"odds, {label}, again: tables kept", micros(again), f"icepool {micros(ref)}", ref / again)
        )

    # simulate: attacks per second (each target n times) vs generating the 2d6 those attacks need
    loaded = from_dict(BASIC)
    n = 1_000_000 if quick else 10_000_000
    attacks = n * len(TARGETS)
    rng = np.random.default_rng(1)
    sim = best_time(lambda: simulate(loaded, n, seed=1), repeat=2 if quick else 3)
    raw = best_time(lambda: rng.integers(1, 7, size=2 * attacks, dtype=np.uint8), repeat=3 if quick else 5)
    rows.append(
        Row(
            "rtw",
            f"simulate {attacks:,} attacks (3 targets)",
            per_second(attacks, sim),
            f"numpy 2d6 {per_second(attacks, raw)}",
            raw / sim,
            0.5,
        )
    )

    # roll with its trace vs d20 rolling 2d6+5 and rendering it: one roll per call, and a batch of 1,000
    count = 200 if quick else 2000
    ref_roll = best_time(lambda: [str(d20.roll("2d6+5")) for _ in range(count)], repeat=3) / count
    single = best_time(lambda: [roll(loaded, seed=next(SEEDS)) for _ in range(count // 10)], repeat=3) / (count // 10)
    rows.append(
        Row("rtw", "roll with trace (3 targets), 1 per call", per_second(1, single), f"d20 {per_second(1, ref_roll)}",
            ref_roll / single, ROLL_TARGET)
    )  # fmt: skip
    one = from_dict({**BASIC, "targets": TARGETS[:1]})
    single_one = best_time(lambda: [roll(one, seed=next(SEEDS)) for _ in range(count // 10)], repeat=3) / (count // 10)
    rows.append(
        Row("rtw", "roll with trace (1 target), 1 per call", per_second(1, single_one),
            f"d20 {per_second(1, ref_roll)}", ref_roll / single_one, ROLL_TARGET)
    )  # fmt: skip
    batch = best_time(lambda: roll_many(loaded, 1000, seed=1), repeat=3) / 1000
    rows.append(
        Row("rtw", "roll with trace (3 targets), --times 1000", per_second(1, batch), f"d20 {per_second(1, ref_roll)}",
            ref_roll / batch, ROLL_TARGET)
    )  # fmt: skip
    return rows
