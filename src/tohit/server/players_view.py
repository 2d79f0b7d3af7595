"""The players' view hides what the game master hides: every read with the view token (`GET`,
`/sheet`, `/events`, `/events.jsonl`, `/stream`) carries, for a hidden combatant, no stat values:

- in `state` and `shown`, only a health word (unhurt, hurt, badly hurt, down);
- in events' `changes`, no `from`/`to`; in event texts, no numbers of theirs (an event that names a hidden
  combatant keeps its words, its numbers outside the combatants' names become "?"); the GM's adjust or condition
  of a hidden combatant reads "<who>'s <label>: ? -> ? (by the GM)", no `on` (a flag's yes/no, a reference's
  name or a status's name is a value too); and nothing else of such an event but what says who did what (its
  trace, dice, outcome and file blocks stay with the GM);
- in the sheet, no starting stats;
- what is computed from an attack (`preview`, `dice`, `aim`) is refused (403, naming the hidden combatant) when the
  attacker or a target named is hidden, since exact odds, the dice a roll still needs and the best placements are
  computed from the hidden combatant's stats; the dice route is refused too when the attack reaches a hidden
  creature (an area's catch, a Multi's every foe: field `targets`) or `dice` is keyed by one (field `dice`),
  never answered with the hidden names dropped; a preview row of a hidden creature the attack also reaches keeps only
  its name; Best aim ranks by the damage done to every creature it may reach, so it is refused while any combatant
  is hidden; the map of a hidden attacker's attack is the board and the creatures only (where a creature stands is
  on the table for everyone to see, none of the map's fields is a stat value), its placement ignored (a placement
  refused as out of range would tell its range).

Who is hidden is read from the events (`engine.gm_hand.hidden`: by default every combatant not on the first side,
until the GM reveals it). The GM token sees everything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tohit.core.errors import TohitError
from tohit.engine.encounter import Encounter
from tohit.engine.gm_hand import hidden
from tohit.server.errors import ApiError
from tohit.server.read_models import dice_answer, map_view, starts

#: What stays of an event that names a hidden combatant: who did what, never how much.
_KEPT = (
    "kind", "text", "n", "action", "changes", "attacker", "target", "attack", "combatant", "undoes", "winner",
    "rounds", "side", "sides", "condition", "on", "to_players", "turn", "seed", "system", "source", "prev",
)  # fmt: skip
#: Events whose text holds no stat value (the sides and round, who won after how many rounds): kept as written.
_OWN_WORDS = ("start", "end", "stalemate", "unfinished")
#: What the players read of a GM's note.
_NOTE = {"text": "the GM writes a note", "changes": []}
_NUMBER = re.compile(r"[-+]?\d[\d,.]*")
WORDS = ("unhurt", "hurt", "badly hurt", "down")
#: What a map answer says about the attack placed (its range, the squares it covers, whom it reaches and the cover
#: lines from its attacker): left out of the map of a hidden attacker's attack.
_MAP_ATTACK = {
    "range": "", "range_type": "", "squares": [], "reached": [], "cover": {}, "placement": {}, "placement_fields": [],
}  # fmt: skip


class RenameBody(BaseModel):
    """PATCH /v1/encounters/{id}: the encounter's new name (the GM token)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=200)


def health_word(value: int, top: int) -> str:
    """Health in words: down at 0 or less, unhurt at its top, badly hurt at half or less, else hurt."""
    if value <= 0:
        return "down"
    if value >= top:
        return "unhurt"
    return "badly hurt" if 2 * value <= top else "hurt"


