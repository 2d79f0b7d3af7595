"""An independent oracle for FullPlate's exact odds: brute force over `itertools.product` of every die, in plain
scalar Python with Fractions, written from the rules (not from `resolve`), and icepool on one scenario.

Each scenario's effective THAC0, AC and Special Defence effect are worked out by hand in the test from the page's
numbers, so the oracle checks the circumstance table and the enhancement rules as well as the dice.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from math import ceil
from typing import Any

import icepool
import numpy as np
import pytest

from tests.fullplate.helpers import exact, load, make
from tohit.engine import joint


@dataclass(frozen=True)
class Case:
    """The hand-worked inputs of one attack, as the rules see them."""

    eff: int
    ac: int
    dice: tuple[int, ...]  # weapon damage dice sides
    const: int  # the weapon's flat part
    flat: int  # Strength + Enhancement
    crit_range: int = 20
    mode: str = "severity"
    sd: str = "full"
    res: int = 0
    vul: int = 0
    auto: bool = False
    called: bool = False
    backstab: int | None = None  # Severity points from a backstab (None: no backstab)
    armour: int = 0  # Severity points from the armour
    shares: tuple[int, ...] = ()  # firing into melee; the intended target last
    names: tuple[str, ...] = field(default=())
    #: Each creature's own (ac, sd, res, vul, armour) when it has stats (docs/fullplate.md#silent-firing-into-melee,
    #: issue 15); None: as the intended target (this case's ac, sd, res, vul, armour).
    stats: tuple[tuple[int, str, int, int, int] | None, ...] = ()


def brute_force(c: Case) -> dict[str, Counter[Any]]:
    """Every face of every die, equally likely; counts of each outcome per field, as Fractions."""
    dmg_faces = list(product(*(range(1, s + 1) for s in c.dice)))
    again = dmg_faces if c.mode == "double_dice" else [()]
    rerolls = range(1, 21) if c.auto else [0]
    sev = range(1, 5) if c.mode == "severity" else [0]
    called = range(1, 4) if c.called else [0]
    pick_die = sum(c.shares) if c.shares else 1
    total = 20 * len(dmg_faces) * len(again) * len(rerolls) * len(sev) * len(called) * pick_die
    out: dict[str, Counter[Any]] = {k: Counter() for k in ("result", "damage", "critical", "severity", "creature_hit")}
    w = Fraction(1, total)
    for nat, faces, faces2, reroll, s4, s3, face in product(
        range(1, 21), dmg_faces, again, rerolls, sev, called, range(1, pick_die + 1)
    ):
        # Firing into melee: the creature is picked first, and the roll judged against its own stats.
        picked = None
        if c.shares:
            cumulative = 0
            for i, share in enumerate(c.shares):
                cumulative += share
                if face <= cumulative:
                    picked = i
                    break
        own = c.stats[picked] if picked is not None and c.stats else None
        ac, sd, res, vul, armour = own if own is not None else (c.ac, c.sd, c.res, c.vul, c.armour)
        roll = c.eff - nat
        halvings = 0
        if c.auto:
            fumble = nat == 1 and not (reroll != 1 and (c.eff - reroll <= 0 or (reroll == 20 and c.eff - 20 <= 10)))
            landed = not fumble
        else:
            fumble = nat == 1
            landed = not fumble and (roll <= ac or nat == 20)
            if landed and roll > ac and roll - ac > 10:
                halvings = ceil((roll - ac - 10) / 5)
        crit = landed and nat != 1 and (nat == 20 or nat >= c.crit_range) and ac - roll >= 5
        base = sum(faces) + c.const + c.flat
        if crit and c.mode == "double_dice":
            base += sum(faces2)
        if crit and c.mode == "max_damage":
            base = sum(c.dice) + c.const + c.flat
        base = max(1, base)
        low = max(1, len(c.dice) + c.const + c.flat)  # the weapon's least normal damage
        dmg = {"full": base, "half": base // 2, "minimum": low, "none": 0}[sd]
        dmg = dmg * (100 - res + vul) // 100
        x = Fraction(dmg, 2**halvings)
        if halvings and dmg > 0 and x < Fraction(1, 2):
            landed = False
        elif 0 < x < 1:
            dmg = 1
        else:
            dmg = int(x)
        result = "fumble" if fumble else ("hit" if landed else "miss")
        severity = None
        crit_severity = crit and c.mode == "severity"
        if landed and (crit_severity or c.called or c.backstab is not None):
            severity = (s4 if crit_severity else 0) + (s3 if c.called else 0) + (c.backstab or 0) + armour
        who = None
        if landed:
            who = c.names[picked] if picked is not None else "Target"
        out["result"][result] += w
        out["damage"][dmg if landed else 0] += w
        out["critical"][crit and landed] += w
        out["severity"][severity] += w
        out["creature_hit"][who] += w
    return out


SCENARIOS: list[tuple[str, dict[str, Any], Case]] = [
    (
        # +1 longbow and +2 arrows (+3), 50% cover (-4), Strength +1: effective 14 - 3 + 4 = 15; crits on 19-20;
        # double_dice; SD +2 met by max(+1, +2) = +2 in a heroic game: full; Vulnerability 25%.
        "longbow_double_dice_vulnerable",
        make(
            attacker={"thac0": 14, "damage_bonus": 1, "ammunition": {"enhancement": 2}},
            weapon={"damage": "1d8", "enhancement": 1, "kind": "bow_like", "critical_range": 19},
            attack={"circumstances": ["target_cover_50"]},
            target={"ac": 3, "special_defence": 2, "vulnerability_pct": 25},
            options={"crit_damage": "double_dice"},
        ),
        Case(eff=15, ac=3, dice=(8,), const=0, flat=4, crit_range=19, mode="double_dice", vul=25),
    ),
    (
        # THAC0 18, darkness (-2: 50% visibility): effective 20 vs AC -12: only a natural 20 hits, halved once.
        # 1d4+1, Resistance 50%; a called backstab 3 (2 points), no armour (+2); SD +1 vs +0: half.
        "dragon_halving_called_backstab",
        make(
            attacker={"thac0": 18},
            weapon={"damage": "1d4+1"},
            attack={"circumstances": ["visibility_50"], "called": True, "backstab": 3},
            target={"ac": -12, "resistance_pct": 50, "armour": "none", "special_defence": 1},
        ),
        Case(eff=20, ac=-12, dice=(4,), const=1, flat=0, sd="half", res=50, called=True, backstab=2, armour=2),
    ),
    (
        # Automatic hit, thrown 1d4 dagger +0, Strength +2, max_damage, crits on 18+, into a melee of a small
        # goblin and a large ogre around a medium knight (shares 1, 4, 2); THAC0 12, back attack +2: 10;
        # the knight is AC 4 with Dodge 2 (Flatfooted from the back attack: AC 6).
        "automatic_hit_into_melee",
        make(
            attacker={"thac0": 12, "damage_bonus": 2},
            weapon={"damage": "1d4", "kind": "thrown", "critical_range": 18},
            attack={"circumstances": ["back_attack"], "automatic_hit": True},
            target={
                "name": "knight",
                "ac": 4,
                "dodge": 2,
                "engaged_with": [{"name": "goblin", "size": "small"}, {"name": "ogre", "size": "large"}],
            },
            options={"crit_damage": "max_damage"},
        ),
        Case(
            eff=10,
            ac=6,
            dice=(4,),
            const=0,
            flat=2,
            crit_range=18,
            mode="max_damage",
            auto=True,
            shares=(1, 4, 2),
            names=("goblin", "ogre", "knight"),
        ),
    ),
    (
        # Traditional game: a +2 sword (damage +2) against SD +3: none. THAC0 9, off-hand -2: 11 vs AC 0.
        "traditional_special_defence_off_hand",
        make(
            attacker={"thac0": 9},
            weapon={"damage": "2d4", "enhancement": 2},
            attack={"off_hand": True},
            target={"ac": 0, "special_defence": 3},
            options={"game": "traditional"},
        ),
        Case(eff=9 - 2 + 2, ac=0, dice=(4, 4), const=0, flat=2, sd="none"),
    ),
    (
        # Issue 15: stray shots judged with the creature's own stats. THAC0 14, 25% cover (-2), 75% and 50%
        # Visibility (one scale: 50% replaces 75%, -2): effective 18. Shares ogre (Large) 4, orc 2, goblin
        # (Small) 1, knight 2: a d9. The ogre: AC 7, SD +1 vs +0 (half), Vulnerability 50%, no armour (+2);
        # the orc has no stats (the knight's); the goblin: AC -18 (a natural 20 is short by 16: two halvings,
        # after Resistance 50%), natural armour (+1); the knight: AC 3, Resistance 25%.
        "stray_shots_with_their_own_stats",
        make(
            attacker={"thac0": 14, "damage_bonus": 1},
            weapon={"damage": "1d6", "kind": "bow_like", "critical_range": 19},
            attack={"circumstances": ["target_cover_25", "visibility_75", "visibility_50"]},
            target={
                "name": "knight",
                "ac": 3,
                "resistance_pct": 25,
                "engaged_with": [
                    {
                        "name": "ogre",
                        "size": "large",
                        "ac": 7,
                        "special_defence": 1,
                        "vulnerability_pct": 50,
                        "armour": "none",
                    },
                    {"name": "orc"},
                    {"name": "goblin", "size": "small", "ac": -18, "resistance_pct": 50, "armour": "natural"},
                ],
            },
        ),
        Case(
            eff=18,
            ac=3,
            dice=(6,),
            const=0,
            flat=1,
            crit_range=19,
            res=25,
            shares=(4, 2, 1, 2),
            names=("ogre", "orc", "goblin", "knight"),
            stats=((7, "half", 0, 50, 2), None, (-18, "full", 50, 0, 1), None),
        ),
    ),
    (
        # Issue 15: the page's d10 (4, 4, 2) with each ogre's own AC; +1 bow, double_dice. Effective 16 - 1 = 15.
        "page_ogres_with_their_own_ac_double_dice",
        make(
            attacker={"thac0": 16},
            weapon={"damage": "1d4", "enhancement": 1, "kind": "bow_like"},
            target={
                "name": "knight",
                "ac": 2,
                "engaged_with": [
                    {"name": "ogre 1", "size": "large", "ac": 8},
                    {"name": "ogre 2", "size": "large", "ac": 0, "vulnerability_pct": 25},
                ],
            },
            options={"crit_damage": "double_dice"},
        ),
        Case(
            eff=15,
            ac=2,
            dice=(4,),
            const=0,
            flat=1,
            mode="double_dice",
            shares=(4, 4, 2),
            names=("ogre 1", "ogre 2", "knight"),
            stats=((8, "full", 0, 0, 0), (0, "full", 0, 25, 0), None),
        ),
    ),
    (
        # Heroic: +0 mace vs SD +2: minimum damage (2d4 + Strength 1 -> 3); crits on 20 with Severity.
        "heroic_minimum_damage",
        make(
            attacker={"thac0": 16, "damage_bonus": 1}, weapon={"damage": "2d4"}, target={"ac": 2, "special_defence": 2}
        ),
        Case(eff=16, ac=2, dice=(4, 4), const=0, flat=1, sd="minimum"),
    ),
]


@pytest.mark.parametrize(("name", "data", "case"), SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_fullplate_exact_odds_match_a_brute_force_oracle(name: str, data: dict[str, Any], case: Case) -> None:
    """Every field's exact distribution equals the brute force over all dice faces."""
    odds = exact(data)
    want = brute_force(case)
    for field_name, counts in want.items():
        got = {v: pr for v, pr in odds.distribution(field_name) if pr}
        assert got == {v: pr for v, pr in counts.items() if pr}, field_name
    assert sum(want["result"].values()) == 1


