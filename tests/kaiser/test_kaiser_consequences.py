"""kaiser consequences.apply: a resolved attack's outcome rows and the stats before it in, the itemised changes
out (Attacking and Defending, Successful Attack; Action Points; Critical). Positions are rows of the table."""

from __future__ import annotations

import numpy as np

from tohit.core.fight.consequence import table
from tohit.systems.kaiser.consequences import Before, CriticalBefore, Outcome, apply, critical_after
from tohit.systems.kaiser.tables import HIT, MISS


def _a(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def test_successful_attack_lp_lost_never_below_0_dealt_ap_lost_flat_footed() -> None:
    """Attacking and Defending, Successful Attack: LP lost = damage (never below 0, Critical), the attacker's dealt
    grows by the LP taken, 1 AP lost (never below 0), Flat-Footed when the resolve says so; a miss changes nothing."""
    before = Before(lp=_a(30, 5, 30, 30), ap=_a(4, 2, 0, 6), dealt=_a(0, 7, 3, 0))
    outcome = Outcome(
        result=_a(HIT, HIT, HIT, MISS), damage=_a(8, 9, 0, 12), ap_lost=_a(1, 1, 1, 0), flat_footed=_a(0, 0, 1, 0)
    )
    applied = apply(before, outcome)
    assert table(applied.items) == [
        ("damage", "defender", "lp", [0, 1], [22, 0]),
        ("damage", "attacker", "dealt", [0, 1], [8, 12]),
        ("ap_lost", "defender", "ap", [0, 1, 2], [3, 1, 0]),
        ("flat_footed", "defender", "flat_footed", [2], [1]),
    ]
    assert applied.critical.tolist() == []


def test_critical_on_half_or_more_of_the_lp_when_the_target_stays_up() -> None:
    """Critical: a hit costing half or more of the current LP causes a Critical; one that leaves the
    target at 0 LP rolls none (a fight's choice: it is unconscious anyway)."""
    before = Before(lp=_a(20, 20, 20, 10), ap=_a(6, 6, 6, 6), dealt=_a(0, 0, 0, 0))
    outcome = Outcome(
        result=_a(HIT, HIT, HIT, HIT), damage=_a(10, 9, 19, 10), ap_lost=_a(0, 0, 0, 0), flat_footed=_a(0, 0, 0, 0)
    )
    assert apply(before, outcome).critical.tolist() == [0, 2]


def test_no_hit_no_items() -> None:
    """Attacking and Defending, Failed Attack: nothing changes (the Counter bonus is the fight's, not a consequence)."""
    applied = apply(Before(_a(5), _a(6), _a(0)), Outcome(_a(MISS), _a(0), _a(0), _a(0)))
    assert applied.items == () and applied.critical.size == 0


def test_critical_dof_penalty_fades_below_6_lasts_from_6_knocks_out_from_16() -> None:
    """Critical: each DoF -1 to all actions (def_mod too) and 1 AP (never below 0); DoF <= 5 fades,
    DoF 6+ lasts, DoF 16+ knocks the target unconscious."""
    before = CriticalBefore(penalty=_a(0, 2, 0), fading=_a(0, 1, 0), def_mod=_a(0, -2, 1), ap=_a(6, 3, 2))
    assert table(critical_after(before, _a(3, 6, 16))) == [
        ("critical", "defender", "penalty", [0, 1, 2], [3, 8, 16]),
        ("critical", "defender", "fading", [0, 1, 2], [3, 1, 0]),
        ("critical", "defender", "def_mod", [0, 1, 2], [-3, -8, -15]),
        ("critical", "defender", "ap", [0, 1, 2], [3, 0, 0]),
        ("critical", "defender", "knocked_out", [2], [1]),
    ]
