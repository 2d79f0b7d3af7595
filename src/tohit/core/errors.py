"""Errors a user can cause. Each carries the field it is about, so interfaces print one clear line."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

T = TypeVar("T")
#: The longest message an error carries.
MAX_MESSAGE = 1000


class TohitError(Exception):
    """Base of every error caused by input (exit code 2 in the CLI, never a traceback)."""

    def __init__(self, message: str, *, field: str | None = None, source: str | None = None) -> None:
        if len(message) > MAX_MESSAGE:  # a backstop: values are quoted with short_repr where they are named
            message = message[: MAX_MESSAGE - 1] + "…"
        super().__init__(message)
        self.message = message
        self.field = field
        self.source = source

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its field and source (an error raised in a worker process keeps naming its field)."""
        return (_rebuild, (type(self), self.message, self.field, self.source))

    def located(self, *, source: str | None = None, field_prefix: str | None = None) -> TohitError:
        """Return the same error with a file name and/or a field prefix filled in."""
        field = self.field
        if field_prefix:
            field = f"{field_prefix}.{field}" if field else field_prefix
        return type(self)(self.message, field=field, source=source or self.source)

    def __str__(self) -> str:
        parts = [p for p in (self.source, self.field) if p]
        return ": ".join([*parts, self.message])


class InputError(TohitError):
    """A scenario, option or argument that does not fit what the rules and the models accept."""


class DiceError(InputError):
    """A dice expression that cannot be parsed or is over the limits."""


class FacesError(InputError):
    """Forced dice faces out of range or of the wrong count for their role."""


#: The longest quotation of a value in an error message.
MAX_QUOTE = 60


def short_repr(value: object, limit: int = MAX_QUOTE, _depth: int = 0) -> str:
    """A value as an error message quotes it: its repr, cut to `limit` characters, never expanding a huge
    value first (an integer too long for text is given by its size; a list or mapping by a few items, three
    levels deep at most)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"<an integer of about {int(value.bit_length() * 0.30103):,} digits>"
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return _short_container(value, limit, _depth)
    if isinstance(value, (str, bytes)) and len(value) > limit:
        value = value[: limit + 1]
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


Container = list[object] | tuple[object, ...] | dict[object, object] | set[object] | frozenset[object]


def _short_container(value: Container, limit: int, depth: int) -> str:
    """The start of a container's repr, built from at most a few items (each itself cut short)."""
    opening, closing = "[", "]"
    if isinstance(value, tuple):
        opening, closing = "(", ")"
    elif isinstance(value, (dict, set, frozenset)):
        opening, closing = "{", "}"
    if depth >= 3:
        return f"{opening}…{closing}" if value else f"{opening}{closing}"
    if isinstance(value, dict):
        items = [
            f"{short_repr(k, limit, depth + 1)}: {short_repr(v, limit, depth + 1)}" for k, v in _first(value.items(), 8)
        ]
    else:
        items = [short_repr(v, limit, depth + 1) for v in _first(value, 8)]
    more = ", …" if len(value) > len(items) else ""
    text = opening + ", ".join(items) + more + closing
    return text if len(text) <= limit else text[: limit - 2] + "…" + closing


def _first(items: Iterable[T], n: int) -> list[T]:
    out: list[T] = []
    for item in items:
        if len(out) == n:
            break
        out.append(item)
    return out


def _rebuild(kind: type[TohitError], message: str, field: str | None, source: str | None) -> TohitError:
    return kind(message, field=field, source=source)
