"""How a Reclaim the Wild fight's state reads: each stat's label in the rulebook's words and its kind."""

from __future__ import annotations

from tohit.core.fight.readings import StatReading
from tohit.systems.rtw.fight_status import STATUSES

READINGS: dict[str, StatReading] = {
    "health": StatReading("Health", "health"),
    "helpless": StatReading("Helpless", "condition", values=(0, 1)),
    "perished": StatReading("Perished", "condition", values=(0, 1)),
    "peril": StatReading("Peril", "condition", values=(0, 1)),  # at or below its Hearts
    **{stat: StatReading(name, "condition", values=(0, 1)) for stat, name in STATUSES.items() if stat != "distracted"},
    #: Distracted keeps its sources, one bit per combatant (Status Effects, Distracted).
    "distracted": StatReading("Distracted", "reference", bits=True),
    "magic": StatReading("Magic", none=-1),
    "stamina": StatReading("Stamina", none=-1),
    "durability": StatReading("Durability", none=-1, per="item"),  # one per weapon (Weapon Durability)
    "dealt": StatReading("Damage dealt"),
    "used": StatReading("Weapon used", "internal", per="item"),  # for the Durability lost at the encounter's end
    "x": StatReading("x", "internal"),  # the map shows where it stands
    "y": StatReading("y", "internal"),
    # A live encounter keeps the round's order (the file's until a delay: core/fight/order.py); the turn order shows it.
    "turn": StatReading("Place in the turn order", "internal"),
}
