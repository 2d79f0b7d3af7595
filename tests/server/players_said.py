"""What a players' text may hold (issue 37): of a text about a hidden combatant, no number but the shown
combatants' (their changes in the event, the damage a shown target takes), the round's and the rule cited's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any


def shown_numbers(item: Mapping[str, Any], hidden: Iterable[str]) -> set[str]:
    """The numbers an event may say to the players: its shown changes' values and their differences, and the
    damage of an attack on a shown target."""
    changes = [ch for ch in item.get("changes", []) if "to" in ch and "from" in ch]
    found = {str(abs(v)) for ch in changes for v in (ch["from"], ch["to"])}
    found |= {str(abs(ch["to"] - ch["from"])) for ch in changes}
    if item.get("target") not in set(hidden):
        found |= {n.replace(",", "") for n in re.findall(r"([\d,]+) damage", str(item.get("text")))}
    return found


def numbers_left(text: str, names: Iterable[str], allowed: set[str]) -> set[str]:
    """The numbers of `text` outside the combatants' names, the round and the rule cited, not in `allowed`."""
    pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    rest = re.sub(pattern, "", text) if pattern else text
    rest = re.sub(r"\[[^\]]*\]", "", re.sub(r"\(?[Rr]ound \d+\)?", "", rest))
    return {n.replace(",", "") for n in re.findall(r"\d[\d,]*", rest)} - allowed
