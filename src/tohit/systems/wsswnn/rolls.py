"""The action roll: the acting die, or the highest advantage die if higher (decisions.md wsswnn 2), or the
lowest disadvantage die if lower (the mirror: "the foe has brace disadvantage" [braces: Grapple]).

"Advantage: roll a second die (the advantage die) and keep the higher ... Penalties apply to that die too"
(sources-and-gaps.md §WSSWNN): each die is read after its own penalties, then the higher is kept, so
Chom's d4 Maneuver at -2 showing -1 loses to his Attack 2. Disadvantage keeps the lower the same way. When an
action has both, they cancel and the acting die alone is read (tohit's reading; the trace says so).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.steps import Steps
from tohit.core.system import Dice
from tohit.systems.wsswnn.plan import Plan

Array = npt.NDArray[np.int64]
C_ADVANTAGE = "wsswnn: advantage (taking-actions; decisions 2)"
C_ACTION_DICE = "wsswnn: action dice (taking-actions; decisions 1)"
C_DISADVANTAGE = "wsswnn: disadvantage (braces: Grapple, the foe has brace disadvantage; the mirror of advantage)"
C_CANCEL = "wsswnn: advantage and disadvantage cancel (tohit's reading)"
C_ROLLED = "wsswnn: braces, Grapple (a ranged attack into the grapple that rolls odd hits the other grappler)"


def action_roll(plan: Plan, dice: Dice, role: str, steps: Steps, rolled: Any = None) -> Array:
    """The acting die's roll, or the highest advantage die's when higher (the lowest disadvantage die's when
    lower); `rolled` (attack.rolled: a number, or one per row in a fight) is a roll already made."""
    main: Array = dice[role]["total"]
    if rolled is not None:
        kept: Array = np.broadcast_to(np.asarray(rolled, dtype=np.int64), main.shape).copy()
        steps.note(
            "rolled",
            "the roll already made, {kept}: no die is rolled again",
            clause=C_ROLLED,
            value=kept,
            kept=kept,
        )
        return kept
    if plan.disadvantage:
        return _disadvantage(plan, dice, role, main, steps)
    if any(plan.cancelled):
        steps.note(
            "cancel",
            "advantage ({adv}) and disadvantage ({dis}) cancel: {die} alone = {total}",
            clause=C_CANCEL,
            value=main,
            adv=", ".join(plan.cancelled[0]),
            dis=", ".join(plan.cancelled[1]),
            die=dice.text(role),
            total=main,
        )
        return main
    if not plan.advantage:
        steps.note(
            "roll",
            "{die} = {total}",
            clause=C_ACTION_DICE,
            value=main,
            die=dice.text(role),
            total=main,
        )
        return main
    other: Array = dice["advantage"]["total"]
    kept = np.maximum(main, other)
    reasons = sorted(set(plan.reasons) - {"named"})
    why = f" ({', '.join(reasons)})" if reasons else ""
    steps.note(
        "advantage",
        "{die} = {main}; {adv}{why} = {other}: keep the higher, {kept}",
        clause=C_ADVANTAGE,
        value=kept,
        die=dice.text(role),
        main=main,
        adv=dice.text("advantage"),
        why=why,
        other=other,
        kept=kept,
    )
    return kept


def _disadvantage(plan: Plan, dice: Dice, role: str, main: Array, steps: Steps) -> Array:
    """The acting die's roll, or the lowest disadvantage die's when lower."""
    other: Array = dice["disadvantage"]["total"]
    kept: Array = np.minimum(main, other)
    reasons = sorted(set(plan.dis_reasons) - {"named"})
    why = f" ({', '.join('grappled by a foe' if r == 'grappled' else r for r in reasons)})" if reasons else ""
    steps.note(
        "disadvantage",
        "{die} = {main}; {dis}{why} = {other}: keep the lower, {kept}",
        clause=C_DISADVANTAGE,
        value=kept,
        die=dice.text(role),
        main=main,
        dis=dice.text("disadvantage"),
        why=why,
        other=other,
        kept=kept,
    )
    return kept
