"""Scenario models (design.md, "Content is data").

Every system's attacker, attack, target and options models derive from `Model` (unknown keys are refused,
so a typo is an error, not a silent default). `scenario_model` assembles a system's models into the whole
scenario file model: `system`, `attacker`, `attack`, `targets` (each with a `name` and optional `dice`),
optional `dice` (forced faces by role), `options` and `seed`.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Generic, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tohit.core.errors import short_repr

Faces = list[int]


class Model(BaseModel):
    """Base of every content model: frozen, unknown fields refused, no true/false for a number and no number
    for true/false (YAML reads `true` as a bool and pydantic would take it as 1)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _no_bool_for_a_number(cls, data: Any) -> Any:
        if isinstance(data, dict):
            kinds = _field_kinds(cls)
            for name, value in data.items():
                kind = kinds.get(name) if isinstance(name, str) else None
                if kind is not None:
                    _check_kind(name, kind, value)
        return data


#: What a field holds, for the bool/number check: "number", "bool", or a list/mapping of numbers.
Kind = str


@cache
def _field_kinds(model: type[BaseModel]) -> dict[str, Kind]:
    kinds: dict[str, Kind] = {}
    for name, field in model.model_fields.items():
        kind = _kind(field.annotation)
        if kind is not None:
            kinds[field.alias or name] = kind
    return kinds


def _kind(annotation: Any) -> Kind | None:
    origin, args = get_origin(annotation), get_args(annotation)
    if annotation is bool:
        return "bool"
    if annotation in (int, float):
        return "number"
    if origin in (Union, types.UnionType):
        found = {_kind(a) for a in args if a is not type(None)}
        return found.pop() if len(found) == 1 else None
    if origin is Annotated or hasattr(annotation, "__metadata__"):
        return _kind(args[0]) if args else None
    if origin is list and args and _kind(args[0]) == "number":
        return "numbers"
    if origin is dict and len(args) == 2 and _kind(args[1]) == "number":
        return "number values"
    return None


def _check_kind(name: str, kind: Kind, value: Any) -> None:
    if kind == "number" and isinstance(value, bool):
        raise ValueError(f"{name}: a number, not {str(value).lower()}")
    if kind == "bool" and isinstance(value, (int, float)) and not isinstance(value, bool):
        raise ValueError(f"{name}: true or false, not {short_repr(value)}")
    if kind == "numbers" and isinstance(value, list) and any(isinstance(v, bool) for v in value):
        raise ValueError(f"{name}: numbers, not true/false")
    if kind == "number values" and isinstance(value, dict) and any(isinstance(v, bool) for v in value.values()):
        raise ValueError(f"{name}: numbers, not true/false")


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
