"""Reclaim the Wild scenario models: the rulebook's terms in snake_case.

Conditions are plain booleans (or a level for Hard to Hit), so a later layer (the tactical grid) can feed them:
cover sets a target's `hard_to_hit`, an area template sets the attack's `area`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from tohit.core.models import Model, OptionsBase, TargetBase
from tohit.systems.rtw.tables import (
    HEALTH_PER_HEART,
    MAX_CRIT_RANGE,
    MAX_RANK,
    AttackKind,
    DamageType,
    EffectStat,
    GuardStat,
    HardToHit,
    Range,
    Reaction,
    Trait,
)

Stat = Annotated[int, Field(ge=0, le=1000)]
Rank = Annotated[int, Field(ge=0, le=MAX_RANK)]


def type_tuple(value: list[DamageType] | None) -> tuple[DamageType, ...]:
    """The damage types given, as a tuple without repeats (in the order given)."""
    return tuple(dict.fromkeys(value or ()))


class Enchantments(Model):
    """Weapon enchantments that touch an attack [Enchantments]; ranks 0..5."""

    critical_hit: Rank | None = Field(
        default=None, description="Critical Hit enchantment rank: the range widens by 1 + Rank/2 (rounded down)."
    )
    perfectly_balanced: Rank | None = Field(
        default=None,
        description="Perfectly Balanced rank: adds ACC 0,0,1,1,2,2, Attack Power 1,2,2,3,3,4, CRIT 0,0,1,1,2,2.",
    )


class Weapon(Model):
    """An equipped weapon. No weapon stat may be below 1 [Weapons]; a weapon at 0 Durability has shattered."""

    name: str | None = None
    attack_power: int = Field(ge=1, le=1000, description="Attack Power, before enchantments.")
    acc: int = Field(ge=1, le=100, description="The weapon's Accuracy (ACC) on Rolls To-Hit, before enchantments.")
    durability: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="Durability left; at 0 the weapon shatters and cannot be used, so it is at least 1 here.",
    )
    damage_type: DamageType = Field(description="The weapon's edge: blunt, sharp or piercing (or an element).")
    crit_range: int = Field(
        default=0, ge=0, le=MAX_CRIT_RANGE, description="Other widening of the Critical Hit range: +N crits on 12-N..12"
    )
    enchantments: Enchantments = Field(default_factory=Enchantments)
    burning: bool = Field(
        default=False, description="Burning: every attack made with it is a Critical Hit and deals Fire damage."
    )


class Attacker(Model):
    name: str | None = None
    accuracy: Stat = Field(description="The Accuracy trait, added to every Roll To-Hit.")
    combat: Stat = Field(default=0, description="The Combat trait (damage of Weapon + k x Combat attacks).")
    willpower: Stat = Field(default=0, description="The Willpower trait (damage of Weapon + k x Willpower attacks).")
    weapon: Weapon | None = Field(default=None, description="Omit for an unarmed attack (a Fist: ACC 5, AP 0).")
    distracted: bool = Field(default=False, description="Distracted: every foe but the distraction is Hard to Hit.")
    blinded: bool = Field(default=False, description="Blinded: every foe is Extremely Hard to Hit.")
    dazzled: bool = Field(default=False, description="Dazzled: every foe is Hard to Hit.")
    boss: bool = Field(
        default=False, description="A Mini-Boss or Boss: Blinded (or facing the Invisible) it is merely Dazzled."
    )


class DamageFormula(Model):
    """Weapon + k x Trait (rtw: Damage). `trait: none` with `weapon: true` is Weapon only."""

    trait: Trait = Field(default="combat", description="combat, willpower or none.")
    multiplier: int = Field(default=1, ge=1, le=3, description="k in Weapon + k x Trait: 1, 2 or 3.")
    weapon: bool = Field(default=True, description="Whether the weapon's Attack Power is added (false: Trait only).")

    @model_validator(mode="after")
    def _has_a_part(self) -> DamageFormula:
        if self.trait == "none" and self.multiplier != 1:
            raise ValueError("multiplier: a multiplier needs a trait (combat or willpower)")
        if self.trait == "none" and not self.weapon:
            raise ValueError("weapon: this formula deals no damage; omit attack.damage for an attack without damage")
        return self


class Effect(Model):
    """An additional effect: To-Hit vs Concentration or Vitality decides it (rtw: Landing the Blow)."""

    name: str = Field(min_length=1, description="What the effect inflicts, e.g. Off-Balance.")
    against: EffectStat = Field(description="concentration or vitality.")


class Cost(Model):
    """Magic or Stamina the attack costs: spent even on a miss (rtw: Landing the Blow)."""

    magic: int = Field(default=0, ge=0, le=1000)
    stamina: int = Field(default=0, ge=0, le=1000)


class Attack(Model):
    name: str | None = None
    kind: AttackKind = Field(default="basic", description="basic, spell or technique.")
    against: GuardStat = Field(default="evasion", description="The Guard Stat the Roll To-Hit is compared with.")
    range: Range = Field(default="melee", description="The attack's range (Prone and Parry depend on it).")
    area: bool = Field(
        default=False,
        description="An area attack (in fights: it catches the next foes). It harms a Helpless creature only when"
        " that creature is its only target and it catches nobody else (Falling in Battle;"
        " docs/rtw.md#silent-helpless-areas).",
    )
    catches_others: bool = Field(
        default=False,
        description="The area also catches creatures not given as targets (on a map: filled in, the creatures"
        " with no targets entry): a Helpless target is then not harmed (Falling in Battle).",
    )
    damage: DamageFormula | None = Field(
        default_factory=DamageFormula, description="Weapon + k x Trait; null for an attack that deals no damage."
    )
    damage_type: list[DamageType] | None = Field(
        default=None,
        description="The attack's damage type, or a list of types; default: the weapon's (unarmed: blunt).",
    )
    effect: Effect | None = Field(default=None, description="An additional effect rolled vs Concentration/Vitality.")
    cost: Cost = Field(default_factory=Cost)
    crit_range: int = Field(
        default=0, ge=0, le=MAX_CRIT_RANGE, description="Critical Hit range the attack itself adds (Basic Attacks)."
    )
    normally_able_to_miss: bool | None = Field(
        default=None,
        description="Whether the attack can normally miss (eligible for Critical Hits). Default: Basic Attacks"
        " yes, Spells and Techniques no (set true for those that enable additional Basic Attacks).",
    )
    at_zero_health: Literal["perish", "helpless"] = Field(
        default="perish",
        description="The attacker's whim when a creature drops to 0 Health: perish or helpless (Heroes: helpless).",
    )
    mindless: bool = Field(default=False, description="A source with no whims (a trap): creatures fall Helpless.")

    @field_validator("damage_type", mode="before", json_schema_input_type=DamageType | list[DamageType] | None)
    @classmethod
    def _one_or_more(cls, value: Any) -> Any:
        """One damage type may be given without a list."""
        return [value] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _spell_rules(self) -> Attack:
        if self.kind != "basic" and self.crit_range:
            raise ValueError(
                f"crit_range: a {self.kind.capitalize()} never becomes a Critical Hit from a roll To-Hit,"
                " so it takes no critical range"
            )
        if self.kind != "basic" and self.against != "evasion":
            raise ValueError(
                f"against: a {self.kind.capitalize()} hits automatically, and rolls vs Evasion when it must roll;"
                " name the stat of its additional effect in attack.effect.against"
            )
        if self.catches_others and not self.area:
            raise ValueError("catches_others: only an area attack catches others (set area: true)")
        return self

    @property
    def able_to_miss(self) -> bool:
        """Eligible for a Critical Hit (rtw: Critical Hits)."""
        return self.kind == "basic" if self.normally_able_to_miss is None else self.normally_able_to_miss


class Target(TargetBase):
    evasion: Stat = Field(description="Evasion (10 + Agility + bonuses).")
    concentration: Stat | None = Field(default=None, description="Concentration (10 + Discipline + bonuses).")
    vitality: Stat | None = Field(default=None, description="Vitality (10 + Fortitude + bonuses).")
    defense: Stat = Field(default=0, description="Defense, subtracted from the damage.")
    resistance: dict[DamageType, Annotated[int, Field(ge=0, le=20)]] = Field(
        default_factory=dict, description="Ranks of Resistance by damage type (2 damage per rank)."
    )
    vulnerable: list[DamageType] = Field(default_factory=list, description="Damage types it is Vulnerable to.")
    immune: list[DamageType] = Field(default_factory=list, description="Damage types it is immune to (0 damage).")
    health: int | None = Field(default=None, ge=0, le=100_000, description="Current Health (before the attack).")
    hearts: int | None = Field(default=None, ge=1, le=1000, description="Hearts: Peril is Health <= Hearts.")
    max_health: int | None = Field(default=None, ge=1, le=100_000, description="Max Health; default 4 x Hearts.")
    hero: bool = Field(default=False, description="Heroes at 0 Health always fall Helpless.")
    off_balance: bool = Field(default=False, description="Off-Balance: no Evasion in place of Concentration/Vitality.")
    hard_to_hit: HardToHit = Field(default="none", description="From cover or other sources: none, hard or extreme.")
    prone: bool = False
    halted: bool = Field(default=False, description="Halted: Evasion 0.")
    helpless: bool = Field(default=False, description="Helpless: Guard Stats 0, Prone, no Reactions.")
    frozen: bool = Field(default=False, description="Frozen: Halted; the next non-Fire hit is a Critical Hit.")
    invisible: bool = Field(default=False, description="Invisible: the attacker is treated as Blinded.")
    distracting: bool = Field(default=False, description="This target is a source of the attacker's Distraction.")
    reaction: Reaction = Field(default="none", description="none, deflect or parry: halves the damage after Defense.")
    intercepting: bool = Field(
        default=False, description="This creature Intercepted the attack: it is hit automatically, no Reactions."
    )
    interceptor_feat: bool = Field(
        default=False, description="The Interceptor feat: halve the damage after Defense; effects roll normally."
    )

    @property
    def health_max(self) -> int | None:
        """Max Health: given, or 4 x Hearts (docs/rtw.md#silent-peril)."""
        if self.max_health is not None:
            return self.max_health
        return None if self.hearts is None else HEALTH_PER_HEART * self.hearts

    @model_validator(mode="after")
    def _consistent(self) -> Target:
        top = self.health_max
        if self.health is not None and top is not None and self.health > top:
            raise ValueError(f"health: {self.health} is above Max Health {top}")
        if self.health == 0 and not self.helpless:
            raise ValueError("health: a creature at 0 Health has fallen Helpless (set helpless: true)")
        if self.reaction != "none":
            for flag, why in (
                ("off_balance", "an Off-Balance creature cannot use Reactions"),
                ("helpless", "a Helpless creature cannot use Reactions"),
                ("frozen", "a Frozen creature cannot take actions"),
                ("intercepting", "no Reactions are allowed against an Intercepted attack"),
            ):
                if getattr(self, flag):
                    raise ValueError(f"reaction: {why}")
        if self.interceptor_feat and not self.intercepting:
            raise ValueError("interceptor_feat: the feat applies only when this creature is intercepting")
        return self


class Options(OptionsBase):
    natural_crit_always_hits: bool = Field(
        default=False,
        description="A Basic Attack's natural roll in the critical range hits even when the total falls short"
        " (docs/rtw.md#silent-natural-crit; default false: it must also hit).",
    )
    several_hard_to_hit_sources_are_extreme: bool = Field(
        default=False,
        description="GM discretion: Hard to Hit for several reasons becomes Extremely Hard to Hit (Status Effects).",
    )
