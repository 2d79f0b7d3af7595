"""FullPlate scenario models: the page's terms in snake_case.

Distances are in feet, as on the page ("within 5 feet", "10 feet away"). AC counts down: lower is better.
Cross-field rules that need the circumstance table live in `rules.FullPlate.check`; the rules a single
model can judge on its own are its validators here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from tohit.core.dice import DiceExpr, parse
from tohit.core.errors import DiceError, short_repr
from tohit.core.models import Model, OptionsBase, Scenario, TargetBase

WeaponKind = Literal["melee", "thrown", "bow_like", "gun_like"]
Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]
Armour = Literal["none", "natural", "worn"]
Game = Literal["traditional", "heroic", "epic"]
CritDamage = Literal["severity", "double_dice", "max_damage"]
ModifierStacking = Literal["page", "all"]
#: A Defence[Type] type name: lower case words joined by underscores ("piercing", "cold_iron").
DefenceType = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]

#: Weapon kinds that fire ammunition from a launcher (the page's "ranged weapons and ammunition").
LAUNCHERS: tuple[str, ...] = ("bow_like", "gun_like")
#: Weapon kinds whose attacks are ranged attacks (the table's "Ranged Attack" rows).
RANGED: tuple[str, ...] = ("thrown", "bow_like", "gun_like")
#: Most dice in a weapon's damage, and largest die, so exact odds stay small.
MAX_DAMAGE_DICE = 12
MAX_DAMAGE_SIDES = 100
MAX_CIRCUMSTANCES = 40


@lru_cache(maxsize=256)
def damage_dice(text: str) -> DiceExpr:
    """Parse a weapon's damage (`1d8`, `2d4+1`); refuse what is not a plain sum of a few dice."""
    expr = parse(text)
    if not expr.terms:
        raise DiceError(f"{short_repr(text)} has no dice; a weapon's damage is dice like 1d8 or 2d4+1")
    if any(t.sign < 0 for t in expr.terms):
        raise DiceError(f"{short_repr(text)} subtracts dice; give the dice as a sum, like 1d8-1")
    if expr.dice_count > MAX_DAMAGE_DICE or any(t.sides > MAX_DAMAGE_SIDES for t in expr.terms):
        raise DiceError(
            f"{short_repr(text)} is over the limits ({MAX_DAMAGE_DICE} dice of at most {MAX_DAMAGE_SIDES} faces)"
        )
    return expr


class Ranges(Model):
    """Range bands of a ranged weapon, in feet: Short / Medium / Long; Extreme is up to 2 x Long
    (docs/fullplate.md#silent-range-bands)."""

    short: int = Field(ge=1, le=100_000, description="Farthest Short Range distance in feet (+0).")
    medium: int = Field(ge=1, le=100_000, description="Farthest Medium Range distance in feet (-2).")
    long: int = Field(ge=1, le=100_000, description="Farthest Long Range distance in feet (-5); Extreme to 2x (-10).")

    @model_validator(mode="after")
    def _ordered(self) -> Ranges:
        if self.medium < self.short:
            raise ValueError(f"medium: {self.medium} is shorter than short range {self.short}")
        if self.long < self.medium:
            raise ValueError(f"long: {self.long} is shorter than medium range {self.medium}")
        return self


