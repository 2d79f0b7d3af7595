"""How a WSSWNN fight's state reads: each stat's label in the rulebook's words and its kind."""

from __future__ import annotations

from tohit.core.fight.readings import StatReading

READINGS: dict[str, StatReading] = {
    "life": StatReading("Life", "health"),
    "guard": StatReading("Guard", maximum="max_guard"),
    "awareness": StatReading("Awareness", maximum="max_awareness"),
    "stamina": StatReading("Stamina"),
    #: The foe it holds (its index + 1; 0: none).
    "grappling": StatReading("Grappling", "reference"),
    "disarmed": StatReading("Disarmed", "condition", values=(0, 1)),
    "initiative": StatReading("Won the Initiative", "flag"),
    "dealt": StatReading("Damage dealt"),
    "max_guard": StatReading("Guard at most", "internal"),  # shown as Guard's maximum
    "max_awareness": StatReading("Awareness at most", "internal"),
    "turn": StatReading("Place in the turn order", "internal"),  # the turn order shows it
}
