"""Last Odyssey scenario models: the rulebook's terms in snake_case.

Statistics an attack does not need may be left out; `LastOdyssey.check` names any the attack does need.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator

from tohit.core.errors import short_repr
from tohit.core.models import Model, OptionsBase, Scenario, TargetBase
from tohit.systems.last_odyssey.tables import (
    ELEMENT_MULTIPLIERS,
    AbilityType,
    Element,
    Kind,
    Row,
    Side,
    Stat,
    Status,
    Step,
    multiplier_text,
)

#: Bounds that keep every product of stats and multipliers exact in int64 arithmetic.
MAX_STAT = 1000
MAX_MULTIPLIER = 100
MAX_DENOMINATOR = 1000
MAX_MULTIPLIERS = 10
MAX_HP = 1_000_000

StatValue = Annotated[int, Field(ge=-MAX_STAT, le=MAX_STAT)]
Buffs = dict[Stat, Step]


def exact_number(value: Any) -> Any:
    """A multiplier as an exact Fraction: 1.5 -> 3/2, "3/2" -> 3/2, 0.1 -> 1/10 (never binary float noise)."""
    if isinstance(value, bool):
        raise ValueError("a multiplier is a number such as 2, 1.5 or 0.25")
    if isinstance(value, float):
        return Fraction(str(value))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{short_repr(value)} is not a number such as 2, 1.5, 0.25 or 3/2") from None
    return value


Multiplier = Annotated[Fraction, BeforeValidator(exact_number)]


def _as_list(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


class Attacker(Model):
    """The user of the ability: its statistics, row, statuses and Bonus Tracker."""

    name: str | None = Field(default=None, description="The user's name (a Self ability must target it).")
    physical_accuracy: StatValue | None = Field(default=None, description="Physical Accuracy (Mind + Body).")
    magical_accuracy: StatValue | None = Field(default=None, description="Magical Accuracy (Spirit + Mind).")
    status_accuracy: StatValue | None = Field(default=None, description="Status Accuracy (Body + Spirit).")
    physical_attack: StatValue | None = Field(default=None, description="Physical Attack (weapon + job).")
    magical_attack: StatValue | None = Field(default=None, description="Magical Attack (weapon + job).")
    row: Row = Field(default="front", description="front or back: a Melee ability needs the front row.")
    player_character: bool = Field(
        default=True, description="A player character (only player characters may declare a knock-out)."
    )
    statuses: list[Status] = Field(
        default_factory=list, description="Statuses on the user: blinded, paralyzed and silenced change attacks."
    )
    buffs: Buffs = Field(
        default_factory=dict,
        description="Bonus Tracker value per statistic: -7, -3, -1, 0, +1, +3 or +7 (buffs minus debuffs).",
    )


class Attack(Model):
    """The ability used: its kind, ability type, element, status, damage multipliers and knock-out."""

    name: str | None = None
    kind: Kind = Field(
        description="physical, magical or status (these roll the hit die); buff or debuff (always succeed)."
    )
    type: Annotated[
        list[AbilityType], BeforeValidator(_as_list, json_schema_input_type=AbilityType | list[AbilityType])
    ] = Field(
        min_length=1,
        description="The ability type (self, melee, ranged, ally, special, passive, multi, reaction), or a list"
        " such as [multi, melee] for Cleave.",
    )
    element: Element | None = Field(
        default=None, description="The ability's elemental type; colorless (or left out) gives x1."
    )
    status: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="The status a status-inflicting ability inflicts (default: its element's status).",
    )
    multipliers: list[Multiplier] = Field(
        default_factory=list,
        max_length=MAX_MULTIPLIERS,
        description="The ability's damage multipliers (Strike 1.5, Power Attack 2...), besides element and Shell.",
    )
    knock_out: bool = Field(
        default=False,
        description="Declared before the roll: damage as if the die showed 1; a downed target is incapacitated.",
    )
    stat: Stat | None = Field(default=None, description="The statistic a buff or debuff moves on the tracker.")
    levels: int = Field(default=1, ge=1, le=6, description="Levels of buff or debuff the ability applies.")

    @cached_property
    def multiplier_product(self) -> Fraction:
        """The product of the ability's own damage multipliers (exact)."""
        total = Fraction(1)
        for m in self.multipliers:
            total *= m
        return total

    @field_validator("multipliers")
    @classmethod
    def _bounded(cls, values: list[Fraction]) -> list[Fraction]:
        for m in values:
            if m < 0 or m > MAX_MULTIPLIER:
                raise ValueError(f"a damage multiplier runs 0 to {MAX_MULTIPLIER}, got {multiplier_text(m)}")
            if m.denominator > MAX_DENOMINATOR:
                raise ValueError(f"{m} is finer than 1/{MAX_DENOMINATOR}; give a simpler multiplier")
        return values


