"""Toy d20's stat blocks: the attacker, the attack, the target, the options (pydantic, rulebook terms)."""

from __future__ import annotations

from pydantic import Field

from tohit.core.models import Model, OptionsBase, TargetBase


class Attacker(Model):
    """Who attacks: the attack bonus added to the d20, the damage dice."""

    name: str | None = None
    attack_bonus: int = Field(ge=-20, le=40, description="Added to the d20 To-Hit roll [toy: Attacking].")
    damage_dice: int = Field(default=1, ge=1, le=10, description="How many damage dice [toy: Damage].")
    damage_die: int = Field(default=8, ge=2, le=20, description="Sides of each damage die [toy: Damage].")


class Attack(Model):
    """What attack: a name, and a flat damage bonus."""

    name: str | None = None
    damage_bonus: int = Field(default=0, ge=-10, le=40, description="Added to the damage dice [toy: Damage].")


class Target(TargetBase):
    """Whom: its Defence (the total to reach) and its hit points."""

    defence: int = Field(ge=1, le=60, description="The To-Hit total must reach it to hit [toy: Attacking].")
    hp: int | None = Field(default=None, ge=0, le=10_000, description="Hit points (a fight needs them).")


class Options(OptionsBase):
    """Rule options."""

    critical_on_20: bool = Field(default=True, description="A natural 20 hits and doubles the dice [toy: Critical].")
