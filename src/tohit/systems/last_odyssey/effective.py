"""Statistics as an attack uses them: base value, statuses that halve it, and the Bonus Tracker.

- Buffs and debuffs [Buffs and Debuffs]: the tracker value (-7, -3, -1, 0, +1, +3, +7) is
  added to the statistic.
- Blinded [Statuses]: Physical, Magical and Status Accuracy count as half, rounded down.
  Option `blinded_halves`: "base" halves the base value before buffs (the game's other pages),
  "total" halves the value with buffs (the later wording of Statuses).
- Petrified [Statuses]: base Evasion counts as half, rounded down, not including buffs and debuffs.
"""

from __future__ import annotations

from typing import NamedTuple

from tohit.systems.last_odyssey.models import Attacker, Options, Target
from tohit.systems.last_odyssey.tables import Stat

NAMES: dict[Stat, str] = {
    "physical_accuracy": "Physical Accuracy",
    "magical_accuracy": "Magical Accuracy",
    "status_accuracy": "Status Accuracy",
    "physical_attack": "Physical Attack",
    "magical_attack": "Magical Attack",
    "physical_defense": "Physical Defense",
    "magical_defense": "Magical Defense",
    "evasion": "Evasion",
    "resistance": "Resistance",
}
ACCURACIES: tuple[Stat, ...] = ("physical_accuracy", "magical_accuracy", "status_accuracy")


class StatValue(NamedTuple):
    """A statistic's value for this attack; `text` and `clauses` say how it was reached (for the trace)."""

    stat: Stat
    value: int
    base: int
    step: int
    #: "base" / "total": halved (rounded down) before / after the tracker, because of `why`; None: not halved.
    halve: str | None = None
    why: str = ""

    @property
    def text(self) -> str:
        name, base, step, value = NAMES[self.stat], self.base, self.step, self.value
        if self.halve == "base":
            text = f"{name} {base}, {self.why}: half rounded down {base // 2}"
            return text + (f", Bonus Tracker {step:+d} = {value}" if step else "")
        if self.halve == "total":
            tracker = f" {step:+d} Bonus Tracker" if step else ""
            return f"{name} {base}{tracker}, {self.why}: half rounded down = {value}"
        return f"{name} {base}" + (f" {step:+d} Bonus Tracker = {value}" if step else "")

    @property
    def clauses(self) -> tuple[str, ...]:
        out = [f"Statuses ({self.why}; docs/last-odyssey.md#silent-statuses)"] if self.halve else []
        if self.step:
            out.insert(
                1 if self.halve == "base" else 0, "Buffs and Debuffs (docs/last-odyssey.md#silent-buffs-and-debuffs)"
            )
        return tuple(out)


def effective(stat: Stat, base: int, step: int, *, halve: str | None, why: str = "") -> StatValue:
    """`base` with the Bonus Tracker `step`; `halve` = "base" / "total" halves (rounded down) for `why`."""
    if halve == "base":
        value = base // 2 + step
    elif halve == "total":
        value = (base + step) // 2
    else:
        value = base + step
    return StatValue(stat, value, base, step, halve, why)


def attacker_stat(attacker: Attacker, stat: Stat, options: Options) -> StatValue:
    """An attacker's accuracy or attack; Blinded halves the accuracies (option `blinded_halves`)."""
    base = getattr(attacker, stat)
    if base is None:  # LastOdyssey.check refuses this before any roll
        raise ValueError(f"attacker.{stat} is required")
    blinded = stat in ACCURACIES and "blinded" in attacker.statuses
    halve = options.blinded_halves if blinded else None
    return effective(stat, int(base), attacker.buffs.get(stat, 0), halve=halve, why="Blinded")


def target_stat(target: Target, stat: Stat) -> StatValue:
    """A target's defence statistic; Petrified halves its base Evasion (buffs not included)."""
    base = getattr(target, stat)
    if base is None:  # LastOdyssey.check refuses this before any roll
        raise ValueError(f"targets.{stat} is required")
    halve = "base" if stat == "evasion" and "petrified" in target.statuses else None
    return effective(stat, int(base), target.buffs.get(stat, 0), halve=halve, why="Petrified")
