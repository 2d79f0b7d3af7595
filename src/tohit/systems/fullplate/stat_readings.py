"""How a FullPlate fight's state reads: each stat's label in the rulebook's words and its kind."""

from __future__ import annotations

from tohit.core.fight.readings import StatReading
from tohit.systems.fullplate.circumstances import TARGET_CONDITIONS

READINGS: dict[str, StatReading] = {
    "hp": StatReading("HP", "health"),
    #: The hits so far of an attack's magical ammunition (one stat per attack, every attack, a sword's too;
    #: fullplate.txt, Ammunition): kept for the rules, not shown.
    "ammo_hits": StatReading("Magic ammunition hits", "internal", per="attack"),
    "dealt": StatReading("Damage dealt"),
    #: The target conditions of the Circumstantial Modifiers table and Flatfooted, on or off: kept in a live
    #: encounter, where the game master sets them (fight.py).
    **{stat: StatReading(word, "condition", values=(0, 1)) for stat, word in TARGET_CONDITIONS.items()},
    "flatfooted": StatReading("Flatfooted", "condition", values=(0, 1)),
    # A live encounter keeps the round's order (the file's until a delay: core/fight/order.py); the turn order shows it.
    "turn": StatReading("Place in the turn order", "internal"),
}
