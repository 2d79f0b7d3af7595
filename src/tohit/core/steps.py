"""The trace: named steps recorded inside `resolve` (design.md, "The trace").

`resolve` calls `steps.note(...)` with a template and the values it used. With one attack (n = 1) the
`Trace` recorder formats them into the explanation a player reads, each step citing its clause; for a
batch the `Silent` recorder does nothing, so the same code runs at full speed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Step:
    """One line of a trace: what was computed, in words, and the rule it applies."""

    name: str
    text: str
    clause: str
    value: int | bool | str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"step": self.name, "text": self.text, "clause": self.clause, "value": self.value}


def scalar(value: Any) -> Any:
    """A numpy value or length-1 array as a plain Python scalar; other values unchanged."""
    if isinstance(value, np.ndarray):
        if value.size != 1:
            return value.tolist()
        value = value.reshape(()).item()
    if isinstance(value, np.generic):
        return value.item()
    return value


class Steps:
    """Recorder interface; `enabled` is False for batches so callers can skip building rich values."""

    enabled: bool = False

    def note(self, name: str, text: str, *, clause: str, value: Any = None, **values: Any) -> None:
        """Record step `name`: `text` is a str.format template over `values`; `value` is the headline."""

    def when(self, condition: Any) -> bool:
        """True when recording and `condition` (an array of one element, or a bool) holds."""
        return self.enabled and bool(scalar(condition))


class Silent(Steps):
    """Records nothing: the batch (odds, simulate) recorder."""


class Trace(Steps):
    """Records formatted steps: the n = 1 recorder used by `roll`."""

    enabled = True

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def note(self, name: str, text: str, *, clause: str, value: Any = None, **values: Any) -> None:
        plain = {k: scalar(v) for k, v in values.items()}
        self.steps.append(Step(name, text.format(**plain), clause, scalar(value)))

    def render(self) -> list[str]:
        return [f"{s.text}  [{s.clause}]" for s in self.steps]
