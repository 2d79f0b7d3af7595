"""A game's field reference (`docs/<id>.md`, `tohit reference SYSTEM`), generated from its models.

Every field of a scenario file's blocks (attacker, attack, each target, options) and what a fight file adds
(a combatant's and an attack's fight fields, the fight's own fields), each with its type, its default and its
meaning: the model's description, which cites the clause the field serves. `tests/test_reference.py` fails
when a committed `docs/<id>.md` is stale; `make docs` writes them again.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from tohit.core.fight.contract import rules_for
from tohit.core.system import AnySystem

BLOCKS = (
    ("attacker", "attacker_model", "the attacker block: who attacks"),
    ("attack", "attack_model", "the attack block: what attack"),
    ("targets[]", "target_model", "each target: its defences (and its `name`, `dice`)"),
    ("options", "options_model", "rule options: each choice a table could rule differently"),
)


def type_name(annotation: Any) -> str:
    """A field's type in words ("integer", "one of: a, b", "list of integer", "mapping (below)")."""
    origin = get_origin(annotation)
    args = get_args(annotation)
    if annotation is type(None):
        return "null"
    if origin is Literal:
        return "one of: " + ", ".join(str(a) for a in args)
    if origin in (Union, types.UnionType):
        return " or ".join(dict.fromkeys(type_name(a) for a in args))
    if origin is list or origin is tuple:
        return "list of " + (type_name(args[0]) if args else "values")
    if origin is dict:
        return f"mapping of {type_name(args[0])} to {type_name(args[1])}" if len(args) == 2 else "mapping"
    if hasattr(annotation, "__metadata__"):  # Annotated
        return type_name(args[0]) if args else "value"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "mapping (below)"
    names = {int: "integer", float: "number", str: "text", bool: "true / false"}
    if annotation in names:
        return names[annotation]
    return getattr(annotation, "__name__", str(annotation))


def _default(field: Any) -> str:
    if field.is_required():
        return "required"
    if field.default_factory is not None:
        value = field.default_factory()
        return "none" if value in ({}, [], ()) else f"`{value}`"
    value = field.default
    if value is PydanticUndefined or value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"`{value}`"


def _nested(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds (itself, or inside a list, mapping, union or Annotated), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _nested(arg)
        if found is not None:
            return found
    return None


def rows(model: type[BaseModel], prefix: str, skip: frozenset[str] = frozenset()) -> Iterator[tuple[str, ...]]:
    """(field, type, default, meaning) of every field of `model`, nested models' fields after theirs."""
    for name, field in model.model_fields.items():
        if name in skip:
            continue
        path = f"{prefix}.{name}" if prefix else name
        meaning = " ".join((field.description or "").split()).replace("|", "\\|")
        yield (f"`{path}`", type_name(field.annotation), _default(field), meaning)
        inner = _nested(field.annotation)
        if inner is not None and inner is not model:
            yield from rows(inner, path + ("[]" if get_origin(field.annotation) in (list, dict) else ""))


def _table(lines: list[str], found: list[tuple[str, ...]]) -> None:
    lines += ["| field | type | default | meaning |", "|---|---|---|---|"]
    lines += [f"| {' | '.join(r)} |" for r in found]
    lines.append("")


def field_reference(system: AnySystem) -> str:
    """The whole reference page of one game, as Markdown."""
    lines = [
        f"# {system.title} (`{system.id}`): field reference",
        "",
        f"Generated from the models by `tohit reference {system.id}` (`make docs`); do not edit by hand. Each meaning"
        " cites the clause of the rulebook page its field serves where the model does; what tohit reads where the"
        " page is silent is at the end, under [Where the page is silent](#where-the-page-is-silent). `tohit schema "
        + system.id
        + "` gives the same as a JSON Schema, `tohit new "
        + system.id
        + "` a starter file.",
        "",
        "## Scenario files",
        "",
        "`system`, `attacker`, `attack`, `targets` (a list), and optionally `dice` (forced faces by role), `options`"
        " and `seed`.",
        "",
    ]
    for block, attr, what in BLOCKS:
        lines += [f"### `{block}`: {what}", ""]
        _table(lines, list(rows(getattr(system, attr), "")))
    if system.fight_module is not None:
        fight = rules_for(system)
        lines += [
            "## Fight files",
            "",
            "`system`, `sides` (each a `name`, a `policy` and `combatants`), `max_rounds`, `seed`, an `attacks` library"
            " and the game's `options`. A combatant has the scenario blocks `attacker` and `target` and a list of"
            " `attacks` (each a `name`, an `attack` block and `attacker` overrides); the game adds these fields.",
            "",
            f"Turn order: {fight.turn_order}",
            "",
        ]
        extra = [
            ("a combatant", fight.combatant_extra, "sides[].combatants[]"),
            ("an attack", fight.attack_extra, "sides[].combatants[].attacks[]"),
        ]
        for what, model, prefix in extra:
            found = list(rows(model, prefix))
            if found:
                lines += [f"### Fight fields of {what}", ""]
                _table(lines, found)
        fields = fight.fight_fields()
        if fields:
            lines += ["### Fight fields of the file", ""]
            for name, (annotation, info) in fields.items():
                meaning = " ".join((getattr(info, "description", None) or "").split())
                lines.append(f"- `{name}` ({type_name(annotation)}): {meaning}")
            lines.append("")
    lines += silent_section(system)
    return "\n".join(lines).rstrip() + "\n"


def silent_anchor(system: AnySystem, anchor: str) -> str:
    """Where a reading of `system` is documented: `docs/<id>.md#silent-<anchor>` (what a trace cites)."""
    return f"docs/{system.id}.md#silent-{anchor}"


def silent_section(system: AnySystem) -> list[str]:
    """The "Where the page is silent" section: one entry per reading the game's package takes (`System.silent`),
    each with a stable anchor `silent-<anchor>` that traces and docstrings cite."""
    if not system.silent:
        return []
    lines = [
        "## Where the page is silent",
        "",
        "The readings tohit takes where the rulebook page says nothing, or can be read more than one way, in our own"
        f" words. A trace cites one as `docs/{system.id}.md#silent-<name>`; where a table could rule differently,"
        " an option above says so and gives this reading as its default.",
        "",
    ]
    for anchor, title, text in system.silent:
        lines += [f'<a id="silent-{anchor}"></a>', f"### {title}", "", " ".join(text.split()), ""]
    return lines
