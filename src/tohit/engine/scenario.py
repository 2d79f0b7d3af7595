"""Loading a scenario: file or mapping -> (system, validated scenario), every problem one clear line."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from tohit.core.errors import InputError, short_repr
from tohit.core.loader import check_kind, check_shape, read_document, validate
from tohit.core.models import Scenario
from tohit.core.roles import listed
from tohit.core.system import AnySystem
from tohit.engine.registry import get

AnyScenario = Scenario[Any, Any, Any, Any]
#: How many validated documents `from_dict` keeps (the most recently used).
KEPT_DOCUMENTS = 128
_kept: OrderedDict[str, Loaded] = OrderedDict()


@dataclass(frozen=True)
class Loaded:
    """A validated scenario with its system and where it came from."""

    system: AnySystem
    scenario: AnyScenario
    source: str


def load(path: str | Path) -> Loaded:
    """Read and validate a YAML or JSON scenario file (a fight file is refused: `check_kind`)."""
    data = read_document(path)
    check_kind(data, path, "attack")
    return from_dict(data, source=str(path))


def from_dict(data: dict[str, Any], *, source: str = "<scenario>") -> Loaded:
    """Validate a scenario given as a mapping (the Python API's entry point).

    The same document (equal as JSON) from the same source gives back the same `Loaded`, validated once: a
    server answering the same scenario again, or a script rolling it in a loop, then finds the work kept
    beside it (`engine/memo.py`). A scenario is frozen, so sharing it is safe."""
    try:
        key = json.dumps([source, data], sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):  # not plain JSON data (the API takes any mapping), or too deep
        return _validated(data, source)
    found = _kept.get(key)
    if found is not None and _same_game(found, data):
        with suppress(KeyError):  # another thread may have just let it go
            _kept.move_to_end(key)
        return found
    found = _kept[key] = _validated(data, source)
    if len(_kept) > KEPT_DOCUMENTS:
        _kept.popitem(last=False)
    return found


def _same_game(found: Loaded, data: dict[str, Any]) -> bool:
    """Whether the registry still gives the game `found` was validated with (games may be installed or
    removed since: then the document is validated again, and refused if its game is now broken)."""
    try:
        return get(data["system"]) is found.system
    except InputError:
        return False


def _validated(data: dict[str, Any], source: str) -> Loaded:
    if not isinstance(data, dict):
        raise InputError("a scenario must be a mapping of fields", source=source)
    check_shape(data, source=source)
    if "system" not in data:
        raise InputError("required field is missing", field="system", source=source)
    try:
        system = get(data["system"])
    except InputError as exc:
        raise exc.located(source=source) from None
    scenario = validate(system.scenario_model(), data, source=source)
    try:
        system.check(scenario)
        for i, target in enumerate(scenario.targets):
            roles = system.roles(scenario, target)
            for role_name, faces in scenario.forced(target).items():
                where = f"targets[{i}].dice.{role_name}" if role_name in target.dice else f"dice.{role_name}"
                if role_name not in roles:
                    known = listed(roles)
                    raise InputError(
                        f"unknown dice role {short_repr(role_name)}; this attack rolls: {known}", field=where
                    )
                try:
                    roles[role_name].read(faces)
                except InputError as exc:
                    raise InputError(exc.message, field=where) from None
    except InputError as exc:
        raise exc.located(source=source) from None
    return Loaded(system, scenario, source)


T = TypeVar("T")


def pick_target(targets: Sequence[T], name: str) -> T:
    """The result of the target called `name`, or an InputError naming the known targets."""
    for t in targets:
        if getattr(t, "name", None) == name:
            return t
    known = ", ".join(str(getattr(t, "name", "?")) for t in targets)
    raise InputError(f"no target {short_repr(name)}; targets: {known}", field="target")
