"""What a Kaiser attack does, written once: LP, AP, Flat-Footed and the Critical [Attacking and Defending; Critical].

`apply` is the one pure transition from a resolved attack to what it changes, itemised; `critical_after` what a
Critical's Degrees of Failure change. The attack's `resolve` reports a Critical and its level; the fight rolls
the level and the Physical Resistance check against it with the same functions. Elementwise over numpy arrays or
scalars.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from tohit.core.fight.consequence import ATTACKER, DEFENDER, Item, item, positions
from tohit.core.fight.rows import select, take_at
from tohit.core.fight.state import BoolArray, IntArray
from tohit.systems.kaiser.tables import HIT


def is_critical(damage: Any, lp: Any, hurt: Any = None) -> Any:
    """A single hit costing half or more of the current LP causes a Critical [Critical] (damage > 0).

    Elementwise over arrays (the fight feeds each fight's current LP); `hurt`: damage > 0, where the caller has it
    (a fresh array of its own: the answer is made in it)."""
    if hurt is None:
        return (damage > 0) & (2 * damage >= lp)
    hurt &= 2 * damage >= lp
    return hurt


def critical_level(dice_total: Any, damage: Any) -> Any:
    """Critical level = 2d6 (no open roll or fumble) + floor(damage / 10); any amount above 20 is halved
    (26 -> 23, 31 -> 25) [Critical]. Elementwise."""
    level = dice_total + damage // 10
    return np.where(level > 20, 20 + (level - 20) // 2, level)


CLAUSE_LP = "kaiser: Critical (LP lost = damage, never below 0; docs/kaiser.md#silent-critical)"
CLAUSE_AP = (
    "kaiser: Attacking and Defending, Successful Attack (the defender loses 1 AP, never below 0;"
    " docs/kaiser.md#silent-action-points)"
)
CLAUSE_FLAT = (
    "kaiser: Action Points (a hit at 0 AP leaves the defender Flat-Footed; docs/kaiser.md#silent-action-points)"
)
CLAUSE_CRITICAL = "kaiser: Critical (each DoF is -1 to all actions and costs 1 AP; docs/kaiser.md#silent-critical)"
#: A Critical of this many DoF or more leaves a lasting penalty (broken bones: it recovers by Regeneration).
LASTING_DOF = 6
#: A Critical of this many DoF or more knocks the target unconscious, wherever it was hit.
KNOCKOUT_DOF = 16


class Before(NamedTuple):
    """The stats an attack may change, one row per attack, before it."""

    #: The defender's LP.
    lp: IntArray
    #: The defender's AP.
    ap: IntArray
    #: The damage the attacker has dealt in the fight.
    dealt: IntArray


class Outcome(NamedTuple):
    """The attack's resolved columns the fight applies (`result`, `damage`, `ap_lost`, `flat_footed`); `result`
    None: every row is a hit (the fight gives the hits alone)."""

    result: IntArray | None
    damage: IntArray
    ap_lost: IntArray
    flat_footed: IntArray


class Applied(NamedTuple):
    """What the attacks changed (`items`: events "damage", "ap_lost", "flat_footed"), and the rows whose
    defender takes a Critical, which the fight rolls next (`critical_after` applies it)."""

    items: tuple[Item, ...]
    critical: IntArray


def apply(before: Before, outcome: Outcome) -> Applied:
    """What each resolved attack does (hits only): LP lost (the damage, never below 0 LP) and the damage the
    attacker dealt, 1 AP lost (never below 0), Flat-Footed [Attacking and Defending, Successful Attack]; a hit costing
    half or more of the LP and leaving the defender above 0 LP causes a Critical [Critical]."""
    hit, at = _hits(outcome.result, outcome.damage.size)
    if hit.size == 0:
        return Applied((), hit)
    every = at is _as_is  # every position a hit: a hit's position is its own index (no `hit.take`)
    lp, damage = at(before.lp), at(outcome.damage)
    new_lp = lp - damage
    np.maximum(new_lp, 0, out=new_lp)  # in place: a fresh array of this call's
    items: list[Item] = []
    hurt = damage > 0
    if hurt.any():
        h, h_lp, h_new = _at_hits(hurt, hit, every, lp, new_lp)
        items.append(item("damage", "lp", h, h_new, DEFENDER, CLAUSE_LP))
        items.append(item("damage", "dealt", h, before.dealt.take(h) + (h_lp - h_new), ATTACKER, CLAUSE_LP))
    lost = at(outcome.ap_lost) == 1
    if lost.any():
        (rows,) = _at_hits(lost, hit, every)
        ap = (before.ap if rows.size == before.ap.size else before.ap.take(rows)) - 1  # every hit: no take
        np.maximum(ap, 0, out=ap)  # in place: a fresh array of this call's
        items.append(item("ap_lost", "ap", rows, ap, DEFENDER, CLAUSE_AP))
    flat = at(outcome.flat_footed) == 1
    if flat.any():
        items.append(item("flat_footed", "flat_footed", _at_hits(flat, hit, every)[0], 1, DEFENDER, CLAUSE_FLAT))
    crit = is_critical(damage, lp, hurt)
    crit &= new_lp > 0
    return Applied(tuple(items), _at_hits(crit, hit, every)[0])


def _hits(result: IntArray | None, size: int) -> tuple[IntArray, Callable[[Any], Any]]:
    """`positions` of the hits, without scanning for them where every row is one (`result` None: the fight gives
    the `size` rows of hits alone)."""
    if result is None:
        return np.arange(size), _as_is
    is_hit = result == HIT
    if is_hit.all():
        return np.arange(is_hit.size), _as_is
    return positions(is_hit)


def _as_is(x: Any) -> Any:
    return x


def _at_hits(mask: BoolArray, hit: IntArray, every: bool, *arrays: IntArray) -> tuple[IntArray, ...]:
    """`select(mask, hit, *arrays)` (the hits' positions where `mask` holds, and each array there) where every
    position is a hit (`every`): the positions are where the mask holds, not read from `hit`."""
    if not every or mask.all():
        return select(mask, hit, *arrays)
    (idx,) = mask.nonzero()
    return (idx, *(take_at(a, idx) for a in arrays))


class CriticalBefore(NamedTuple):
    """The stats a Critical changes, one row per Critical its target failed to resist, before it."""

    penalty: IntArray
    fading: IntArray
    def_mod: IntArray
    ap: IntArray


def critical_after(before: CriticalBefore, dof: IntArray) -> tuple[Item, ...]:
    """A Critical's Degrees of Failure (`dof` > 0 per row) on its target [Critical]: each DoF is -1 to
    all actions (the All Action Penalty, on the Defensive Roll too) and costs 1 AP (never below 0); the penalty of
    DoF 5 or less fades 1 a round, of DoF 6+ lasts; DoF 16+ knocks the target unconscious. Items of the event
    "critical"."""
    rows = np.arange(dof.size, dtype=np.int64)
    out = dof >= KNOCKOUT_DOF
    fading = before.fading + np.where(dof < LASTING_DOF, dof, 0)
    return (
        item("critical", "penalty", rows, before.penalty + dof, DEFENDER, CLAUSE_CRITICAL),
        item("critical", "fading", rows, fading, DEFENDER, CLAUSE_CRITICAL),
        item("critical", "def_mod", rows, before.def_mod - dof, DEFENDER, CLAUSE_CRITICAL),
        item("critical", "ap", rows, np.maximum(0, before.ap - dof), DEFENDER, CLAUSE_CRITICAL),
        item("critical", "knocked_out", rows[out], 1, DEFENDER, CLAUSE_CRITICAL),
    )
