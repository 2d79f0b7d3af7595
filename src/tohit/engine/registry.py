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

When every registered game is one of tohit's own, `get` loads the game asked for alone (a command on one
scenario file does not import the other four); once a third party's game is registered, every game is
loaded first, as above, so that a broken one still stops every command.
"""

from __future__ import annotations

import importlib.metadata
import pkgutil

import tohit.systems
from tohit.core.errors import InputError, short_repr
from tohit.core.system import AnySystem, System


class Games:
    """`systems()`: all registered games by id, in id order, loaded once; `systems.cache_clear()` forgets them
    (and the entry points read), as after installing or removing a game."""

    def __init__(self) -> None:
        self._all: dict[str, AnySystem] | None = None
        self._points: list[importlib.metadata.EntryPoint] | None = None
        self._alone: dict[str, AnySystem] = {}

    def __call__(self) -> dict[str, AnySystem]:
        if self._all is None:
            self._all = _load_all(self.points())
        return self._all

    def points(self) -> list[importlib.metadata.EntryPoint]:
        """The group's entry points, tohit's own games first (so that a clash names the newcomer)."""
        if self._points is None:
            found = importlib.metadata.entry_points(group=GROUP)
            self._points = sorted(found, key=lambda p: (not _built_in(p), p.name, p.value))
        return self._points

    def alone(self, system_id: str) -> AnySystem | None:
        """The game `system_id`, loaded without the others when every registered game is tohit's own and one
        of them has this id; None otherwise (then `systems()` decides)."""
        if self._all is not None:
            return self._all.get(system_id)
        found = self._alone.get(system_id)
        if found is None:
            points = self.points()
            named = [p for p in points if p.name == system_id]
            if not points or not all(_built_in(p) for p in points) or len(named) != 1:
                return None
            found = self._alone[system_id] = load(named[0])
        return found

    def cache_clear(self) -> None:
        self._all, self._points, self._alone = None, None, {}


systems = Games()


def _load_all(points: list[importlib.metadata.EntryPoint]) -> dict[str, AnySystem]:
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
    if isinstance(system_id, str):
        alone = systems.alone(system_id)
        if alone is not None:
            return alone
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
