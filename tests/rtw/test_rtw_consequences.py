"""rtw consequences.apply: a resolved attack's outcome rows and the stats before it in, the itemised changes out
(Attacking 101: Health, Peril (docs/rtw.md#silent-peril), Falling in Battle, Landing the Blow, Weapon Durability;
Status Effects). Positions are rows of the table."""

from __future__ import annotations

import numpy as np

from tohit.core.fight.consequence import events, table
from tohit.systems.rtw.consequences import HELPLESS, PERISHES, Before, Outcome, apply
from tohit.systems.rtw.tables import HIT, MISS


def _a(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def test_health_never_below_0_dealt_against_foes_peril_entered_and_falling_in_battle() -> None:
    """A hit costs its damage in Health, never below 0, counted as dealt against a foe only; Peril when Health
    now <= Hearts and not before (Hearts -1: never); at 0 Health with damage it falls Helpless or perishes as
    `fall` says; a miss changes nothing."""
    before = Before(
        health=_a(12, 5, 3, 8, 8),
        dealt=_a(0, 4, 0, 0, 0),
        foe=np.array([True, False, True, True, True]),
        hearts=_a(3, 3, 3, -1, 3),
        fall=_a(HELPLESS, HELPLESS, PERISHES, HELPLESS, HELPLESS),
        attacker=_a(0, 0, 0, 0, 0),
    )
    applied = apply(before, Outcome(result=_a(HIT, HIT, HIT, HIT, MISS), damage=_a(9, 5, 4, 7, 9)))
    assert table(applied.items) == [
        ("damage", "defender", "health", [0, 1, 2, 3], [3, 0, 0, 1]),
        ("damage", "attacker", "dealt", [0, 2, 3], [9, 3, 7]),
        ("peril", "defender", "peril", [0, 1], [1, 1]),
        ("falls", "defender", "helpless", [1], [1]),
        ("falls", "defender", "perished", [2], [1]),
    ]
    assert [kind for kind, _ in events(applied.items)] == ["damage", "peril", "falls", "falls"]


def test_a_hit_ends_invisibility_an_effect_lands_above_0_health_distracted_keeps_its_sources() -> None:
    """Status Effects: an attack that hits ends Invisibility; Landing the Blow: the effect's status goes on a
    target still above 0 Health (one that falls gets none); one it has changes nothing; Distracted keeps the
    bitmask of its sources."""
    before = Before(
        health=_a(9, 9, 9, 2),
        dealt=_a(0, 0, 0, 0),
        foe=np.ones(4, dtype=bool),
        hearts=_a(-1, -1, -1, -1),
        fall=_a(HELPLESS, HELPLESS, HELPLESS, HELPLESS),
        attacker=_a(2, 1, 0, 0),
        invisible=_a(1, 0, 0, 0),
        statuses=("prone", "distracted"),
        effect=_a(1, 0, 1, 0),
        status_now=_a(1, 1, 0, 0),
    )
    outcome = Outcome(result=_a(HIT, HIT, HIT, HIT), damage=_a(0, 0, 0, 2), effect_landed=_a(1, 1, 1, 1))
    assert table(apply(before, outcome).items) == [
        ("damage", "defender", "health", [3], [0]),
        ("damage", "attacker", "dealt", [3], [2]),
        ("falls", "defender", "helpless", [3], [1]),
        ("status_ends", "defender", "invisible", [0], [0]),
        ("status", "defender", "prone", [], []),
        ("status", "defender", "distracted", [0, 2], [5, 1]),
    ]


def test_weapon_used_is_marked_and_a_burning_weapon_loses_1_durability_unless_shattered() -> None:
    """Weapon Durability: a weapon used successfully is marked to wear at the end of the encounter; a Burning
    weapon that lands a blow loses 1 Durability now; one at 0 has shattered and loses nothing."""
    before = Before(
        health=_a(9, 9, 9),
        dealt=_a(0, 0, 0),
        foe=np.ones(3, dtype=bool),
        hearts=_a(-1, -1, -1),
        fall=_a(HELPLESS, HELPLESS, HELPLESS),
        attacker=_a(0, 0, 0),
        slot=_a(0, 1, 1),
        durability=_a(3, 0, 2),
        slots=2,
    )
    outcome = Outcome(
        result=_a(HIT, HIT, HIT),
        damage=_a(0, 0, 0),
        durability_used=_a(1, 1, 0),
        burning_wear=_a(0, 1, 1),
    )
    assert table(apply(before, outcome).items) == [
        ("weapon_used", "attacker", "used0", [0], [1]),
        ("weapon_used", "attacker", "used1", [1], [1]),
        ("durability", "attacker", "durability1", [2], [1]),
    ]