class Weapon(Model):
    """The weapon: its damage dice, Enhancement, Critical Range, range bands and kind."""

    name: str | None = None
    damage: str = Field(description="Weapon damage dice, e.g. 1d8 (a flat part like 1d6+1 counts once).")
    enhancement: int = Field(default=0, ge=-10, le=10, description="Enhancement: adds to To-Hit and damage.")
    damage_enhancement: int | None = Field(
        default=None,
        ge=-10,
        le=10,
        description="Damage Enhancement when it differs from the To-Hit one (a +1/+3 weapon); default the same.",
    )
    critical_range: int = Field(
        default=20,
        ge=2,
        le=20,
        description="Lowest natural roll inside the Critical Range (20: only a natural 20).",
    )
    ranges: Ranges | None = Field(default=None, description="Short/Medium/Long distances in feet (ranged weapons).")
    kind: WeaponKind = Field(
        default="melee",
        description="melee, thrown, bow_like (bow, sling) or gun_like (gun, crossbow, blowgun).",
    )
    types: list[DefenceType] = Field(
        default_factory=list,
        max_length=10,
        description="The attack's types for Defence[Type] (e.g. piercing, missile, fire), lower case.",
    )

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        try:
            damage_dice(value)
        except DiceError as exc:
            raise ValueError(f"is not weapon damage dice ({exc.message})") from None
        return value

    @property
    def dice(self) -> DiceExpr:
        return damage_dice(self.damage)

    @property
    def damage_enhancement_value(self) -> int:
        return self.enhancement if self.damage_enhancement is None else self.damage_enhancement

    @property
    def ranged(self) -> bool:
        return self.kind in RANGED

    @model_validator(mode="after")
    def _ranges_need_ranged(self) -> Weapon:
        if self.ranges is not None and not self.ranged:
            raise ValueError("ranges: a melee weapon has no range bands (give kind: thrown, bow_like or gun_like)")
        return self


class Ammunition(Model):
    """Ammunition fired from the launcher; its Enhancement adds to the launcher's."""

    name: str | None = None
    enhancement: int = Field(default=0, ge=-10, le=10, description="The ammunition's Enhancement.")
    loses_all_on_hit: bool = Field(
        default=False,
        description="This ammunition loses all its Enhancement on a successful hit (else 1 per hit).",
    )


class Attacker(Model):
    """The attacker: THAC0, bonuses, hands, proficiencies, weapon and ammunition."""

    name: str | None = None
    thac0: int = Field(ge=-20, le=40, description="To-Hit Armour Class 0: the roll needed to hit AC 0.")
    to_hit_bonus: int = Field(
        default=0,
        ge=-50,
        le=50,
        description="Signed To-Hit bonuses from attributes, proficiencies and the like (penalties negative).",
    )
    damage_bonus: int = Field(
        default=0,
        ge=-50,
        le=50,
        description="Signed damage modifiers: the Strength damage adjustment and proficiency bonuses.",
    )
    ambidextrous: bool = Field(default=False, description="Ambidextrous: no Off-Hand, so no Off-Hand penalty.")
    precision: bool = Field(default=False, description="Precision proficiency: always hits the intended target.")
    hands: int = Field(
        default=2,
        ge=0,
        le=20,
        description="Hands; with more than two, half (rounded down) are Main Hands. 0: only a grip (off-hand).",
    )
    appendages: int = Field(
        default=0,
        ge=0,
        le=20,
        description="Prehensile tails, feet and the like: always Off-Hands; numbered after the hands.",
    )
    breech_immunity: int = Field(
        default=0,
        ge=0,
        le=10,
        description="Breech Immunity +N: attacks count as +N against Special Defence only.",
    )
    weapon: Weapon
    ammunition: Ammunition | None = Field(default=None, description="Ammunition for a bow-like or gun-like weapon.")

    @model_validator(mode="after")
    def _ammunition_needs_launcher(self) -> Attacker:
        if self.ammunition is not None and self.weapon.kind not in LAUNCHERS:
            raise ValueError(f"ammunition: a {self.weapon.kind} weapon fires no ammunition (bow_like or gun_like do)")
        return self


