"""The action roll: the acting die, or the highest advantage die if higher (decisions.md wsswnn 2).

"Advantage: roll a second die (the advantage die) and keep the higher ... Penalties apply to that die too"
(sources-and-gaps.md §WSSWNN): each die is read after its own penalties, then the higher is kept, so
Chom's d4 Maneuver at -2 showing -1 loses to his Attack 2.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tohit.core.steps import Steps
from tohit.core.system import Dice
from tohit.systems.wsswnn.plan import Plan

Array = npt.NDArray[np.int64]
C_ADVANTAGE = "wsswnn: advantage (taking-actions; decisions 2)"
C_ACTION_DICE = "wsswnn: action dice (taking-actions; decisions 1)"


def action_roll(plan: Plan, dice: Dice, role: str, steps: Steps) -> Array:
    """The acting die's roll, or the highest advantage die's when higher."""
    main: Array = dice[role]["total"]
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
    kept: Array = np.maximum(main, other)
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
