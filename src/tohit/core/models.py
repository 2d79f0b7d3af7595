"""Scenario models (docs/architecture.md, "Content is data").

Every system's attacker, attack, target and options models derive from `Model` (unknown keys are refused,
so a typo is an error, not a silent default). `scenario_model` assembles a system's models into the whole
scenario file model: `system`, `attacker`, `attack`, `targets` (each with a `name` and optional `dice`),
optional `dice` (forced faces by role), `options` and `seed`.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Generic, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tohit.core.errors import short_repr
from tohit.core.seeds import MAX_SEED

Faces = list[int]


class Model(BaseModel):
    """Base of every content model: frozen, unknown fields refused, and a number, a flag or a list or mapping
    of them given exactly as such: no true/false or text for a number, no number or text for true/false
    (YAML reads `true` as a bool and pydantic would take it as 1, or "5" as 5, or "yes" as true), as the
    JSON Schema (`tohit schema`) says."""

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


#: What a field holds, for the exact-type check: "integer", "number", "bool", "bool_or_integer", or a list,
#: mapping or tuple of those (("list", kind), ("dict", kind), ("tuple", (kind, ...))).
Kind = Any


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
    if annotation is int:
        return "integer"
    if annotation is float:
        return "number"
    if origin is Literal and args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return "integer"  # e.g. a Bonus Tracker step: pydantic would take true for 1
    if origin in (Union, types.UnionType):
        # A model among the choices takes only a mapping: the plain values are the other choices'.
        found = {_kind(a) for a in args if a is not type(None) and not _is_model(a)}
        if found == {"integer", "number"}:
            return "number"
        if found == {"bool", "integer"}:
            return "bool_or_integer"  # e.g. a Shell: true, or its points
        return found.pop() if len(found) == 1 else None
    if origin is Annotated or hasattr(annotation, "__metadata__"):
        return _kind(args[0]) if args else None
    if origin is list and args:
        inner = _kind(args[0])
        return None if inner is None else ("list", inner)
    if origin is dict and len(args) == 2:
        inner = _kind(args[1])
        return None if inner is None else ("dict", inner)
    if origin is tuple and args and Ellipsis not in args:
        inners = tuple(_kind(a) for a in args)
        return None if all(k is None for k in inners) else ("tuple", inners)
    return None


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _check_kind(name: str, kind: Kind, value: Any) -> None:
    """Raise a ValueError naming `name` (and the place inside it) when `value` is of the wrong plain type."""
    problem = _wrong(kind, value, "")
    if problem is not None:
        where, what = problem
        raise ValueError(f"{name}{where}: {what}")


def _wrong(kind: Kind, value: Any, where: str) -> tuple[str, str] | None:
    if kind in ("integer", "number"):
        if isinstance(value, bool):
            return where, f"a number, not {str(value).lower()}"
        if isinstance(value, str):
            return where, f"{'an integer' if kind == 'integer' else 'a number'}, not text ({short_repr(value)})"
        return None
    if kind == "bool":
        if isinstance(value, (int, float, str)) and not isinstance(value, bool):
            return where, f"true or false, not {short_repr(value)}"
        return None
    if kind == "bool_or_integer":
        if isinstance(value, (float, str)):
            return where, f"true, false or a whole number, not {short_repr(value)}"
        return None
    shape, inner = kind
    if shape == "list" and isinstance(value, list):
        items: Any = enumerate(value)
    elif shape == "dict" and isinstance(value, dict):
        items = value.items()
    elif shape == "tuple" and isinstance(value, (list, tuple)):
        items = ((i, v) for i, v in enumerate(value) if i < len(inner))
    else:
        return None
    for key, item in items:
        sub = inner[key] if shape == "tuple" else inner
        if sub is None:
            continue
        here = f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}" if isinstance(key, str) else where
        found = _wrong(sub, item, here)
        if found is not None:
            return found
    return None


#: Most targets in one scenario (a 1 MB file holds about 11,000; `roll` resolves them in seconds, `odds`
#: shows a progress bar).
MAX_TARGETS = 20_000

#: The JSON Schema dialect of `tohit schema` (pydantic writes 2020-12).
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def input_schema(schema: dict[str, Any], system: str) -> dict[str, Any]:
    """A model's JSON Schema as a file of `system` is written: `system` is that id, `options` may be left out
    or null (read as `{}`, see `Scenario`), and the dialect is named. (Checks across fields, such as unique
    names or forced faces on a role's dice, stay the loader's.)"""
    props = schema.get("properties", {})
    if "system" in props:
        props["system"] = {**props["system"], "const": system}
    if "options" in props:
        schema["required"] = [name for name in schema.get("required", []) if name != "options"]
        props["options"] = {"anyOf": [props["options"], {"type": "null"}], "default": None}
    return {"$schema": SCHEMA_DIALECT, **schema}


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
    targets: list[TargetT] = Field(
        min_length=1, max_length=MAX_TARGETS, description=f"The targets, at most {MAX_TARGETS:,} (the cap)."
    )
    dice: dict[str, Faces] = Field(default_factory=dict, description="Forced faces by role, for every target.")
    options: OptionsT
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED, description="Seed for the dice not forced.")

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
