"""Words a fight step says, built only when someone will read them (docs/architecture.md, "One fight driver").

A game's step hands the context its words as a string or as a function that makes them (`Words`); the context
calls it only when it tells the fight (narration), so a batch of sampled fights never builds a sentence and the
game never asks which mode it runs in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: An event's words: the text itself, or a function that makes it.
Words = str | Callable[..., str]


def said(words: Words) -> str:
    """The text of `words` (calling it when it is a function)."""
    return words if isinstance(words, str) else words()


def told(info: dict[str, Any]) -> dict[str, Any]:
    """An event's details, each a value or a function that makes it, as values."""
    return {k: v() if callable(v) else v for k, v in info.items()}