def test_fullplate_exact_odds_match_icepool() -> None:
    """icepool computes the joint (result, damage) of a +1 longbow, double_dice criticals (2d8 + 3): the same
    joint distribution as the rows of tohit's exact table."""
    data = make(
        attacker={"thac0": 14, "damage_bonus": 2},
        weapon={"damage": "1d8", "enhancement": 1, "kind": "bow_like"},
        target={"ac": -2},
        options={"crit_damage": "double_dice"},
    )
    eff, ac, flat = 13, -2, 3

    def outcome(nat: int, a: int, b: int) -> tuple[str, int]:
        roll = eff - nat
        if nat == 1:
            return ("fumble", 0)
        if roll > ac and nat != 20:
            return ("miss", 0)
        s = roll - ac
        k = ceil((s - 10) / 5) if s > 10 else 0
        crit = nat == 20 and ac - roll >= 5
        dmg = (a + b if crit else a) + flat
        x = Fraction(dmg, 2**k)
        if x < Fraction(1, 2):
            return ("miss", 0)
        return ("hit", max(1, int(x)))

    die = icepool.map(outcome, icepool.d20, icepool.d8, icepool.d8)
    want = {o: Fraction(q, die.denominator()) for o, q in die.items()}

    loaded = load(data)
    target = loaded.scenario.targets[0]
    table = joint.build(loaded.system, loaded.scenario, target)
    labels = ("hit", "miss", "fumble")
    got: Counter[tuple[str, int]] = Counter()
    weights = table.weights[table.finite]
    for r, d, w in zip(table.outcome["result"], table.outcome["damage"], weights, strict=True):
        got[(labels[int(r)], int(d))] += Fraction(int(w), table.total)
    assert dict(got) == want
    assert np.sum(weights) == table.total
