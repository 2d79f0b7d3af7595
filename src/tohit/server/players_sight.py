"""Where a creature stands, as the players' reads tell it (docs/players.md, "Out of sight"; docs/maps.md, "Vision"):
only while its square is seen by the party.

On a map, every players' read (state, cards, sheet, events, the stream, the previews) tells a combatant's square
(`x`, `y`) only while the party sees it: the party's sight after each event is worked out once per read
(`engine.vision.timeline`), and each event is told with the sight before and after it (`Sighting`):

- a state row (the summary's, an event's) has no `x`, `y` of a combatant out of sight then;
- a change of `x` or `y` keeps its `from` only where the creature was in sight before the event, its `to` only
  where it is in sight after it; a GM's move, its `from` and `to` the same way; a newcomer's file block, its
  `position` only where it joins in sight;
- the sheet's starting stats keep `x`, `y` only of a combatant in sight as it started (the start, or its join);
- a creature out of sight now is in no preview or dice answer (as far as the characters see), and an attack on or
  by one is refused (its odds and the dice it rolls are worked out from where it stands).

Off a map (or in a game with no map rules) every square is told, as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any

from tohit.core.fight.audience import SQUARE, Sighting
from tohit.engine.encounter import Encounter
from tohit.engine.vision import Timeline, timeline
from tohit.server.errors import ApiError

#: The stats that say where a combatant stands on a map.
POSITION = frozenset({"x", "y"})


class PlayersSight:
    """The party's sight for one players' read of `enc` (none off a map), worked out once, when first asked."""

    def __init__(self, enc: Encounter) -> None:
        self.enc = enc

    @cached_property
    def timeline(self) -> Timeline | None:
        return timeline(self.enc) if self.enc.has_map else None

    def sighted(self, at: int = -1) -> frozenset[str] | None:
        """The combatants in the party's sight after the event at place `at` (the last: now); None off a map."""
        found = self.timeline
        if found is None or not found.sighted:
            return None
        return found.sighted[at if -len(found.sighted) <= at < len(found.sighted) else -1]

    def sighting(self, at: int) -> Sighting | None:
        """The sight around the event at place `at`: before it (after the one before) and after it."""
        found = self.timeline
        if found is None or not 0 <= at < len(found.sighted):
            return None
        was = max(at - 1, 0)

        def square(x: int, y: int) -> bool:
            return found.square(was, x, y) or found.square(at, x, y)

        return Sighting(found.sighted[was], found.sighted[at], square)

    def placed(self, combatants: Mapping[str, dict[str, Any]], at: int = -1) -> dict[str, dict[str, Any]]:
        """State rows' combatants without the square of those out of sight after the event at `at`."""
        seen = self.sighted(at)
        if seen is None:
            return dict(combatants)
        return {n: s if n in seen else {k: v for k, v in s.items() if k not in POSITION} for n, s in combatants.items()}

    def changes(self, changes: Iterable[dict[str, Any]], sight: Sighting | None) -> list[dict[str, Any]]:
        """An event's changes with a square's `from` kept only where its creature was seen before the event, its
        `to` only where it is seen after."""
        if sight is None:
            return list(changes)
        out = []
        for ch in changes:
            if ch.get("stat") in POSITION:
                ch = {k: v for k, v in ch.items() if k != "from" or ch.get("who") in sight.before}
                ch = {k: v for k, v in ch.items() if k != "to" or ch.get("who") in sight.after}
            out.append(ch)
        return out

    def moved(
        self, out: dict[str, Any], event: Mapping[str, Any], sight: Sighting | None, secret: frozenset[str]
    ) -> dict[str, Any]:
        """The players' words of an event (`out`) with a GM's move's `from` and `to` (the event's) each kept only
        where its creature is seen then, as `changes` keeps a square (none of a combatant whose numbers they do
        not read), and a newcomer's file block without its `position` unless it joins in sight."""
        who = event.get("combatant")
        block = out.get("block")
        if sight is not None and isinstance(block, Mapping) and "position" in block and who not in sight.after:
            out = {**out, "block": {k: v for k, v in block.items() if k != "position"}}
        if event.get("kind") != "move" or sight is None:
            return out
        out = {k: v for k, v in out.items() if k not in ("from", "to")}
        kept = [k for k, seen in (("from", sight.before), ("to", sight.after)) if who in seen and who not in secret]
        return out | {k: event[k] for k in kept if k in event}

    def starts(self, combatants: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The sheet's combatants, the starting square (`start`'s `x`, `y`) kept only of those in sight as they
        started (at the start, or the event that brought them in)."""
        if self.timeline is None:
            return combatants
        began = {str(e.get("combatant")): i for i, e in enumerate(self.enc.events) if e.get("kind") == "join"}
        out = []
        for c in combatants:
            seen = self.sighted(began.get(c["name"], 0)) or frozenset()
            start = {k: v for k, v in c.get("start", {}).items() if k not in POSITION}
            out.append(c if c["name"] in seen else {**c, "start": start})
        return out

    def unseen(self, names: Iterable[str]) -> list[str]:
        """Those of `names` out of the party's sight now (none off a map)."""
        seen = self.sighted()
        return [] if seen is None else [n for n in names if n not in seen]

    def refuse(self, attacker: str, targets: Iterable[str]) -> None:
        """A 403 for an attack by (field `attacker`) or on (field `targets`) a creature out of the party's sight:
        its odds, reach and dice are worked out from where it stands."""
        if self.unseen([attacker]):
            message = f"{attacker} is out of the party's sight: only the GM token reads its attacks"
            raise ApiError(403, message, "attacker")
        found = self.unseen(targets)
        if found:
            were = "is" if len(found) == 1 else "are"
            message = f"{', '.join(found)} {were} out of the party's sight: only the GM token reads the odds on them"
            raise ApiError(403, message, "targets")

    def shows(self, text: str) -> bool:
        """Whether every square `text` names is seen now."""
        found = self.timeline
        at = len(self.enc.events) - 1
        return found is None or all(found.square(at, int(x), int(y)) for x, y in SQUARE.findall(text))
