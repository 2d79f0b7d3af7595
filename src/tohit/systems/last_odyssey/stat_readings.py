"""How a Last Odyssey fight's state reads: each stat's label in the rulebook's words and its kind."""

from __future__ import annotations

from tohit.core.fight.readings import StatReading

READINGS: dict[str, StatReading] = {
    "hp": StatReading("HP", "health"),
    "shell": StatReading("Shell", none=0),
    "body_armor": StatReading("Body Armor", "flag"),
    "row": StatReading("Row", words={0: "front", 1: "back"}),
    "ap": StatReading("AP"),
    "incapacitated": StatReading("Incapacitated", "condition", values=(0, 1)),
    #: A bitmask of statuses and a tracker of buffs: the rules' `narrate_value` names each as a chip.
    "statuses": StatReading("Statuses", "condition", named=True),
    "buffs": StatReading("Buffs", "condition", named=True),
    "dealt": StatReading("Damage dealt"),
    "status_hits": StatReading("Statuses inflicted", "internal"),
    "turn": StatReading("Place in the turn order", "internal"),  # the turn order shows it
}
