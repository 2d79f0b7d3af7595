"""fullplate consequences.apply: a resolved attack's outcome rows and the stats before it in, the itemised
changes out (Attacking: hit points, Enhancement; docs/fullplate.md#silent-firing-into-melee: firing into melee).
Positions are rows of the table."""

from __future__ import annotations

import numpy as np

from tohit.core.fight.consequence import events, table
from tohit.systems.fullplate.consequences import Before, Outcome, apply
from tohit.systems.fullplate.rules import FUMBLE, HIT, MISS


def _a(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def test_hit_points_lost_never_below_0_a_stray_shot_is_lost_a_miss_changes_nothing() -> None:
    """A hit costs the creature struck its damage in HP, never below 0 in a fight, and counts as dealt; a shot
    into melee that strikes a creature not in the fight is lost (docs/fullplate.md#silent-firing-into-melee); a miss
    or fumble changes nothing."""
    before = Before(
        hp=_a(10, 3, 8, 8, 8),
        struck=np.array([True, True, False, True, True]),
        dealt=_a(2, 0, 0, 0, 0),
        magic=np.zeros(5, dtype=bool),
        ammo_hits=_a(0, 0, 0, 0, 0),
        attack=_a(0, 0, 0, 0, 0),
    )
    applied = apply(before, Outcome(result=_a(HIT, HIT, HIT, MISS, FUMBLE), damage=_a(4, 7, 5, 0, 0)))
    assert table(applied.items) == [
        ("damage", "defender", "hp", [0, 1], [6, 0]),
        ("damage", "attacker", "dealt", [0, 1], [6, 3]),
    ]
    assert applied.stray.tolist() == [2]


def test_magical_ammunition_that_hits_is_counted_per_attack_one_event_each() -> None:
    """Enhancement: each hit with magical ammunition is an arrow to recover after the fight; one event per
    attack, in attack order; a miss recovers nothing here."""
    before = Before(
        hp=_a(10, 10, 10, 10),
        struck=np.ones(4, dtype=bool),
        dealt=_a(0, 0, 0, 0),
        magic=np.array([True, True, True, False]),
        ammo_hits=_a(2, 0, 5, 0),
        attack=_a(1, 0, 1, 0),
    )
    applied = apply(before, Outcome(result=_a(HIT, HIT, MISS, HIT), damage=_a(0, 1, 0, 0)))
    assert table(applied.items) == [
        ("damage", "defender", "hp", [1], [9]),
        ("damage", "attacker", "dealt", [1], [1]),
        ("ammunition", "attacker", "ammo_hits0", [1], [1]),
        ("ammunition", "attacker", "ammo_hits1", [0], [3]),
    ]
    assert [kind for kind, _ in events(applied.items)] == ["damage", "ammunition", "ammunition"]