class PlayersView:
    """The encounter as the players see it: `enc`'s hidden combatants (or those given) read as health words; `own`,
    a player's own combatant(s) (a player's link: server/player_links.py), never hidden."""

    def __init__(self, enc: Encounter, hide: Iterable[str] | None = None, own: Iterable[str] = ()) -> None:
        self.enc = enc
        self.hidden = set(hidden(enc.events) if hide is None else hide) - set(own)
        rules = enc.fight.rules
        self.health = rules.health
        reading = rules.readings.get(rules.health)
        self.maximum = reading.maximum if reading is not None else None
        self.start = starts(enc)  # a newcomer's: as it joined
        self.names = sorted(enc.fight.roster.names, key=len, reverse=True)

    def word(self, name: str, stats: Mapping[str, Any]) -> str:
        """A combatant's health word from its stats (the top: its maximum stat, else its starting health)."""
        value = int(stats.get(self.health, 0))
        top = stats.get(self.maximum) if self.maximum else None
        if top is None:
            top = self.start.get(name, {}).get(self.health, value)
        return health_word(value, max(int(top), 1))

    def row(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """A state row (`{"fight", "combatants"}`) with each hidden combatant's stats replaced by its word."""
        combatants = {
            name: ({"health": self.word(name, stats)} if name in self.hidden else stats)
            for name, stats in row.get("combatants", {}).items()
        }
        return {**row, "combatants": combatants}

    def summary(self, found: dict[str, Any]) -> dict[str, Any]:
        """GET /v1/encounters/{id} for the players: state, shown and conditions without hidden values."""
        shown = dict(found.get("shown", {}))
        reading = self.enc.fight.rules.readings.get(self.health)
        label = reading.label if reading is not None else self.enc.fight.rules.health_label
        state = found["state"]["combatants"]
        for name in self.hidden & set(shown):
            word = self.word(name, state[name])
            shown[name] = [{"stat": self.health, "label": label, "kind": "health", "text": word, "hidden": True}]
        conditions = {k: ([] if k in self.hidden else v) for k, v in found.get("conditions", {}).items()}
        found = {k: v for k, v in found.items() if k != "notes"}  # the GM's notes: never the players'
        return {
            **found,
            "state": self.row(found["state"]),
            "shown": shown,
            "conditions": conditions,
            "rows": self.rows(found.get("rows", [])),
            "hidden": sorted(self.hidden),
            "durations": {k: v for k, v in found.get("durations", {}).items() if k not in self.hidden},
        }

    def rows(self, found: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Each side's rows without the hidden combatants (a row, or a side, left with nobody is left out)."""
        out = []
        for side in found:
            lines = [{**r, "names": [n for n in r["names"] if n not in self.hidden]} for r in side["rows"]]
            lines = [r for r in lines if r["names"]]
            if lines:
                out.append({**side, "rows": lines})
        return out

    def sheet(self, found: dict[str, Any]) -> dict[str, Any]:
        """The sheet for the players: no starting stats of a hidden combatant."""
        combatants = [
            {**c, "start": {}, "hidden": True} if c["name"] in self.hidden else c for c in found.get("combatants", [])
        ]
        return {**found, "combatants": combatants, "hidden": sorted(self.hidden)}

    def refuse(self, attacker: str, targets: Iterable[str] = ()) -> None:
        """A 403 naming the attacker (field `attacker`) or the targets (field `targets`) hidden from the players:
        what is computed from an attack on or by a hidden combatant reads its stats."""
        if attacker in self.hidden:
            message = f"{attacker} is hidden from the players: only the GM token reads its attacks"
            raise ApiError(403, message, "attacker")
        found = sorted({t for t in targets if t in self.hidden})
        if found:
            were = "is" if len(found) == 1 else "are"
            message = f"{', '.join(found)} {were} hidden from the players: only the GM token reads the odds on them"
            raise ApiError(403, message, "targets")

    @contextmanager
    def said(self) -> Iterator[None]:
        """An error (a TohitError) whose message names a hidden combatant, with its numbers made "?" (e.g. a fallen
        foe's "it is down (life 0)")."""
        try:
            yield
        except TohitError as e:
            if not any(name in e.message for name in self.hidden):
                raise
            raise type(e)(self.text(e.message), field=e.field, source=e.source) from None

    def preview(
        self, attacker: str, attack: str | None, targets: list[str], placement: str | None = None
    ) -> list[dict[str, Any]]:
        """The engine's preview for the players: refused for a hidden attacker or target named (before any odds
        are worked out); a hidden creature the attack also reaches is a row with its name only; the game's words
        of a row (`reach`, `move`) that name a hidden creature have their numbers made "?", as an event's text."""
        self.refuse(attacker, targets)
        with self.said():
            rows = self.enc.preview(attacker, attack, targets, placement)
        return [{"name": r["name"], "hidden": True} if r["name"] in self.hidden else self._words(r) for r in rows]

    def _words(self, row: dict[str, Any]) -> dict[str, Any]:
        said = {k: row[k] for k in ("reach", "move") if isinstance(row.get(k), str)}
        return {**row, **{k: self.text(v) for k, v in said.items() if any(n in v for n in self.hidden)}}

    def dice(
        self, attacker: str, attack: str | None, targets: list[str], placement: str | None, faces: Any
    ) -> dict[str, Any]:
        """The dice route for the players: refused (403) for a hidden attacker or target named, for `dice` keyed by
        a hidden combatant (field `dice`), and for an attack that reaches a hidden creature (an area's catch, a
        Multi's every foe: field `targets`), since the roles a target rolls and what its faces still need are
        read from its stats; nothing hidden is dropped silently from the answer."""
        self.refuse(attacker, targets)
        if isinstance(faces, Mapping):
            keyed = sorted(k for k in faces if k in self.hidden)
            if keyed:
                message = f"{', '.join(keyed)}: hidden from the players, only the GM token types dice for it"
                raise ApiError(403, message, "dice")
        with self.said():
            self.enc.check_targets(attacker, attack, targets)
            reached = self.enc.reached(attacker, attack, targets, placement) if not self.enc.over else targets
            caught = sorted(t for t in reached if t in self.hidden)
            if caught:
                message = f"the attack reaches {', '.join(caught)}, hidden from the players: only the GM token reads it"
                raise ApiError(403, message, "targets")
            return dice_answer(self.enc, attacker, attack, targets, placement, faces)

    def aim(self, attacker: str) -> None:
        """Best aim for the players: refused while any combatant is hidden (a placement's score is the damage it
        does to every creature it reaches, read from their stats)."""
        self.refuse(attacker)
        if self.hidden:
            names = ", ".join(sorted(self.hidden))
            message = f"best aim ranks by the damage done to hidden combatants ({names}): only the GM token asks it"
            raise ApiError(403, message, "attack")

    def map_view(self, attacker: str, attack: str | None, placement: dict[str, Any] | None) -> dict[str, Any]:
        """The map for the players: a hidden attacker's attack left out (the board and the creatures stay), its
        `placement` not even read (a placement refused, out of its range, would say what its range is)."""
        concealed = attacker in self.hidden
        with self.said():
            found = map_view(self.enc, attacker, attack, None if concealed else placement)
        return {**found, **_MAP_ATTACK} if concealed else found

    def touches(self, event: Mapping[str, Any]) -> bool:
        """Whether an event is about a hidden combatant: a change of its, it as attacker, target or combatant, or
        its name in the text."""
        if any(ch.get("who") in self.hidden for ch in event.get("changes", [])):
            return True
        if any(event.get(k) in self.hidden for k in ("attacker", "target", "combatant")):
            return True
        text = str(event.get("text") or "")
        return any(name in text for name in self.hidden)

    def text(self, text: str) -> str:
        """The text with every number outside a combatant's name made "?"."""
        if not self.names:
            return _NUMBER.sub("?", text)
        pattern = "(" + "|".join(re.escape(n) for n in self.names) + ")"
        parts = re.split(pattern, text)
        return "".join(p if i % 2 else _NUMBER.sub("?", p) for i, p in enumerate(parts))

    def by_hand(self, event: Mapping[str, Any]) -> str | None:
        """The text of the GM's adjust or condition event about a hidden combatant, none of the value in it (a
        flag's yes/no, a reference's name, a status's name, a number): "<who>'s <label>: ? -> ? (by the GM)";
        None for any other event. One on several (`each`) reads so for each hidden one, the others' words kept."""
        kind, changes = event.get("kind"), event.get("changes") or [{}]
        if kind in ("adjust", "condition") and isinstance(event.get("each"), list):
            parts = [{**p, "kind": kind, "changes": [{"who": p.get("combatant")}]} for p in event["each"]]
            said = [(self.by_hand(p), str(p.get("text") or "")) for p in parts]
            return "; ".join(masked or text for masked, text in said) if any(m for m, _ in said) else None
        who = event.get("combatant") if kind == "condition" else changes[0].get("who")
        if kind not in ("adjust", "condition") or who not in self.hidden:
            return None
        name = event.get("condition") if kind == "condition" else None
        if name is None:  # the adjust text reads "<who>'s <label>: <was> -> <now> (<how>)"
            name = str(event.get("text") or "").removeprefix(f"{who}'s ").split(": ", 1)[0]
        return f"{who}'s {name}: ? -> ? (by the GM)"

    def event(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """One event for the players: a GM's note keeps only that one was written (never its text, nor on whom)."""
        if event.get("kind") == "note":
            return {k: event[k] for k in ("kind", "n", "action", "prev") if k in event} | _NOTE
        out = dict(event)
        if self.touches(event):
            out = {k: v for k, v in event.items() if k in _KEPT}
            if event.get("kind") not in _OWN_WORDS:
                out["text"] = self.text(str(event.get("text") or ""))
            masked = self.by_hand(event)
            if masked is not None:
                out = {k: v for k, v in out.items() if k != "on"} | {"text": masked}
            outcome = event.get("outcome")
            if isinstance(outcome, Mapping) and "result" in outcome:
                out["result"] = outcome["result"]
        out["changes"] = [
            {"who": ch.get("who"), "stat": ch.get("stat")} if ch.get("who") in self.hidden else ch
            for ch in event.get("changes", [])
        ]
        if isinstance(event.get("state"), Mapping):
            out["state"] = self.row(event["state"])
        return out

    def events(self, found: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [self.event(e) for e in found]
