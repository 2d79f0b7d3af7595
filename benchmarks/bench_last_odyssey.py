"""Last Odyssey benchmarks (issue 6, "Speed"): a Multi physical attack on 5 targets.

- Exact odds: `tohit.engine.odds.odds` against icepool computing the same distributions: for each target,
  every field `odds` reports (result, damage and its mean, base damage, Shell absorbed, overflow, HP lost,
  downed, incapacitated, status applied, tracker), from a plain-Python rule function that reads
  the scenario as `resolve` does (`_reference_fields`, checked equal to ours before timing). icepool gets
  its faster of two idiomatic ways: one `d10.map` to a tuple of fields per target then its marginals, or
  one `d10.map` per field. A second row, for information only, gives icepool far less work: result and
  damage, with this scenario's constants folded into the function by hand.
- Simulation: attacks per second of `simulate` (table sampler) against numpy drawing the dice those attacks
  need: one d10 per attack (`rng.integers(1, 11, dtype=np.uint8)`), for one target and for the Multi
  attack on 5 targets (one hit die serves every target).
- Traced roll: `roll` of the 5-target attack (and of one target) with its trace, one at a time and as
  `roll --times 1000` (`roll_many`: one vectorised `resolve` per target), against `d20.roll("2d6+5")` and
  `str()`.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import d20
import icepool
import numpy as np

from benchmarks.common import MULTI_ROLL_TARGET, ROLL_TARGET, SEEDS, Row, first_odds, micros, per_second
from tohit.engine.odds import odds
from tohit.engine.roll import roll, roll_many
from tohit.engine.scenario import Loaded, from_dict
from tohit.engine.simulate import simulate

GROUP = "last-odyssey"
NULL = -1  # icepool sorts outcomes, so a null field is encoded as -1 on its side

#: A Multi physical attack (Whirlwind-like, x1.5) on five targets with different Evasion, Defense, Shells.
MULTI: dict[str, Any] = {
    "system": "last-odyssey",
    "attacker": {"name": "Striker", "physical_accuracy": 4, "physical_attack": 3},
    "attack": {"kind": "physical", "type": "multi", "multipliers": [1.5]},
    "targets": [
        {"name": "Cop", "evasion": 1, "physical_defense": 2, "shell": 5, "hp": 10},
        {"name": "Drone", "evasion": 2, "physical_defense": 0, "shell": False, "hp": 2},
        {"name": "Spider", "evasion": 0, "physical_defense": 3, "shell": 3, "hp": 17},
        {"name": "Goblin", "evasion": 6, "physical_defense": 1, "shell": True},
        {"name": "Shaman", "evasion": 9, "physical_defense": 1, "shell": 0, "hp": 4, "element_multiplier": 2},
    ],
}


def _loaded(data: dict[str, Any]) -> Loaded:
    return from_dict(copy.deepcopy(data), source="bench")


def _reference_fields(face: int, target: dict[str, Any], data: dict[str, Any] = MULTI) -> tuple[Any, ...]:
    """The fields `odds` reports, for one face and target, from the scenario as given (the icepool side's
    rules, written like `resolve` handles any scenario: statistics and Bonus Tracker, statuses, Shell,
    element, multipliers, knock-out, leaning in, HP). Nulls are encoded as NULL (icepool sorts outcomes)."""
    user, attack = data["attacker"], data["attack"]
    kind = attack["kind"]

    def stat(side: dict[str, Any], name: str, halved_by: str) -> int:
        base = side[name]
        if halved_by in side.get("statuses", ()):
            base = base // 2
        return int(base + side.get("buffs", {}).get(name, 0))

    element = Fraction(str(target.get("element_multiplier", 1)))
    shell, hp = target["shell"], target.get("hp")
    shelled = shell is True or (type(shell) is int and shell > 0)
    accuracy = stat(user, f"{kind}_accuracy", "blinded")
    hit = face - accuracy + stat(target, "evasion", "petrified") <= 7 or face == 1 or target.get("lean_in", False)
    if ("paralyzed" if kind == "physical" else "silenced") in user.get("statuses", ()):
        hit = False
    base, damage = NULL, 0
    if hit:
        die = 1 if attack.get("knock_out") else face
        base = max(1, stat(user, f"{kind}_attack", "") - stat(target, f"{kind}_defense", "") + die)
        modifier = element * (2 if (kind == "magical") == shelled else 1)
        for m in attack.get("multipliers", ()):
            modifier *= Fraction(str(m))
        damage = math.floor(base * modifier + Fraction(1, 2))
    absorbed = overflow = NULL
    if type(shell) is int and shell > 0:
        absorbed, broken = min(damage, shell), damage >= shell
        overflow = damage - absorbed if broken else NULL
        if hp is None:
            lost = NULL if broken and overflow > 0 else 0
        else:
            lost = hp if broken and damage - absorbed >= hp else 0
    elif shelled:
        lost = 0 if damage == 0 else NULL
    else:
        lost = min(damage, hp) if hp is not None else (0 if damage == 0 else NULL)
    downed = NULL if lost == NULL else int(hp is not None and lost == hp)
    incapacitated = NULL if lost == NULL else int(bool(downed) and bool(attack.get("knock_out")))
    return (int(hit), damage, base, NULL, absorbed, overflow, lost, downed, incapacitated, NULL)


def _lean_fields(face: int, target: dict[str, Any]) -> tuple[int, int]:
    """Result and damage only, with this scenario's constants folded in by hand (the leanest icepool input)."""
    hit = face - 4 + target["evasion"] <= 7 or face == 1
    if not hit:
        return (0, 0)
    shell = target["shell"]
    shelled = shell is True or (type(shell) is int and shell > 0)
    num = (
        max(1, 3 - target["physical_defense"] + face)
        * 3
        * (1 if shelled else 2)
        * int(target.get("element_multiplier", 1))
    )
    return (1, (num + 1) // 2)


def _icepool_tuple_marginals() -> list[list[Any]]:
    out = []
    for target in MULTI["targets"]:
        die = icepool.d10.map(lambda f, t=target: _reference_fields(f, t))
        fields = [die.marginals[i] for i in range(10)]
        out.append([*fields, fields[1].mean()])
    return out


def _icepool_per_field() -> list[list[Any]]:
    out = []
    for target in MULTI["targets"]:
        fields = [icepool.d10.map(lambda f, t=target, i=i: _reference_fields(f, t)[i]) for i in range(10)]
        out.append([*fields, fields[1].mean()])
    return out


def _icepool_result_and_damage() -> list[Any]:
    out = []
    for target in MULTI["targets"]:
        die = icepool.d10.map(lambda f, t=target: _lean_fields(f, t))
        out.append((die.marginals[0], die.marginals[1], die.marginals[1].mean()))
    return out


def _check_reference(loaded: Loaded) -> None:
    """The icepool side computes the same numbers as `odds` (a benchmark of different work is worthless)."""
    ours = odds(loaded)
    for target, theirs in zip(MULTI["targets"], _icepool_per_field(), strict=True):
        mine = ours.target(target["name"])
        assert mine.probability("result", "hit") == theirs[0].probability(1)
        assert dict(mine.distribution("damage")) == {v: theirs[1].probability(v) for v in theirs[1].outcomes()}
        assert mine.mean_damage == theirs[-1]
        lost = {(NULL if v is None else v): p for v, p in mine.distribution("hp_lost") if p}
        assert lost == {v: theirs[6].probability(v) for v in theirs[6].outcomes()}
    lean = _icepool_result_and_damage()
    for target, (result, _damage, mean) in zip(MULTI["targets"], lean, strict=True):
        mine = ours.target(target["name"])
        assert mine.probability("result", "hit") == result.probability(1) and mine.mean_damage == mean


def _cpu_time(fn: Callable[[], object], number: int) -> float:
    """Processor seconds per call (time.process_time: a busy machine's other processes do not count)."""
    start = time.process_time()
    for _ in range(number):
        fn()
    return (time.process_time() - start) / number


def _interleaved(candidates: dict[str, Callable[[], object]], *, rounds: int, number: int) -> dict[str, float]:
    """Best processor seconds per call of each candidate, timing them in turns round after round, so that
    what is left of a busy machine's noise falls on all of them alike."""
    best = dict.fromkeys(candidates, float("inf"))
    for _ in range(rounds):
        for name, fn in candidates.items():
            best[name] = min(best[name], _cpu_time(fn, number))
    return best


def run(quick: bool) -> list[Row]:
    rows: list[Row] = []
    multi = _loaded(MULTI)
    single = _loaded({**MULTI, "attack": {**MULTI["attack"], "type": "ranged"}, "targets": MULTI["targets"][:1]})
    _check_reference(multi)
    rounds, number = (8, 5) if quick else (20, 10)

    # Exact odds.
    times = _interleaved(
        {
            "ours": lambda: first_odds(multi),
            "again": lambda: odds(multi),
            "tuple": _icepool_tuple_marginals,
            "fields": _icepool_per_field,
            "slim": _icepool_result_and_damage,
        },
        rounds=rounds,
        number=number,
    )
    ours, reference, slim = times["ours"], min(times["tuple"], times["fields"]), times["slim"]
    what = "exact odds, Multi physical on 5 targets"
    rows.append(
        Row(GROUP, f"{what} (every field)", micros(ours), f"icepool {micros(reference)}", reference / ours, 5.0)
    )
    rows.append(
        Row(GROUP, f"{what}; icepool: result + damage, folded", micros(ours), f"icepool {micros(slim)}", slim / ours)
    )
    again = times["again"]
    rows.append(
        Row(GROUP, f"{what}, again: tables kept", micros(again), f"icepool {micros(reference)}", reference / again)
    )

    # Simulation against the raw dice: one d10 per attack, shared by every target.
    n = 1_000_000 if quick else 4_000_000
    rng = np.random.default_rng(1)
    times = _interleaved(
        {
            "raw": lambda: rng.integers(1, 11, size=n, dtype=np.uint8),
            "single": lambda: simulate(single, n, seed=1),
            "multi": lambda: simulate(multi, n, seed=1),
        },
        rounds=max(3, rounds // 4),
        number=1,
    )
    for key, label in (("single", "1 target"), ("multi", "Multi, 5 targets")):
        rows.append(
            Row(
                GROUP,
                f"simulate attacks/s, {label} (table)",
                per_second(n, times[key]),
                f"raw d10 {per_second(n, times['raw'])}",
                times["raw"] / times[key],
                0.5,
            )
        )
    direct_n = n // 10
    times = _interleaved(
        {
            "raw": lambda: rng.integers(1, 11, size=direct_n, dtype=np.uint8),
            "direct": lambda: simulate(single, direct_n, seed=1, method="direct"),
        },
        rounds=3,
        number=1,
    )
    rows.append(
        Row(
            GROUP,
            "simulate attacks/s, 1 target (direct: dice through resolve)",
            per_second(direct_n, times["direct"]),
            f"raw d10 {per_second(direct_n, times['raw'])}",
            times["raw"] / times["direct"],
        )
    )

    # Traced rolls: one at a time, and `roll --times 1000` (one vectorised resolve per target).
    batch = 200 if quick else 1000
    times = _interleaved(
        {
            "multi": lambda: roll(multi, next(SEEDS)),
            "single": lambda: roll(single, next(SEEDS)),
            "batch": lambda: roll_many(multi, batch, 1),
            "d20": lambda: str(d20.roll("2d6+5")),
        },
        rounds=rounds,
        number=number,
    )
    times["batch"] /= batch
    # d20 timed as in the other systems' rows (many calls in a row): timed in turns with the rolls, ten calls
    # at a time, it runs with cold caches after each numpy-heavy roll and looks twice as slow as it is.
    # The single rolls likewise (the same call many times in a row, as in the other systems' rows).
    warm = _interleaved(
        {
            "d20": lambda: str(d20.roll("2d6+5")),
            "multi": lambda: roll(multi, next(SEEDS)),
            "single": lambda: roll(single, next(SEEDS)),
        },
        rounds=3,
        number=2000,
    )
    for key in ("d20", "multi", "single"):
        times[key] = min(times[key], warm[key])
    for key, label in (
        ("multi", "Multi on 5 targets"),
        ("single", "1 target"),
        ("batch", f"Multi on 5 targets, --times {batch}"),
    ):
        rows.append(
            Row(
                GROUP,
                f"traced roll/s, {label}",
                per_second(1, times[key]),
                f"d20 {per_second(1, times['d20'])}",
                times["d20"] / times[key],
                MULTI_ROLL_TARGET if key == "multi" else ROLL_TARGET,
            )
        )
    return rows
