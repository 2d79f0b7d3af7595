"""WSSWNN scenario models: the page's terms in snake_case.

A target is either a creature (Guard, Agility, Armor, Life...) or an object (Toughness or materials, and
Structure). An object "has no guard or other defenses" [Attacking Objects], so giving one a creature's
defence is an error, not something silently ignored.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from tohit.core.models import Model, OptionsBase, TargetBase
from tohit.systems.wsswnn.objects import Material

#: Action dice, d4 to d12 (docs/wsswnn.md#silent-action-dice).
Die = Literal["d4", "d6", "d8", "d10", "d12"]
#: The four action dice of a combatant [taking-actions].
DieName = Literal["attack", "brace", "compel", "maneuver"]
Kind = Literal["melee", "ranged", "take_hold", "jump", "brace"]
BraceName = Literal["grapple", "shove", "stand_fast", "disarm", "break"]
#: Braces a blocked attack can trigger [Breaking and Disarming Arms].
ArmsBrace = Literal["disarm", "break"]

MAX_STAT = 100
MAX_PENALTY = 20


def die_sides(die: str) -> int:
    """`d8` -> 8."""
    return int(die[1:])


class Weapon(Model):
    """The armament used to attack (the attacker's `weapon`; omitted: an unarmed strike)."""

    name: str | None = None
    blunted: bool = Field(default=False, description="Blunted: lethal damage capped at Strength + 1 [Lethal Damage].")
    guard_damage: int = Field(
        default=1, ge=0, le=10, description="Guard inflicted on a hit or block: 1 for most, 2+ for heavy weapons."
    )
    awareness_damage: int = Field(
        default=0, ge=0, le=10, description="Awareness inflicted on a hit, ignoring armor and the margin."
    )
    lethal: bool = Field(
        default=True,
        description="Inflicts lethal damage; false for attacks that inflict awareness damage rather than lethal.",
    )
    throw: bool = Field(default=False, description="The throw trait: thrown as a normal ranged attack.")
    on_block: ArmsBrace | None = Field(
        default=None,
        description="A free brace this weapon triggers when its attack is blocked (e.g. the Axe's Hook: disarm).",
    )


UNARMED = Weapon(name="unarmed strike", blunted=True)


class Penalties(Model):
    """Armor and shield penalties (positive numbers, subtracted) to each action die."""

    attack: int = Field(default=0, ge=0, le=MAX_PENALTY)
    brace: int = Field(default=0, ge=0, le=MAX_PENALTY)
    compel: int = Field(default=0, ge=0, le=MAX_PENALTY)
    maneuver: int = Field(default=0, ge=0, le=MAX_PENALTY)


class Attacker(Model):
    """The acting combatant: action dice, attributes, penalties and armament."""

    name: str | None = None
    attack_die: Die = Field(description="The Attack die, d4 to d12.")
    brace_die: Die | None = Field(default=None, description="The Brace die (braces, brace advantage).")
    compel_die: Die | None = Field(default=None, description="The Compel die (compel advantage).")
    maneuver_die: Die | None = Field(default=None, description="The Maneuver die (maneuver advantage, landing).")
    strength: int = Field(default=0, ge=0, le=MAX_STAT, description="Strength: blunted cap, jump bonus, Stand Fast.")
    agility: int = Field(default=0, ge=0, le=MAX_STAT, description="Agility (recorded; no rule here uses it).")
    penalty: int | Penalties = Field(
        default=0,
        description=(
            "Armor and shield penalties to dice: a number is the Maneuver die's penalty (Chom's d4 Maneuver at -2);"
            " a mapping {attack, brace, compel, maneuver} gives each die its own."
        ),
    )
    weapon: Weapon | None = Field(default=None, description="The weapon; omitted: an unarmed strike (blunted).")
    free_hand: bool = Field(default=True, description="Has a free hand (Take Hold requires one).")
    guard: int | None = Field(default=None, ge=0, le=MAX_STAT, description="Own current Guard (Stand Fast).")
    grappled: bool = Field(
        default=False, description="Grappled by a foe: brace disadvantage on its attacks [braces: Grapple]."
    )
    max_guard: int | None = Field(default=None, ge=0, le=MAX_STAT, description="Own maximum Guard (Stand Fast).")

    @property
    def armament(self) -> Weapon:
        return self.weapon if self.weapon is not None else UNARMED

    def die(self, name: str) -> str | None:
        return {
            "attack": self.attack_die,
            "brace": self.brace_die,
            "compel": self.compel_die,
            "maneuver": self.maneuver_die,
        }[name]

    def penalty_of(self, name: str) -> int:
        """The penalty on action die `name` (a bare number is the Maneuver die's)."""
        if isinstance(self.penalty, Penalties):
            return int(getattr(self.penalty, name))
        return self.penalty if name == "maneuver" else 0

    @field_validator("penalty")
    @classmethod
    def _penalty_range(cls, value: int | Penalties) -> int | Penalties:
        if isinstance(value, int) and not 0 <= value <= MAX_PENALTY:
            raise ValueError(f"a penalty is a number from 0 to {MAX_PENALTY} (subtracted from the die), got {value}")
        return value


class Attack(Model):
    """What the attacker does: the action, its brace, range, heights, advantage and modifiers."""

    name: str | None = None
    kind: Kind = Field(default="melee", description="melee, ranged, take_hold, jump (jump-attack) or brace.")
    brace: BraceName | None = Field(
        default=None,
        description=(
            "brace: which brace (grapple, shove, stand_fast, disarm, break); take_hold: grapple (default) or shove;"
            " melee/ranged/jump: disarm or break, rolled free when the attack is blocked."
        ),
    )
    spans: int = Field(default=0, ge=0, le=100, description="Distance in spans (0: in your span).")
    heights: int = Field(default=0, ge=0, le=100, description="Jump-attack: heights leapt from.")
    advantage: DieName | list[DieName] | None = Field(
        default=None,
        description=(
            "Advantage: the second action die(s) rolled; keep the highest. Faces forced for the `advantage` role"
            " follow this order: Maneuver (jump-attack), the named dice, Brace (grappled foe or Mighty Blow)."
        ),
    )
    disadvantage: DieName | list[DieName] | None = Field(
        default=None,
        description=(
            "Disadvantage: the second action die(s) rolled; keep the lowest (the mirror of advantage). Any"
            " advantage and any disadvantage cancel: the acting die alone is rolled. Faces forced for the"
            " `disadvantage` role follow this order: the named dice, Brace (the attacker is grappled)."
        ),
    )
    rolled: int | None = Field(
        default=None,
        ge=-MAX_PENALTY,
        le=12,
        description=(
            "The action roll already made (after advantage and the dice's penalties, before any modifier): no"
            " Attack die, advantage die or second die of a disadvantage is read. A ranged attack into a grapple"
            " that rolls an odd number hits the other grappler with that same roll [braces: Grapple]."
        ),
    )
    target_arms: bool = Field(default=False, description="Aim a melee attack at the foe's defending armament.")
    modifier: int = Field(default=0, ge=-50, le=50, description="Other modifiers to the roll (signed).")
    throw: bool = Field(default=False, description="A ranged attack made by throwing the weapon.")
    mighty_blow: bool = Field(
        default=False, description="Champion's Mighty Blow: brace advantage, double lethal, an extra -1 guard."
    )

    @property
    def advantage_dice(self) -> list[str]:
        if self.advantage is None:
            return []
        return [self.advantage] if isinstance(self.advantage, str) else list(self.advantage)

    @property
    def disadvantage_dice(self) -> list[str]:
        if self.disadvantage is None:
            return []
        return [self.disadvantage] if isinstance(self.disadvantage, str) else list(self.disadvantage)


CREATURE_FIELDS = (
    "guard",
    "agility",
    "armor",
    "life",
    "awareness",
    "stamina",
    "strength",
    "shield",
    "unflinching",
    "grappled",
    "held",
)
OBJECT_FIELDS = ("toughness", "materials", "structure")


class Target(TargetBase):
    """A foe (creature) or an object."""

    guard: int | None = Field(default=None, ge=0, le=MAX_STAT, description="Current Guard (creature).")
    agility: int | None = Field(default=None, ge=0, le=MAX_STAT, description="Agility (creature).")
    armor: int = Field(default=0, ge=0, le=MAX_STAT, description="Armor: reduces lethal damage.")
    life: int | None = Field(default=None, ge=0, le=10_000, description="Current Life (for life_after).")
    awareness: int | None = Field(default=None, ge=0, le=MAX_STAT, description="Current Awareness.")
    stamina: int | None = Field(default=None, ge=0, le=MAX_STAT, description="Stamina: a brace beating it succeeds.")
    strength: int | None = Field(default=None, ge=0, le=MAX_STAT, description="Strength: a brace beating it struggles.")
    shield: bool = Field(default=False, description="Has a shield (or a magical effect) that can block missiles.")
    unflinching: Annotated[int, Field(ge=0, le=MAX_STAT)] | bool = Field(
        default=0, description="Unflinching: guard damage reduced by this (true means 1)."
    )
    grappled: bool = Field(default=False, description="Grappled by the attacker: brace advantage on attacks.")
    held: bool = Field(default=False, description="The attacker holds it (Take Hold): a Grapple brace is possible.")
    toughness: int | None = Field(default=None, ge=0, le=MAX_STAT, description="Object: Toughness, like armor.")
    materials: list[Material] | None = Field(
        default=None, min_length=1, description="Object: its materials; Toughness is their average, rounded down."
    )
    structure: int | None = Field(default=None, ge=0, le=100_000, description="Object: Structure, like life.")

    @field_validator("unflinching", mode="before")
    @classmethod
    def _unflinching_flag(cls, value: Any) -> Any:
        """`unflinching: true` is the usual amount, 1 [Damage Reduction]."""
        if isinstance(value, bool):
            return int(value)
        return value

    @property
    def is_object(self) -> bool:
        return any(getattr(self, name) is not None for name in OBJECT_FIELDS)

    @model_validator(mode="after")
    def _creature_or_object(self) -> Target:
        if self.is_object:
            for name in CREATURE_FIELDS:
                # A creature's defence given a value (null or its default means "not given": a dumped
                # scenario round-trips).
                if getattr(self, name) != type(self).model_fields[name].default:
                    what = "Guard" if name == "guard" else name.replace("_", " ")
                    raise ValueError(
                        f"{name}: an object has no {what} or other defenses; it has Toughness and Structure"
                    )
            if self.structure is None:
                raise ValueError("structure: an object target needs its Structure")
            if self.toughness is not None and self.materials is not None:
                raise ValueError("toughness: give an object either its toughness or its materials, not both")
            if self.toughness is None and self.materials is None:
                raise ValueError("toughness: an object target needs its Toughness (or its materials)")
            return self
        if self.guard is None:
            raise ValueError("guard: required for a foe (or give toughness and structure for an object)")
        if self.agility is None:
            raise ValueError("agility: required for a foe")
        return self


class Options(OptionsBase):
    """Readings a table could rule differently (docs/wsswnn.md#where-the-page-is-silent), with their defaults."""

    jump_strength_bonus: bool = Field(
        default=True,
        description="A jump-attack that does not miss adds Strength per height too"
        " (docs/wsswnn.md#silent-jump-attack).",
    )
    unshielded_ranged_struggle: Literal["miss", "block"] = Field(
        default="miss",
        description="A ranged Struggle against a foe with no shield: miss (docs/wsswnn.md#silent-ranged-penalty) or"
        " block.",
    )
