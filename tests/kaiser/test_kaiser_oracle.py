"""Kaiser exact odds against independent computations (issue #2, §6).

The brute force below enumerates the dice with `itertools.product` and Fractions, sharing no code with the
engine; icepool checks the bare-2d6 and advantage cases. Open rolls are followed to the same depth, and the
probability beyond it must equal what the engine reports.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import icepool
import pytest

from tests.kaiser.helpers import ceil
from tohit.engine.odds import odds
from tohit.engine.scenario import Loaded


def roll_distribution(advantage: int, special: bool, depth: int) -> tuple[dict[int, Fraction], Fraction]:
    """What the dice count, exactly, with the mass beyond `depth` open dice returned separately."""
    dist: Counter[int] = Counter()
    beyond = Fraction(0)
    n = 2 + abs(advantage)
    p_faces = Fraction(1, 6**n)
    for faces in product(range(1, 7), repeat=n):
        kept = sorted(faces, reverse=advantage >= 0)[:2]
        if special and kept == [6, 6]:
            for extra in range(1, depth + 1):  # extra - 1 sixes then a non-6
                for last in range(1, 6):
                    dist[12 + 6 * (extra - 1) + last] += p_faces * Fraction(1, 6**extra)
            beyond += p_faces * Fraction(1, 6**depth)
        elif special and kept == [1, 1]:
            for a, b in product(range(1, 7), repeat=2):
                s = a + b
                counts = 0 if s <= 5 else (-5 if s <= 11 else -10)
                dist[counts] += p_faces * Fraction(1, 36)
        else:
            dist[sum(kept)] += p_faces
    return dict(dist), beyond


def brute_force(loaded: Loaded) -> tuple[dict[str, Fraction], dict[int, Fraction], Fraction]:
    """Result and damage distributions of the scenario's first target, by enumeration."""
    sc = loaded.scenario
    tgt = sc.targets[0]
    special = sc.options.open_rolls_and_fumbles
    depth = sc.options.depth if sc.options.depth is not None else 8
    off, off_beyond = roll_distribution(sc.attack.advantage, special, depth)
    dfn, dfn_beyond = roll_distribution(tgt.advantage, special, depth)
    str_mod = {1: -3, 2: -2, 3: -2, 4: -1, 5: 0, 6: 1, 7: 1, 8: 2, 9: 2, 10: 3, 11: 3, 12: 3}[sc.attacker.strength]
    per_unit = max(1, sc.attacker.weapon.damage + str_mod)
    av = tgt.armor.get(sc.attacker.weapon.damage_type, 0)
    results: Counter[str] = Counter()
    damage: Counter[int] = Counter()
    for o, po in off.items():
        for d, pd in dfn.items():
            fumble_o = o <= 0 and special  # fumble counts are 0, -5, -10 and only fumbles go that low
            fumble_d = d <= 0 and special
            o_total = (
                max(0, o + sc.attacker.offensive_skill + sc.attack.modifiers)
                if fumble_o
                else (o + sc.attacker.offensive_skill + sc.attack.modifiers)
            )
            d_total = (
                max(0, d + tgt.defensive_skill + tgt.modifiers) if fumble_d else d + tgt.defensive_skill + tgt.modifiers
            )
            dos = o_total - d_total
            p = po * pd
            results["hit" if dos > 0 else "miss" if dos < 0 else "tie"] += p
            damage[max(0, dos - tgt.absorption - av) * per_unit if dos > 0 else 0] += p
    beyond = 1 - (1 - off_beyond) * (1 - dfn_beyond)
    return dict(results), dict(damage), beyond


SCENARIOS = {
    "page example, open rolls and fumbles": ceil(),
    "advantage 2 vs disadvantage 1, open rolls": ceil(attack={"advantage": 2}, target={"advantage": -1}),
    "bare 2d6, heavy armour": ceil(options={"open_rolls_and_fumbles": False}, target={"armor": {"cut": 6}}),
    "open rolls, shallow depth 2": ceil(options={"depth": 2}, attack={"modifiers": -6}),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_kaiser_exact_odds_match_brute_force(name: str) -> None:
    loaded = SCENARIOS[name]
    want_results, want_damage, want_beyond = brute_force(loaded)
    got = odds(loaded).targets[0]
    assert got.beyond_depth == want_beyond
    assert {v: p for v, p in got.distribution("result") if p} == want_results
    assert dict(got.distribution("damage")) == {k: v for k, v in want_damage.items() if v}


def test_kaiser_bare_odds_match_icepool() -> None:
    """Bare 2d6 vs 2d6 (no open rolls): icepool computes the same damage distribution."""
    loaded = ceil(options={"open_rolls_and_fumbles": False}, attack={"advantage": 1})
    offense = icepool.d6.pool(3).highest(2).sum() + 12
    defense = icepool.d6.pool(2).sum() + 7
    dos = offense - defense
    damage = dos.map(lambda x: max(0, x - 5) * 7 if x > 0 else 0)
    got = dict(odds(loaded).targets[0].distribution("damage"))
    want = {int(v): Fraction(q, damage.denominator()) for v, q in damage.items()}
    assert got == want


def test_kaiser_open_roll_support_is_cut_at_a_stated_depth_and_the_rest_reported() -> None:
    """docs/kaiser.md#silent-exact-depth: the probability beyond the depth is reported, never dropped."""
    deep, shallow = odds(ceil(), depth=8).targets[0], odds(ceil(), depth=1).targets[0]
    assert 0 < deep.beyond_depth < shallow.beyond_depth
    for t in (deep, shallow):
        assert sum(p for _, p in t.distribution("result")) + t.beyond_depth == 1
    bare = odds(ceil(options={"open_rolls_and_fumbles": False})).targets[0]
    assert bare.beyond_depth == 0