class Attack(Model):
    """This attack: circumstance rows, hand, automatic hit, called attack, backstab, distance."""

    name: str | None = None
    circumstances: list[str] = Field(
        default_factory=list,
        max_length=MAX_CIRCUMSTANCES,
        description="Circumstantial modifier rows by id, for every target (see `tohit modifiers fullplate`).",
    )
    off_hand: bool = Field(default=False, description="Attacking with the Off-Hand (-2 unless Ambidextrous).")
    forced_off_hand: bool = Field(
        default=False,
        description="Forced to use solely the Off-Hand for what the Main Hand would do: an Off-Hand attack, -2 on"
        " To-Hit unless Ambidextrous (the page's -4 is for Skill Checks, not To-Hit rolls).",
    )
    hand: int | None = Field(
        default=None,
        ge=1,
        le=40,
        description="Which hand attacks (1 = first); hands beyond the Main Hands, and appendages, are Off-Hands.",
    )
    automatic_hit: bool = Field(default=False, description="An Automatic Hit: roll only for Critical Hit or Fumble.")
    called: bool = Field(default=False, description="A Called Attack: a hit grants 1d3 Severity.")
    backstab: int = Field(default=0, ge=0, le=20, description="Backstab level (0: not a backstab).")
    distance: int | None = Field(default=None, ge=0, le=100_000, description="Feet between attacker and target.")
    enhancement: int | None = Field(
        default=None,
        ge=-10,
        le=10,
        description="An Enhancement from another source (a spell); only the highest Enhancement counts.",
    )


class Engaged(Model):
    """A creature within 5 feet of the target (Firing Into Melee; docs/fullplate.md#silent-firing-into-melee).

    It may carry the defensive fields of a target: a stray shot that strikes it is judged against its own AC
    and its own Special Defence, Resistance and Vulnerability adjust the damage. Its stats start at `ac`: an
    entry without `ac` is judged as the intended target (the trace says so), and then gives no other stat.
    """

    name: str = Field(min_length=1, description="The creature's name.")
    size: Size = Field(default="medium", description="Size category: tiny ... gargantuan.")
    ac: int | None = Field(
        default=None,
        ge=-30,
        le=30,
        description="Its own Armour Class; without it the creature is judged as the intended target.",
    )
    hp: int | None = Field(default=None, ge=0, le=1_000_000, description="Its hit points before the attack.")
    special_defence: int | None = Field(default=None, ge=0, le=10, description="Its Special Defence +N (default 0).")
    armour: Armour | None = Field(default=None, description="none, natural or worn (default worn), for Severity.")
    flatfooted: bool | None = Field(
        default=None,
        description="It is Flatfooted (default false; the attack's Flatfooted rows are about the intended target).",
    )
    dodge: int | None = Field(default=None, ge=0, le=20, description="Dodge part of its AC (lost while Flatfooted).")
    deflection: int | None = Field(default=None, ge=0, le=20, description="Deflection (shield) part of its AC.")
    shield_covers_part: bool | None = Field(
        default=None, description="Its shield covers the body part struck: Deflection kept while Flatfooted."
    )
    defence: dict[DefenceType, Annotated[int, Field(ge=0, le=20)]] | None = Field(
        default=None, description="Its Defence[Type]: +1 AC per level against attacks of that type."
    )
    resistance_pct: int | None = Field(default=None, ge=0, le=100, description="Its Resistance in %.")
    vulnerability_pct: int | None = Field(default=None, ge=0, le=1000, description="Its Vulnerability in %.")

    @model_validator(mode="after")
    def _stats_start_at_ac(self) -> Engaged:
        if self.ac is None:
            for name in STAT_FIELDS:
                if getattr(self, name) is not None:
                    raise ValueError(
                        f"{name}: {self.name!r} has no ac: give its ac too (its own stats), or drop {name}"
                        " (without ac it is judged as the intended target)"
                    )
        return self

    @property
    def has_stats(self) -> bool:
        """The entry gives its own defences (its `ac`), rather than being judged as the intended target."""
        return self.ac is not None


#: The defensive fields an `engaged_with` entry may carry besides `ac` (its own stats).
STAT_FIELDS = (
    "hp",
    "special_defence",
    "armour",
    "flatfooted",
    "dodge",
    "deflection",
    "shield_covers_part",
    "defence",
    "resistance_pct",
    "vulnerability_pct",
)


