"""What the engine keeps per validated scenario: work that depends on the scenario alone, done once.

A validated scenario is a frozen model, so what the engine derives from it (a target's joint table and its
resolved outcomes, the traced rows of a roll) never changes while it lives. `memo(scenario)` is a dict kept
beside that very object (keyed by its identity, not its content: a copy, even an equal one, starts empty)
and dropped when the object is collected. `roll` (once, or `--times` for a game that traces one attack at
a time) and `odds` reach it through the `Loaded` they hold, and `scenario.from_dict` hands back the same
`Loaded` for the same document, so a server answering the same scenario twice validates and resolves once.
"""

from __future__ import annotations

import weakref
from typing import Any

_MEMOS: dict[int, dict[Any, Any]] = {}


def memo(model: object) -> dict[Any, Any]:
    """The engine's cache for `model` (a validated scenario): empty at first, gone with the model."""
    key = id(model)
    found = _MEMOS.get(key)
    if found is None:
        found = _MEMOS[key] = {}
        # Runs when the model is collected, before its id can be reused by another object.
        weakref.finalize(model, _MEMOS.pop, key, None)
    return found


def clear(model: object) -> None:
    """Forget what was kept for `model` (for benchmarks that time the first call on a scenario)."""
    found = _MEMOS.get(id(model))
    if found is not None:
        found.clear()
