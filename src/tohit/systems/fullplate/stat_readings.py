"""How a FullPlate fight's state reads: each stat's label in the rulebook's words and its kind."""

from __future__ import annotations

from tohit.core.fight.readings import StatReading

READINGS: dict[str, StatReading] = {
    "hp": StatReading("HP", "health"),
    #: The hits so far of an attack's magical ammunition (one stat per attack, every attack, a sword's too;
    #: fullplate.txt, Ammunition): kept for the rules, not shown.
    "ammo_hits": StatReading("Magic ammunition hits", "internal", per="attack"),
    "dealt": StatReading("Damage dealt"),
}