class Target(TargetBase):
    """A target: AC and the parts Flatfooted loses, HP, Special Defence, armour, size, neighbours, resistances."""

    ac: int = Field(ge=-30, le=30, description="Armour Class (lower is better).")
    hp: int | None = Field(default=None, ge=0, le=1_000_000, description="Hit points before the attack.")
    special_defence: int = Field(default=0, ge=0, le=10, description="Special Defence +N (0: none).")
    armour: Armour = Field(
        default="worn",
        description="none (no natural or equipped armour: +2 Severity), natural (+1) or worn (equipped).",
    )
    size: Size = Field(default="medium", description="Size category: tiny ... gargantuan.")
    flatfooted: bool = Field(default=False, description="Flatfooted: loses Dodge and shield (Deflection) AC.")
    dodge: int = Field(default=0, ge=0, le=20, description="Dodge part of the AC bonus (lost while Flatfooted).")
    deflection: int = Field(default=0, ge=0, le=20, description="Deflection (shield) part of the AC bonus.")
    shield_covers_part: bool = Field(
        default=False,
        description="The shield covers the body part targeted: Deflection is kept while Flatfooted.",
    )
    engaged_with: list[Engaged] = Field(
        default_factory=list,
        max_length=20,
        description="Others within 5 feet of the target: a ranged attack may hit one of them, judged with its own"
        " stats (ac, special_defence, resistance_pct, ...) or, without them, as this target; in a fight, an entry"
        " naming a combatant of the fight without `ac` takes that combatant's own (its `target` block).",
    )
    engaged_down: list[Annotated[int, Field(ge=0, le=19)]] = Field(
        default_factory=list,
        max_length=20,
        description="Positions (from 0) of `engaged_with` entries that are down (0 HP): out of the melee, a stray"
        " shot never goes to them (a fight fills this from its combatants' hit points).",
    )
    enemies_engaged: int = Field(
        default=0,
        ge=0,
        le=20,
        description="Enemies in melee with the target; Outnumbered level = this minus 1 (Flanking).",
    )
    defence: dict[DefenceType, Annotated[int, Field(ge=0, le=20)]] = Field(
        default_factory=dict,
        description="Defence[Type]: +1 AC per level against attacks of that type (the best match applies).",
    )
    resistance_pct: int = Field(default=0, ge=0, le=100, description="Resistance: damage reduced by this %.")
    vulnerability_pct: int = Field(default=0, ge=0, le=1000, description="Vulnerability: damage raised by this %.")
    circumstances: list[str] = Field(
        default_factory=list,
        max_length=MAX_CIRCUMSTANCES,
        description="Circumstance rows for this target only, added to the attack's.",
    )

    @model_validator(mode="after")
    def _engaged_names(self) -> Target:
        seen = {self.name}
        for i, other in enumerate(self.engaged_with):
            if other.name in seen:
                raise ValueError(
                    f"engaged_with[{i}].name: {short_repr(other.name)} is used twice (names label the creature hit)"
                )
            seen.add(other.name)
        for i, at in enumerate(self.engaged_down):
            if at >= len(self.engaged_with):
                raise ValueError(
                    f"engaged_down[{i}]: {at} is not a position in engaged_with (0 to {len(self.engaged_with) - 1})"
                    if self.engaged_with
                    else f"engaged_down[{i}]: there is no engaged_with entry to be down"
                )
        return self


class Options(OptionsBase):
    game: Game = Field(
        default="heroic",
        description="Game style for Special Defence: heroic, epic or traditional.",
    )
    crit_damage: CritDamage = Field(
        default="severity",
        description="On a Critical Hit: severity (roll 1d4 Severity), double_dice or max_damage.",
    )
    modifier_stacking: ModifierStacking = Field(
        default="page",
        description="page: circumstance rows on one scale replace each other, the worse for the attacker is used,"
        " and scales add (docs/fullplate.md#silent-modifier-scales); all: every named row adds (a DM's ruling).",
    )


FullPlateScenario = Scenario[Attacker, Attack, Target, Options]
