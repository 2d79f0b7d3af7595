"""An independent oracle for the exact odds: the rules re-written as plain scalar Python over
`itertools.product` of the dice faces (and icepool for the benchmark's scenario), compared field by field
with the engine's exact distributions. It shares no code with the system's `resolve`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction
from itertools import product
from typing import Any

import icepool
import pytest

from tests.wsswnn.helpers import dist, make

Row = dict[str, Any]


def brute(dice: Iterable[int], rule: Callable[..., Row]) -> dict[str, dict[Any, Fraction]]:
    """Every face combination of `dice` (sides) through `rule`, tallied per field as exact fractions."""
    sides = list(dice)
    total = 1
    for s in sides:
        total *= s
    tallies: dict[str, Counter[Any]] = {}
    for faces in product(*(range(1, s + 1) for s in sides)):
        for name, value in rule(*faces).items():
            tallies.setdefault(name, Counter())[value] += 1
    return {name: {v: Fraction(c, total) for v, c in t.items()} for name, t in tallies.items()}


def outcome(roll: int, guard: int, agility: int) -> str:
    if roll > guard:
        return "hit"
    if roll > agility:
        return "block"
    return "miss"


def opposed(roll: int, stamina: int, strength: int) -> str:
    if roll > stamina:
        return "success"
    if roll > strength:
        return "struggle"
    return "failure"


# 1. d10 melee with maneuver advantage d8, sword -2 guard, against armor 1 and Unflinching 1.
MELEE = make(
    attacker={"attack_die": "d10", "maneuver_die": "d8", "weapon": {"name": "greatsword", "guard_damage": 2}},
    attack={"advantage": "maneuver"},
    target={"guard": 5, "agility": 2, "armor": 1, "unflinching": 1},
)


def melee_rule(a: int, m: int) -> Row:
    roll = max(a, m)
    res = outcome(roll, 5, 2)
    lethal = max(0, roll - 5 - 1) if res == "hit" else 0
    guard = (2 - 1) if res in ("hit", "block") else 0
    return {"result": res, "lethal": lethal, "damage": lethal, "guard_damage": guard, "guard_after": 5 - guard}


# 2. Ranged, d12 with compel advantage d6 at -1, four spans, against an unshielded and a shielded foe.
def ranged(shield: bool) -> dict[str, Any]:
    return make(
        attacker={"attack_die": "d12", "compel_die": "d6", "penalty": {"compel": 1}, "weapon": {"name": "sling"}},
        attack={"kind": "ranged", "spans": 4, "advantage": "compel"},
        target={"guard": 3, "agility": 1, "shield": shield, "awareness": 3},
    )


def ranged_rule(shield: bool) -> Callable[..., Row]:
    def rule(a: int, c: int) -> Row:
        roll = max(a, c - 1) - 4
        res = "miss" if roll <= 0 else outcome(roll, 3, 1)
        if res == "block" and not shield:
            res = "miss"
        lethal = roll - 3 if res == "hit" else 0
        return {"result": res, "lethal": lethal, "guard_damage": int(res != "miss")}

    return rule


# 3. Jump-attack with a blunted club from 2 heights, Strength 1, Maneuver d8 at -1; the fall on a miss.
JUMP = make(
    attacker={
        "attack_die": "d6",
        "maneuver_die": "d8",
        "strength": 1,
        "penalty": 1,
        "weapon": {"name": "club", "blunted": True},
    },
    attack={"kind": "jump", "heights": 2},
    target={"guard": 7, "agility": 3, "armor": 1},
)


def jump_rule_for(guard: int, agility: int) -> Callable[..., Row]:
    """The jump-attack: -1 per height; not a miss (beats Guard or Agility): + (3 + Strength) per height."""

    def rule(a: int, m: int, landing: int) -> Row:
        roll = max(a, m - 1) - 2
        if roll > agility or roll > guard:
            roll += (3 + 1) * 2
            res = "hit" if roll > guard else "block"
        else:
            res = "miss"
        lethal = min(max(0, roll - guard - 1), 2) if res == "hit" else 0
        fall = max(0, 4 - max(0, landing - 1)) if res == "miss" else None
        return {
            "result": res,
            "lethal": lethal,
            "guard_damage": 3 if res != "miss" else 0,
            "falling_lethal": fall,
            "falling_guard": 2 if res == "miss" else None,
        }

    return rule


jump_rule = jump_rule_for(7, 3)
# 3b. The same jump at a worn-down foe: Guard 1 below Agility 5 (a result beating Guard only does not miss).
JUMP_LOW_GUARD = {**JUMP, "targets": [{**JUMP["targets"][0], "guard": 1, "agility": 5}]}


# 4. Take Hold with a Shove, against a grappled foe (brace advantage on the attack roll).
HOLD = make(
    attacker={"attack_die": "d6", "brace_die": "d8", "weapon": None},
    attack={"kind": "take_hold", "brace": "shove"},
    target={"guard": 4, "agility": 1, "stamina": 4, "strength": 2, "grappled": True},
)


def hold_rule(a: int, adv: int, b: int) -> Row:
    res = outcome(max(a, adv), 4, 1)
    if res == "miss":
        return {"result": res, "brace_result": None, "brace_effect": None, "guard_damage": 0, "resist_stamina": None}
    roll = b - (2 if res == "block" else 0)
    br = opposed(roll, 4, 2)
    return {
        "result": res,
        "brace_result": br,
        "brace_effect": None if br == "failure" else "shoved",
        "guard_damage": 1 if br == "success" else 0,
        "resist_stamina": 1 if br == "struggle" else None,
    }


# 5. A thrown sword (improvised, so blunted: uncapped against Structure) at a wood-and-stone object.
def thrown_at_object() -> dict[str, Any]:
    data = make(
        attacker={"attack_die": "d12", "strength": 0, "weapon": {"name": "sword", "guard_damage": 3}},
        attack={"kind": "ranged", "throw": True, "spans": 3},
    )
    data["targets"] = [{"name": "Statue", "materials": ["wood", "stone"], "structure": 20}]
    return data


def object_rule(a: int) -> Row:
    roll = a - 3
    hit = roll > 0
    damage = max(0, roll * 3 - 4) if hit else 0
    return {"result": "hit" if hit else "miss", "damage": damage, "structure_after": max(0, 20 - damage)}


CASES: dict[str, tuple[dict[str, Any], list[int], Callable[..., Row]]] = {
    "melee_advantage": (MELEE, [10, 8], melee_rule),
    "ranged_unshielded": (ranged(False), [12, 6], ranged_rule(False)),
    "ranged_shielded": (ranged(True), [12, 6], ranged_rule(True)),
    "jump_and_fall": (JUMP, [6, 8, 8], jump_rule),
    "jump_guard_below_agility": (JUMP_LOW_GUARD, [6, 8, 8], jump_rule_for(1, 5)),
    "take_hold_shove": (HOLD, [6, 8, 8], hold_rule),
    "thrown_at_object": (thrown_at_object(), [12], object_rule),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_wsswnn_exact_odds_match_brute_force_oracle(case: str) -> None:
    """Exact odds = an independent brute force over itertools.product of the dice, field by field."""
    data, sides, rule = CASES[case]
    expected = brute(sides, rule)
    for field, want in expected.items():
        got = dist(data, field)
        assert got == {v: p for v, p in want.items() if p}, field


def test_wsswnn_exact_odds_match_icepool() -> None:
    """The benchmark's scenario, d10 melee with maneuver advantage d8, against icepool's distribution."""
    kept = icepool.highest(icepool.d10, icepool.d8)
    result = kept.map(lambda r: outcome(r, 5, 2))
    lethal = kept.map(lambda r: max(0, r - 6) if r > 5 else 0)
    denominator = result.denominator()
    want_result = {o: Fraction(q, denominator) for o, q in result.items()}
    want_lethal = {v: Fraction(q, lethal.denominator()) for v, q in lethal.items()}
    assert dist(MELEE, "result") == want_result
    assert dist(MELEE, "lethal") == want_lethal


def test_wsswnn_benchmark_scenario_odds_equal_the_icepool_reference() -> None:
    """The benchmark times icepool computing the same distribution: check that it is the same, exactly."""
    from benchmarks.bench_wsswnn import SCENARIO, icepool_highest_then_map, icepool_map_over_dice

    reference = icepool_highest_then_map()
    assert reference == icepool_map_over_dice()
    for field, counts in reference.items():
        total = sum(counts.values())
        assert dist(SCENARIO, field) == {v: Fraction(q, total) for v, q in counts.items()}, field
