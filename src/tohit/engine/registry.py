"""The games registry: every game registered in the `tohit.systems` entry-point group.

A game is a package exposing a `System` instance; it registers it as an entry point named after the
game's id, the way pytest finds its plugins (the five built-in games are registered so in tohit's own
pyproject.toml):

    [project.entry-points."tohit.systems"]
    mygame = "mygame:SYSTEM"

Each entry point is loaded, checked to be a `System` whose `id` is the entry point's name, and keyed by
that id. An entry point that fails to load, loads something else, or takes an id another game has, is
an InputError on `system` naming it and its distribution (one `error:` line in the CLI, not a
traceback); like a broken pytest plugin, it stops every command until it is fixed or uninstalled, rather
than leaving its game silently missing.

Fallback, for a tohit whose installed metadata predates the entry points (a source checkout run with
`PYTHONPATH=src` over an older install, or a bundle with no metadata): when no entry point of the group
points into tohit's own `tohit.systems` package, the built-in games are found by scanning that package
for subpackages exposing `SYSTEM`, as before. Once tohit's metadata lists its games (any of them), the
scan is not used, so the entry points alone decide.
"""

from __future__ import annotations

import importlib.metadata
import pkgutil
from functools import cache

import tohit.systems
from tohit.core.errors import InputError, short_repr
from tohit.core.system import AnySystem, System


@cache
def systems() -> dict[str, AnySystem]:
    """All registered games by id, in id order."""
    # tohit's own games first, so that a clash names the newcomer
    points = sorted(importlib.metadata.entry_points(group=GROUP), key=lambda p: (not _built_in(p), p.name, p.value))
    candidates: list[tuple[AnySystem, str]] = []
    if not any(_built_in(p) for p in points):
        candidates += [(s, f"built-in game {s.id!r} (found in {BUILT_IN})") for s in built_in().values()]
    candidates += [(load(p), _where(p)) for p in points]
    found: dict[str, AnySystem] = {}
    where: dict[str, str] = {}
    for system, origin in candidates:
        if system.id in found and found[system.id] is not system:
            raise InputError(f"{origin}: game id {system.id!r} is already taken by {where[system.id]}", field="system")
        found[system.id] = system
        where[system.id] = origin
    return dict(sorted(found.items()))


def get(system_id: object) -> AnySystem:
    """The system with this id, or an InputError on the `system` field listing the known ones."""
    known = systems()
    if not isinstance(system_id, str) or system_id not in known:
        raise InputError(f"unknown system {short_repr(system_id)}; known: {', '.join(known)}", field="system")
    return known[system_id]


#: The entry-point group games register in.
GROUP = "tohit.systems"
#: The package of the built-in games.
BUILT_IN = tohit.systems.__name__


def _where(point: importlib.metadata.EntryPoint) -> str:
    dist = point.dist
    found_in = f", from {dist.name} {dist.version}" if dist is not None else ""
    return f"game entry point {point.name!r} ({point.value}{found_in}; group {GROUP})"


def _built_in(point: importlib.metadata.EntryPoint) -> bool:
    return point.value.startswith(f"{BUILT_IN}.")


def load(point: importlib.metadata.EntryPoint) -> AnySystem:
    """The game an entry point registers, checked; an InputError naming the entry point when it is broken."""
    try:
        found = point.load()
    except Exception as exc:  # a third party's import error, of any kind, is reported in one line
        raise InputError(
            f"{_where(point)} does not load: {type(exc).__name__}: {exc}; fix or uninstall that package",
            field="system",
        ) from exc
    if not isinstance(found, System):
        raise InputError(f"{_where(point)} is a {type(found).__name__}, not a tohit System instance", field="system")
    if getattr(found, "id", None) != point.name:
        raise InputError(
            f"{_where(point)} is registered under another name than its game's id {getattr(found, 'id', None)!r}",
            field="system",
        )
    return found


def built_in() -> dict[str, AnySystem]:
    """The built-in games found by scanning `tohit.systems` (the fallback above)."""
    found: dict[str, AnySystem] = {}
    for info in pkgutil.iter_modules(tohit.systems.__path__):
        module = importlib.import_module(f"{BUILT_IN}.{info.name}")
        system = getattr(module, "SYSTEM", None)
        if isinstance(system, System):
            found[system.id] = system
    return found


#: `AnySystem` is re-exported: engine modules import it from here.
__all__ = ["BUILT_IN", "GROUP", "AnySystem", "built_in", "get", "load", "systems"]
