"""wsswnn consequences.apply: a resolved attack's outcome rows and the stats before it in, the itemised changes
out (tracking-your-stats; braces; a jump-attack's fall). Positions are rows of the table."""

from __future__ import annotations

import numpy as np

from tohit.core.fight.consequence import events, table
from tohit.core.outcome import NULL_INT
from tohit.systems.wsswnn.consequences import Before, Outcome, apply
from tohit.systems.wsswnn.fields import BLOCK, EFFECT_OF, HIT, MISS

N = NULL_INT


def _a(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def _plain(n: int, **given: np.ndarray) -> Before:
    zero = np.zeros(n, dtype=np.int64)
    fields = {
        "life": zero,
        "guard": zero,
        "dealt": zero,
        "attacker_life": zero,
        "attacker_guard": zero,
        "foe": np.ones(n, dtype=bool),
    }
    return Before(**{**fields, **given})


def test_tracking_your_stats_life_guard_awareness_never_below_0_dealt_only_by_a_foe() -> None:
    """tracking-your-stats: lethal damage off life, the guard the attack left, awareness damage off awareness,
    none below 0; damage to an ally (a shot into a grapple) is not counted as dealt; a miss changes nothing."""
    before = _plain(
        4, life=_a(5, 3, 4, 4), guard=_a(3, 2, 2, 2), dealt=_a(1, 0, 0, 0), foe=np.array([True, False, True, True])
    )
    before = before._replace(awareness=_a(2, 2, 2, 2))
    outcome = Outcome(
        result=_a(HIT, HIT, BLOCK, MISS),
        damage=_a(2, 9, 0, 3),
        guard_after=_a(N, 0, 1, 0),
        awareness_damage=_a(0, 0, 5, 0),
        falling_lethal=_a(0, 0, 0, 0),
        falling_guard=_a(0, 0, 0, 0),
    )
    applied = apply(before, outcome)
    assert table(applied.items) == [
        ("damage", "defender", "life", [0, 1], [3, 0]),
        ("damage", "attacker", "dealt", [0], [3]),
        ("damage", "defender", "guard", [1, 2], [0, 1]),
        ("damage", "defender", "awareness", [2], [0]),
    ]
    assert applied.rows.tolist() == [0, 1, 2]


def test_jump_attack_fall_costs_the_attacker_life_and_guard_even_on_a_miss() -> None:
    """A jump-attack's fall: the attacker loses the fall's life and guard (never below 0), hit or miss."""
    before = _plain(2, life=_a(4, 4), attacker_life=_a(6, 1), attacker_guard=_a(3, 3))
    outcome = Outcome(
        result=_a(MISS, HIT),
        damage=_a(0, 0),
        guard_after=_a(N, N),
        awareness_damage=_a(0, 0),
        falling_lethal=_a(2, 3),
        falling_guard=_a(1, N),
    )
    assert table(apply(before, outcome).items) == [
        ("fall", "attacker", "life", [0, 1], [4, 0]),
        ("fall", "attacker", "guard", [0, 1], [2, 3]),
    ]


def test_braces_grapple_ends_on_lethal_damage_holders_let_go_of_the_fallen_then_brace_effects() -> None:
    """braces: a grapple ends when its grappler takes lethal damage; whoever grapples a foe that falls lets go
    (tohit's reading); a landed Grapple grapples, a Shove ends grapples between the two, disarm disarms; a foe that
    resists a Struggle pays 1 stamina instead."""
    g, s, d = EFFECT_OF["grapple"], EFFECT_OF["shove"], EFFECT_OF["disarm"]
    # Combatants 0 (attacker) and 1 (defender), 2 (a bystander). Rows: 0 the defender, grappling 2, is hurt;
    # 1 the defender falls while 0 and 2 hold it; 2 a Shove while the defender holds the attacker; 3 a Grapple;
    # 4 a disarm resisted; 5 a disarm.
    grappling = np.asarray([[0, 3, 0], [2, 0, 2], [0, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], dtype=np.int64)
    before = _plain(
        6,
        life=_a(5, 2, 5, 5, 5, 5),
        defender=_a(1, 1, 1, 1, 1, 1),
        attacker=_a(0, 0, 0, 0, 0, 0),
        grappling=grappling,
        stamina=_a(0, 0, 0, 0, 2, 0),
        disarmed=_a(0, 0, 0, 0, 0, 0),
        resists=np.ones(6, dtype=bool),
    )
    outcome = Outcome(
        result=_a(HIT, HIT, HIT, HIT, HIT, HIT),
        damage=_a(1, 2, 0, 0, 0, 0),
        guard_after=_a(N, N, N, N, N, N),
        awareness_damage=_a(0, 0, 0, 0, 0, 0),
        falling_lethal=_a(0, 0, 0, 0, 0, 0),
        falling_guard=_a(0, 0, 0, 0, 0, 0),
        brace_effect=_a(-1, -1, s, g, d, d),
        resist_stamina=_a(0, 0, 0, 0, 1, 0),
    )
    items = apply(before, outcome).items
    assert table(items)[2:] == [
        ("grapple_ends", "defender", "grappling", [0], [0]),
        ("grapple_ends", "other 0", "grappling", [1], [0]),
        ("grapple_ends", "other 2", "grappling", [1], [0]),
        ("resist", "defender", "stamina", [4], [1]),
        ("grapple", "attacker", "grappling", [3], [2]),
        ("shove", "defender", "grappling", [2], [0]),
        ("shove", "attacker", "grappling", [], []),
        ("disarm", "defender", "disarmed", [5], [1]),
    ]
    assert [kind for kind, _ in events(items)] == [
        "damage",
        "grapple_ends",
        "grapple_ends",
        "grapple_ends",
        "resist",
        "grapple",
        "shove",
        "disarm",
    ]
