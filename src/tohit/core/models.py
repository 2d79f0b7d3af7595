"""Scenario models (design.md, "Content is data").

Every system's attacker, attack, target and options models derive from `Model` (unknown keys are refused,
so a typo is an error, not a silent default). `scenario_model` assembles a system's models into the whole
scenario file model: `system`, `attacker`, `attack`, `targets` (each with a `name` and optional `dice`),
optional `dice` (forced faces by role), `options` and `seed`.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tohit.core.errors import short_repr

Faces = list[int]


class Model(BaseModel):
    """Base of every content model: frozen, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class TargetBase(Model):
    """What every target has: a `name`, and optionally its own forced `dice` (role -> faces)."""

    name: str = Field(min_length=1, description="The target's name, unique in the scenario.")
    dice: dict[str, Faces] = Field(default_factory=dict, description="Forced faces by role for this target.")


class OptionsBase(Model):
    """Options every system accepts."""

    depth: int | None = Field(
        default=None,
        ge=0,
        le=40,
        description="How deep exact odds follow open-ended dice; the probability beyond is reported.",
    )


AttackerT = TypeVar("AttackerT", bound=Model)
AttackT = TypeVar("AttackT", bound=Model)
TargetT = TypeVar("TargetT", bound=TargetBase)
OptionsT = TypeVar("OptionsT", bound=OptionsBase)


class Scenario(Model, Generic[AttackerT, AttackT, TargetT, OptionsT]):
    """One attack: who attacks, with what, against which targets, with which forced dice and options."""

    system: str = Field(description="The rule system's id (see `tohit systems`).")
    attacker: AttackerT
    attack: AttackT
    targets: list[TargetT] = Field(min_length=1)
    dice: dict[str, Faces] = Field(default_factory=dict, description="Forced faces by role, for every target.")
    options: OptionsT
    seed: int | None = Field(default=None, ge=0, description="Seed for the dice not forced.")

    @model_validator(mode="before")
    @classmethod
    def _default_options(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("options") is None:
            data = {**data, "options": {}}
        return data

    @model_validator(mode="after")
    def _unique_names(self) -> Scenario[AttackerT, AttackT, TargetT, OptionsT]:
        seen: set[str] = set()
        for i, target in enumerate(self.targets):
            if target.name in seen:
                raise ValueError(f"targets[{i}].name: {short_repr(target.name)} is used twice")
            seen.add(target.name)
        return self

    def forced(self, target: TargetBase) -> dict[str, Faces]:
        """Forced faces for `target`: the scenario's, overridden role by role by the target's own."""
        return {**self.dice, **target.dice}
