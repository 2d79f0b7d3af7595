"""The trace: named steps recorded inside `resolve` (docs/architecture.md, "The trace").

`resolve` calls `steps.note(...)` with a template and the values it used. The `Trace` recorder formats
them into the explanation a player reads, one list of steps per attack (row), each step citing its
clause; the `Silent` recorder (odds, simulate) does nothing, so the same code runs at full speed.

A note that applies to some attacks only passes `where=mask`; `steps.when(mask)` tells whether any
recorded attack needs the notes of a branch (a cheap guard around building them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from itertools import repeat
from string import Formatter
from typing import Any, NamedTuple

import numpy as np


class Step(NamedTuple):
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


def rows_text(condition: Any, yes: Any, no: Any) -> Any:
    """Per attack: the words `yes` where `condition` holds, else `no` (each a str or one str per attack): a note's
    value for words that depend on the roll, so that one note traces a batch row by row (`batch_trace`)."""
    return np.where(np.asarray(condition), np.asarray(yes, dtype=object), np.asarray(no, dtype=object))


def each_text(template: str, **values: Any) -> Any:
    """`template` formatted per attack with `values` (scalars, or arrays of one value per attack): one str per
    attack (a plain str when every value is a scalar)."""
    columns = {k: np.asarray(v).reshape(-1) for k, v in values.items()}
    n = max((c.size for c in columns.values()), default=1)
    if n == 1 and all(np.ndim(v) == 0 for v in values.values()):
        return template.format(**{k: scalar(v) for k, v in values.items()})
    rows = {k: np.broadcast_to(c, (n,)).tolist() for k, c in columns.items()}
    found = [template.format(**{k: col[i] for k, col in rows.items()}) for i in range(n)]
    return np.asarray(found, dtype=object)


def joined_text(parts: Sequence[Any], sep: str = " + ") -> Any:
    """The parts (each a str or one str per attack) joined by `sep`, per attack."""
    return each_text(sep.join(f"{{p{i}}}" for i in range(len(parts))), **{f"p{i}": p for i, p in enumerate(parts)})


class Steps:
    """Recorder interface; `enabled` is False for batches so callers can skip building rich values."""

    enabled: bool = False

    def note(self, name: str, text: str, *, clause: str, value: Any = None, where: Any = None, **values: Any) -> None:
        """Record step `name` for the attacks in `where` (all when None).

        `text` is a str.format template over `values`; `value` is the step's headline value. Values may be
        scalars or arrays with one element per attack.
        """

    def when(self, condition: Any) -> bool:
        """True when recording and `condition` (a bool or an array, one per attack) holds for any attack."""
        return self.enabled and bool(np.any(condition))


class Silent(Steps):
    """Records nothing: the batch (odds, simulate) recorder."""


class Trace(Steps):
    """Records formatted steps for `n` attacks: the recorder used by `roll`."""

    enabled = True

    def __init__(self, n: int = 1) -> None:
        self.n = n
        self.rows: list[list[Step]] = [[] for _ in range(n)]

    @property
    def steps(self) -> list[Step]:
        """The steps of the first (for a single roll, the only) attack."""
        return self.rows[0]

    def _per_row(self, value: Any) -> Any:
        """A value as one item per row (a list) when it varies by row, else a scalar."""
        if isinstance(value, np.ndarray) and value.ndim == 1 and value.size == self.n and self.n > 1:
            return value.tolist()
        return scalar(value)

    def note(self, name: str, text: str, *, clause: str, value: Any = None, where: Any = None, **values: Any) -> None:
        rows: range | list[int]
        if where is None:
            rows = range(self.n)
        else:
            mask = np.asarray(where, dtype=bool)
            if mask.size == 1:  # one answer for every row (a single roll, or a plain bool)
                if not mask.reshape(()).item():
                    return
                rows = range(self.n)
            else:
                rows = np.flatnonzero(np.broadcast_to(mask, (self.n,))).tolist()
                if not rows:
                    return
        plain = {k: self._per_row(v) for k, v in values.items()}
        varying = tuple(k for k, v in plain.items() if isinstance(v, list) and self.n > 1)
        head = self._per_row(value)
        head_varies = isinstance(head, list) and self.n > 1
        whole = isinstance(rows, range)
        targets = self.rows if whole else [self.rows[i] for i in rows]
        heads: Any = repeat(head)
        if head_varies:
            heads = head if whole else [head[i] for i in rows]
        if not varying:  # one text for every row: formatted once (a Step is immutable, so rows may share it)
            lines: Any = repeat(text.format(**plain))
        else:
            fixed = {k: v for k, v in plain.items() if k not in varying}
            columns = [plain[k] for k in varying]
            if not whole:
                columns = [[col[i] for i in rows] for col in columns]
            fmt = _positional(text, varying)
            if fmt is None:  # a nested format spec: fields by name, row by row
                by_row = zip(*columns, strict=True)
                lines = [text.format(**fixed, **dict(zip(varying, vals, strict=True))) for vals in by_row]
            else:
                lines = map(partial(fmt, **fixed) if fixed else fmt, *columns)
        # The rows' lists each take one Step; `map` runs the loop in C (a batch is thousands of rows).
        steps = map(_new_step, zip(repeat(name), lines, repeat(clause), heads))  # no Python frame per Step
        for _ in map(list.append, targets, steps):
            pass


#: `Step(*fields)` without the Python-level `__new__` a NamedTuple adds: a batch makes thousands of Steps.
_new_step = partial(tuple.__new__, Step)


@lru_cache(maxsize=4096)
def _positional(text: str, names: tuple[str, ...]) -> Callable[..., str] | None:
    """`text.format` with the fields `names` taken by position (in that order), the others by name: a row's
    values then go in as a list, with no dict built per row. Each field keeps its conversion and format spec.
    None for a template with a nested spec ("{x:{width}}"), which the caller formats by name."""
    place = {name: i for i, name in enumerate(names)}
    parts = []
    for literal, field, spec, conversion in Formatter().parse(text):
        parts.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is None:
            continue
        if "{" in (spec or ""):
            return None
        root, rest = _split_field(field)
        key = str(place[root]) if root in place else root
        parts.append("{" + key + rest + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}")
    return "".join(parts).format


def _split_field(field: str) -> tuple[str, str]:
    """A replacement field's name and the attribute or index part after it ("x.y[0]" -> ("x", ".y[0]"))."""
    for i, ch in enumerate(field):
        if ch in ".[":
            return field[:i], field[i:]
    return field, ""
