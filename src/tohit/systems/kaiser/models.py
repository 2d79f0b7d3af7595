"""Kaiser RPG scenario models: the page's terms in snake_case."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from tohit.core.models import Model, OptionsBase, TargetBase
from tohit.systems.kaiser.tables import MAX_SCORE, MIN_SCORE, DamageType

Range = Literal["hand_to_hand", "point_blank", "ranged"]
MAX_ADVANTAGE = 10


class Weapon(Model):
    """A weapon: its damage (per Unit, before Strength) and its damage type."""

    name: str | None = None
    damage: int = Field(ge=0, le=1000, description="Weapon damage; Base Damage adds the Strength modifier.")
    damage_type: DamageType = Field(description="One of the 12 damage types, e.g. cut.")


class Attacker(Model):
    name: str | None = None
    offensive_skill: int = Field(ge=0, le=100, description="Offensive Skill added to the 2d6 Offensive Roll.")
    strength: int = Field(ge=MIN_SCORE, le=MAX_SCORE, description="Strength score; its modifier adds to damage.")
    weapon: Weapon


def net_advantage(value: object) -> object:
    """A and D cancel one for one [Dice]: a list of signed sources (A2 = 2, D3 = -3) nets to one int."""
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return sum(value)
    return value


ADVANTAGE_DOC = (
    "+n: advantage An (roll 2+n d6, keep the best two); -n: disadvantage Dn (keep the worst two);"
    " a list of sources nets A against D, e.g. [2, -3] is D1."
)


#: What `advantage` accepts (the JSON Schema): one signed number, or a list of signed sources.
AdvantageInput = Annotated[int, Field(ge=-MAX_ADVANTAGE, le=MAX_ADVANTAGE)] | list[int]


class Attack(Model):
    name: str | None = None
    range: Range = Field(default="hand_to_hand", description="hand_to_hand, point_blank or ranged.")
    modifiers: int = Field(default=0, ge=-100, le=100, description="Signed factors on the Offensive Roll.")
    advantage: int = Field(default=0, ge=-MAX_ADVANTAGE, le=MAX_ADVANTAGE, description=ADVANTAGE_DOC)

    @field_validator("advantage", mode="before", json_schema_input_type=AdvantageInput)
    @classmethod
    def _net(cls, value: object) -> object:
        return net_advantage(value)


class Target(TargetBase):
    defensive_skill: int = Field(ge=0, le=100, description="Defensive Skill added to the 2d6 Defensive Roll.")
    modifiers: int = Field(default=0, ge=-100, le=100, description="Signed modifiers on the Defensive Roll.")
    advantage: int = Field(default=0, ge=-MAX_ADVANTAGE, le=MAX_ADVANTAGE, description=ADVANTAGE_DOC)
    absorption: int = Field(default=2, ge=0, le=100, description="Subtracted from DoS; usually 2.")
    armor: dict[DamageType, Annotated[int, Field(ge=0, le=100)]] = Field(
        default_factory=dict, description="Armor Value per damage type."
    )
    ap: int = Field(default=6, ge=0, le=100, description="Action Points left this round.")
    lp: int = Field(ge=0, le=1_000_000, description="Current Life Points (criticals are judged on them).")

    @field_validator("advantage", mode="before", json_schema_input_type=AdvantageInput)
    @classmethod
    def _net(cls, value: object) -> object:
        return net_advantage(value)


class Options(OptionsBase):
    open_rolls_and_fumbles: bool = Field(
        default=True,
        description="Open rolls (double 6) and fumbles (double 1) on both rolls; false: bare 2d6.",
    )
    multiple_defense_penalty: bool = Field(
        default=True,
        description="Fights: each Defensive Roll after a defender's first in a round is at -2 more (2 attacks -2,"
        " 3 attacks -4, ...) (docs/kaiser.md#silent-multiple-defense-penalty); false: every defense at +0.",
    )
