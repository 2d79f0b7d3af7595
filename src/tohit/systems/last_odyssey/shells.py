"""What a Last Odyssey hit does to its target's Shell and HP (rules.py's clauses; Shells, Attributes and
Statistics, Death and Injury; docs/last-odyssey.md#silent-shell): a hit's damage goes to an active Shell's
pool; on the hit that breaks it, the overflow takes HP only if it is at least the remaining HP; HP never goes
below 0, and at 0 the target is downed (knocked out, by a knock-out).
"""

from __future__ import annotations

import numpy as np

from tohit.core.fight.state import BoolArray, IntArray
from tohit.core.outcome import NULL_CODE, NULL_INT, Outcome
from tohit.core.steps import Steps
from tohit.systems.last_odyssey.columns import constant
from tohit.systems.last_odyssey.consequences import hp_lost, shell_hit
from tohit.systems.last_odyssey.damage import (
    shell_active,
    shell_points,
)
from tohit.systems.last_odyssey.models import LastOdysseyScenario, Target
from tohit.systems.last_odyssey.tables import HIT as HIT
from tohit.systems.last_odyssey.tables import (
    KNOCK_OUT,
)
from tohit.systems.last_odyssey.tables import MISS as MISS


def apply_to_hp(scenario: LastOdysseyScenario, target: Target, damage: IntArray, out: Outcome, steps: Steps) -> None:
    """Shell absorption, overflow, HP lost and downed (Shells; docs/last-odyssey.md#silent-shell; Death and Injury).

    HP lost is null (unknown) only where HP could be lost and the target's HP, or its Shell's points, are
    not given; a target given without HP is alive (a downed character cannot be targeted), so where no HP
    can be lost it is not downed.
    """
    hp = target.hp
    points = shell_points(target)
    unknown: BoolArray | None = None
    lost: IntArray | int = 0
    if points is not None and points > 0:
        hit = shell_hit(damage, points)
        out.set("shell_absorbed", hit.absorbed)
        out.set("overflow", np.where(hit.broken, hit.overflow, NULL_INT))
        if hp is None:
            unknown = damage > points  # broken with an overflow above 0
        else:
            lost = hp_lost(damage, points, hp)  # broken, and the overflow is at least the HP
        if steps.enabled and steps.when(damage > 0):
            _note_shell(steps, points, hit.absorbed, hit.broken, hit.overflow, damage, hp)
    else:
        out.set("shell_absorbed", constant(out.n, NULL_INT))
        out.set("overflow", constant(out.n, NULL_INT))
        if shell_active(target) or hp is None:
            unknown = damage > 0
            if steps.enabled and shell_active(target) and steps.when(unknown):
                steps.note(
                    "shell",
                    "the target's Shell is active but its points are not given: the HP lost is unknown",
                    clause="Shells (docs/last-odyssey.md#silent-shell)",
                    value=None,
                    where=unknown,
                )
        else:
            lost = hp_lost(damage, 0, hp)
    if unknown is not None:  # where HP is known to be untouched: 0 lost, not downed
        out.set("hp_lost", np.where(unknown, NULL_INT, 0))
        untouched = np.where(unknown, NULL_CODE, 0)
        out.set("downed", untouched)
        out.set("incapacitated", untouched)
        return
    assert hp is not None
    downed = np.asarray(lost) == hp
    out.set("hp_lost", lost)
    out.set("downed", downed)
    out.set("incapacitated", downed if scenario.attack.knock_out else constant(out.n, 0))
    if steps.enabled and steps.when(np.asarray(lost) > 0):
        lost = np.broadcast_to(np.asarray(lost), damage.shape)
        left = hp - lost
        values = {"hp": hp, "lost": lost, "damage": damage, "left": left}
        clause = (
            "Attributes and Statistics (HP never below 0); Death and Injury (downed;"
            " docs/last-odyssey.md#silent-death-and-injury)"
        )
        capped = (damage > hp) if points is None else np.zeros(damage.shape, dtype=bool)
        steps.note(
            "hp",
            "HP {hp} - {damage}: HP never goes below 0, so {left}: at 0 HP the target is downed",
            clause=clause,
            value=left,
            where=(lost > 0) & capped,
            **values,
        )
        steps.note(
            "hp",
            "HP {hp} - {lost} = {left}: at 0 HP the target is downed",
            clause=clause,
            value=left,
            where=(lost > 0) & ~capped & downed,
            **values,
        )
        steps.note("hp", "HP {hp} - {lost} = {left}", clause=clause, value=left, where=(lost > 0) & ~downed, **values)
        if scenario.attack.knock_out:
            steps.note(
                "incapacitated",
                f"{target.name} was knocked out: temporarily incapacitated instead of killed",
                clause=f"{KNOCK_OUT} (docs/last-odyssey.md#silent-knock-out)",
                value=True,
                where=downed,
            )


def _note_shell(
    steps: Steps,
    points: int,
    absorbed: IntArray,
    broken: BoolArray,
    overflow: IntArray,
    damage: IntArray,
    hp: int | None,
) -> None:
    """The Shell's part of a damaging hit, for each attack (Shells; docs/last-odyssey.md#silent-shell)."""
    values = {"points": points, "absorbed": absorbed, "damage": damage, "overflow": overflow, "left": points - absorbed}
    hit = damage > 0
    steps.note(
        "shell",
        "Shell {points} absorbs all {damage}: {left} Shell left, no HP lost",
        clause="Shells (docs/last-odyssey.md#silent-shell)",
        value=absorbed,
        where=hit & ~broken,
        **values,
    )
    breaks = "Shell {points} absorbs {absorbed} and breaks: overflow {damage} - {absorbed} = {overflow}"
    clause = "Shells (overflow damage); docs/last-odyssey.md#silent-shell"
    if hp is None:
        steps.note("shell", breaks, clause=clause, value=absorbed, where=hit & broken, **values)
        return
    downs = overflow >= hp
    steps.note(
        "shell",
        breaks + f", at least the remaining {hp} HP: the target is downed",
        clause=clause,
        value=absorbed,
        where=hit & broken & downs,
        **values,
    )
    steps.note(
        "shell",
        breaks + f", less than the remaining {hp} HP: no HP lost",
        clause=clause,
        value=absorbed,
        where=hit & broken & ~downs,
        **values,
    )
