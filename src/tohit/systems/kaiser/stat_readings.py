"""How a Kaiser fight's state reads: each stat's label in the rulebook's words and its kind."""

from __future__ import annotations

from tohit.core.fight.readings import StatReading

READINGS: dict[str, StatReading] = {
    "lp": StatReading("LP", "health"),
    "ap": StatReading("AP"),  # Action Points
    "flat_footed": StatReading("Flat-Footed", "condition", values=(0, 1)),  # Attacking and Defending, Successful Attack
    "knocked_out": StatReading("Knocked out", "condition", values=(0, 1)),  # Critical, DoF 16 or more
    "penalty": StatReading("All Action Penalty"),  # Critical: -1 to all actions per DoF
    "fading": StatReading("Fading penalty"),  # the part of it that fades by 1 a round (DoF 5 or less)
    "def_mod": StatReading("Defensive Roll modifier"),  # the target's modifiers, less the penalties
    "mdp": StatReading("Multiple Defense Penalty"),  # restored at the round's start
    "dealt": StatReading("Damage dealt"),
    # A live encounter keeps the round's order (the file's until a delay: core/fight/order.py); the turn order shows it.
    "turn": StatReading("Place in the turn order", "internal"),
}