class Target(TargetBase):
    """A character the ability is used on, with its own Evasion or Resistance and its own damage."""

    evasion: StatValue | None = Field(default=None, description="Evasion (for physical and magical attacks).")
    resistance: StatValue | None = Field(default=None, description="Resistance (for status-inflicting abilities).")
    physical_defense: StatValue | None = Field(default=None, description="Physical Defense.")
    magical_defense: StatValue | None = Field(default=None, description="Magical Defense.")
    shell: bool | int | None = Field(
        default=None,
        description="Shell: false (none or broken), true (active), or its remaining points (enemies start a"
        " battle with a full Shell). Needed for physical and magical attacks: it decides the double damage.",
    )
    shell_element: Element | None = Field(
        default=None, description="The Shell's element: the target counts as it while the Shell is active."
    )
    hp: int | None = Field(default=None, ge=1, le=MAX_HP, description="Remaining HP (to report downed).")
    row: Row = Field(default="front", description="front or back: Melee abilities only reach the front row.")
    side: Side = Field(
        default="enemy", description="enemy or ally of the user; an ability used on the other side still works."
    )
    element: Element | None = Field(default=None, description="The target's elemental type.")
    element_multiplier: Multiplier | None = Field(
        default=None,
        description="The element table's multiplier for this attack and target: 0.25, 0.5, 1, 2 or 4"
        " (default: from the elements, else 1).",
    )
    lean_in: bool = Field(default=False, description="The target chooses to be hit, whatever the roll.")
    statuses: list[Status] = Field(
        default_factory=list, description="Statuses on the target: petrified halves its base Evasion."
    )
    buffs: Buffs = Field(default_factory=dict, description="Bonus Tracker value per statistic.")
    body_armor: bool = Field(
        default=False,
        description="An unused Body Armor passive (the Cop's): the first physical hit deals no damage.",
    )

    @field_validator("shell")
    @classmethod
    def _shell_points(cls, value: bool | int | None) -> bool | int | None:
        if not isinstance(value, bool) and isinstance(value, int) and not 0 <= value <= MAX_HP:
            raise ValueError(f"a Shell has 0 to {MAX_HP} points, got {value}")
        return value

    @field_validator("element_multiplier")
    @classmethod
    def _table_value(cls, value: Fraction | None) -> Fraction | None:
        if value is not None and value not in ELEMENT_MULTIPLIERS:
            allowed = ", ".join(multiplier_text(m) for m in ELEMENT_MULTIPLIERS[:-1])
            raise ValueError(f"must be {allowed} or 4 (the element table's values), got {multiplier_text(value)}")
        return value

    @field_validator("hp", mode="before")
    @classmethod
    def _not_downed(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value == 0:
            raise ValueError("a downed character (0 HP) cannot be targeted except by revives")
        return value


class Options(OptionsBase):
    """Readings a table could rule differently (docs/last-odyssey.md#where-the-page-is-silent; the game's other
    pages)."""

    rounding: Literal["nearest", "down"] = Field(
        default="nearest",
        description="Final damage rounding: nearest, halves up (the page; docs/last-odyssey.md#silent-damage) or"
        " down (Elemental Types).",
    )
    action_points: int = Field(
        default=2,
        ge=1,
        le=3,
        description="Fights: AP per turn, each ability 1 AP (a Basic Attack's cost): 2 for tiers 1-5, 3 for tiers"
        " 6-10 [The Combat Round]; 1: one ability per turn.",
    )
    turn_order: Literal["initiative", "file"] = Field(
        default="initiative",
        description="Fights: turns follow Initiative, the GM's 2d4 against the players' calls breaking ties"
        " [Starting Battles]; file: the order in the file, sides alternating.",
    )
    effect_phase: bool = Field(
        default=True,
        description="Fights: at the end of each round Poisoned takes 1/10 of base maximum HP (at least 1), then a"
        " side advances on a front row left empty [The Combat Round]; false: no Poisoned damage, and the"
        " back row comes forward at once.",
    )
    blinded_halves: Literal["base", "total"] = Field(
        default="base",
        description="Blinded halves the base accuracies before buffs (the game's other pages) or the total"
        " with buffs (a later Statuses).",
    )


LastOdysseyScenario = Scenario[Attacker, Attack, Target, Options]
