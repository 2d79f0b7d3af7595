"""The systems registry: every package under `tohit.systems` that exposes `SYSTEM`."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

import tohit.systems
from tohit.core.errors import InputError, short_repr
from tohit.core.system import System

AnySystem = System[Any, Any, Any, Any]


@cache
def systems() -> dict[str, AnySystem]:
    """All registered systems by id, in id order."""
    found: dict[str, AnySystem] = {}
    for info in pkgutil.iter_modules(tohit.systems.__path__):
        module = importlib.import_module(f"tohit.systems.{info.name}")
        system = getattr(module, "SYSTEM", None)
        if isinstance(system, System):
            found[system.id] = system
    return dict(sorted(found.items()))


def get(system_id: object) -> AnySystem:
    """The system with this id, or an InputError on the `system` field listing the known ones."""
    known = systems()
    if not isinstance(system_id, str) or system_id not in known:
        raise InputError(f"unknown system {short_repr(system_id)}; known: {', '.join(known)}", field="system")
    return known[system_id]
