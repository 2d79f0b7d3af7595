"""Words a fight step says, built only when someone will read them (docs/architecture.md, "One fight driver";
docs/players.md, "Events are data, told to each audience").

A step hands the context an event's data (its kind, its changes and its details); the game master's words are
written from that data by the game's phrase for the kind (`FightRules.gm_phrases`, a `GmPhrase`) or the common
one (`core/fight/gm_words.py`), as the players' are by `core/fight/audience.told`. The context builds them only
when it tells the fight (narration), so a batch of sampled fights never builds a sentence and the game never asks
which mode it runs in. A step may still hand its words as a string or as a function that makes them (`Words`),
for a kind no phrase words yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: An event's words: the text itself, or a function that makes it.
Words = str | Callable[..., str]
#: The game master's words for one event, from its data (kind, changes with their `from` and `to`, details).
GmPhrase = Callable[[Mapping[str, Any]], str]


def said(words: Words) -> str:
    """The text of `words` (calling it when it is a function)."""
    return words if isinstance(words, str) else words()


def told(info: dict[str, Any]) -> dict[str, Any]:
    """An event's details, each a value or a function that makes it, as values."""
    return {k: v() if callable(v) else v for k, v in info.items()}


def gm_told(event: Mapping[str, Any], *phrases: Mapping[str, GmPhrase]) -> str:
    """The game master's words for `event`, from its data: the first of `phrases` (the game's, then the common
    ones) that words its kind. A kind no phrase words is a defect of the game's package, not of the input."""
    kind = str(event.get("kind", ""))
    for table in phrases:
        if kind in table:
            return table[kind](event)
    raise LookupError(f"no game master's words for an event of kind {kind!r}")
