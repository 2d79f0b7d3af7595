"""The action roll: the acting die, or the highest advantage die if higher (docs/wsswnn.md#silent-advantage), or the
lowest disadvantage die if lower (the mirror: "the foe has brace disadvantage" [braces: Grapple]).

"Advantage: roll a second die (the advantage die) and keep the higher ... Penalties apply to that die too"
(the game's other pages): each die is read after its own penalties, then the higher is kept, so
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
C_ADVANTAGE = "wsswnn: Taking Actions, advantage (docs/wsswnn.md#silent-advantage)"
C_ACTION_DICE = "wsswnn: Taking Actions, action dice (docs/wsswnn.md#silent-action-dice)"
C_DISADVANTAGE = (
    "wsswnn: Braces, Grapple (the foe has brace disadvantage, the mirror of advantage; docs/wsswnn.md#silent-advantage)"
)
C_CANCEL = "wsswnn: advantage and disadvantage cancel (docs/wsswnn.md#silent-cancel)"
C_ROLLED = (
    "wsswnn: Braces, Grapple (a ranged attack into the grapple that rolls odd hits the other grappler;"
    " docs/wsswnn.md#silent-braces)"
)


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
    return _second_die(dice, role, main, steps, "advantage", sorted(set(plan.reasons) - {"named"}))


def _disadvantage(plan: Plan, dice: Dice, role: str, main: Array, steps: Steps) -> Array:
    """The acting die's roll, or the lowest disadvantage die's when lower."""
    reasons = sorted(set(plan.dis_reasons) - {"named"})
    return _second_die(
        dice, role, main, steps, "disadvantage", ["grappled by a foe" if r == "grappled" else r for r in reasons]
    )


def _second_die(dice: Dice, role: str, main: Array, steps: Steps, kind: str, reasons: list[str]) -> Array:
    """The acting die against the `kind` role (advantage: keep the higher; disadvantage: the lower), traced
    with the reasons it was rolled."""
    other: Array = dice[kind]["total"]
    higher = kind == "advantage"
    kept: Array = np.maximum(main, other) if higher else np.minimum(main, other)
    why = f" ({', '.join(reasons)})" if reasons else ""
    steps.note(
        kind,
        "{die} = {main}; {second}{why} = {other}: keep the " + ("higher" if higher else "lower") + ", {kept}",
        clause=C_ADVANTAGE if higher else C_DISADVANTAGE,
        value=kept,
        die=dice.text(role),
        main=main,
        second=dice.text(kind),
        why=why,
        other=other,
        kept=kept,
    )
    return kept
