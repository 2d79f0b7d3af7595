"""The players' view: what the players' characters see (docs/players.md). Every read with the view token
(`GET`, `/sheet`, `/events`, `/events.jsonl`, `/stream`) carries, for a hidden combatant, no number of its own:

- in `state` and `shown`, only a health word (the game's `FightRules.health_words`: unhurt, wounded, bloodied,
  down), and its conditions (what a person at the table sees);
- each event told in the players' words, written from its data by core/fight/audience.py (`told`): an event
  about nobody hidden reads as the game wrote it, one about a hidden combatant is told again from its data (who
  attacks whom with what, the result, a health word, a condition), never masked after the fact; of such an event
  the players get only what says who did what (its trace, dice, outcome numbers and file blocks stay with the
  GM); in `changes`, no `from`/`to` of a hidden combatant;
- nobody's Damage dealt (it sums the foes' losses, a hidden foe's too): not in `state`, `shown` or `changes`;
- in the sheet, no starting stats, attacks or targets' counts of a hidden combatant;
- what is computed from an attack (`preview`, `dice`, `aim`) is refused (403, naming the hidden combatant) when the
  attacker or a target named is hidden, since exact odds, the dice a roll still needs and the best placements are
  computed from the hidden combatant's stats; the dice route is refused too when the attack reaches a hidden
  creature in sight (an area's catch, a Multi's every foe: field `targets`) or `dice` is keyed by one (field
  `dice`), never answered with the hidden names dropped; a preview row of a hidden creature the attack also
  reaches keeps only its name; Best aim ranks by the damage done to every creature it may reach, so it is
  refused while any combatant is hidden; the map of a hidden attacker's attack is the board and the creatures
  only (where a creature in sight stands is on the table for everyone to see, none of the map's fields is a stat
  value), its placement ignored (a placement refused as out of range would tell its range); an error about a
  hidden combatant says so, in words of its own.

On a map, where a creature stands is told only while the party sees its square (server/players_sight.py:
state rows, changes, a move's words and ends, the sheet's starting squares; odds by or on a creature out of sight
refused, an area's catch out of sight or hidden entirely left out of the preview and dice answers). A side named
after a combatant hidden entirely reads "side N" (`masked`).

Who is hidden is read from the events (`engine.gm_hand.hidden`: by default every combatant not on the first side,
until the GM reveals it). `own`: the combatants whose every number this reader reads (a player's own character).
The GM token sees everything.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tohit.core.errors import TohitError
from tohit.core.fight.audience import FIGHT_WORDS, HEALTH_WORDS, UNTOLD, Audience, health_word, told
from tohit.core.fight.contract import rules_for
from tohit.engine import registry
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import PLAYERS
from tohit.engine.gm_hand import hidden
from tohit.engine.presence import absent_at
from tohit.server.errors import ApiError
from tohit.server.players_sight import PlayersSight
from tohit.server.read_models import dice_answer, map_view, starts

#: What stays of an event that names a hidden combatant: who did what, never how much.
_KEPT = (
    "kind", "text", "n", "action", "changes", "attacker", "target", "attack", "combatant", "undoes", "winner",
    "rounds", "side", "sides", "condition", "on", "to_players", "turn", "seed", "system", "source", "prev",
)  # fmt: skip
#: What the players read of a GM's note.
_NOTE = {"text": "the GM writes a note", "changes": []}
#: The health words of every built-in game (the common ones, and a game's own: `FightRules.health_words`).
WORDS = tuple(
    dict.fromkeys(HEALTH_WORDS + tuple(w for s in registry.built_in().values() for w in rules_for(s).health_words))
)
#: What a map answer says about the attack placed (its range, the squares it covers, whom it reaches and the cover
#: lines from its attacker): left out of the map of a hidden attacker's attack.
_MAP_ATTACK = {
    "range": "", "range_type": "", "squares": [], "reached": [], "cover": {}, "placement": {}, "placement_fields": [],
}  # fmt: skip


class RenameBody(BaseModel):
    """PATCH /v1/encounters/{id}: the encounter's new name (the GM token)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=200)


class PlayersView:
    """The encounter as the players see it: `enc`'s hidden combatants (or those given) read as health words;
    `own`, the combatants whose every number the reader reads (a player's own)."""

    def __init__(self, enc: Encounter, hide: Iterable[str] | None = None, own: Iterable[str] = ()) -> None:
        self.enc = enc
        self.own = frozenset(own)
        self.gone_at = absent_at(enc.events)  # per event: who the players did not know of then
        self.absent = (self.gone_at[-1] if self.gone_at else frozenset()) - self.own
        self.hidden = (set(hidden(enc.events) if hide is None else hide) | self.absent) - self.own
        rules = enc.fight.rules
        self.health = rules.health
        reading = rules.readings.get(rules.health)
        self.maximum = reading.maximum if reading is not None else None
        self.start = starts(enc)  # a newcomer's: as it joined
        self.names = sorted(enc.fight.roster.names, key=len, reverse=True)
        self.sight = PlayersSight(enc)
        self.side_names = list(enc.events[0].get("sides", {})) if enc.events else []
        self.audience = Audience(
            secret=frozenset(self.hidden),
            absent=self.absent,
            own=self.own,
            health=rules.health,
            readings=rules.readings,
            names=tuple(enc.fight.roster.names),
            sides=_sides(enc.events),
            tops={name: self.top(name, stats) for name, stats in enc.state_json()["combatants"].items()},
            words=rules.health_words,
            named=rules.narrate_value,
            unseen_attack=rules.unseen_attack,
        )

    def top(self, name: str, stats: Mapping[str, Any]) -> int:
        """A combatant's top health: its maximum stat, else its starting health."""
        top = stats.get(self.maximum) if self.maximum else None
        if top is None:
            top = self.start.get(name, {}).get(self.health, stats.get(self.health, 0))
        return max(int(top), 1)

    def word(self, name: str, stats: Mapping[str, Any]) -> str:
        """A combatant's health word from its stats, in the game's words."""
        return health_word(int(stats.get(self.health, 0)), self.top(name, stats), self.audience.words)

    def row(self, row: Mapping[str, Any], gone: frozenset[str] | None = None, at: int = -1) -> dict[str, Any]:
        """A state row (`{"fight", "combatants"}`) with each hidden combatant's stats replaced by its word, and
        nobody's Damage dealt; none of those hidden entirely (now, or `gone`); no square of a combatant out of the
        party's sight after the event at place `at` (`PlayersSight.placed`)."""
        gone = self.absent if gone is None else gone
        combatants = {
            name: (
                {"health": self.word(name, stats)}
                if name in self.hidden or name in gone
                else {k: v for k, v in stats.items() if k not in UNTOLD}
            )
            for name, stats in self.sight.placed(row.get("combatants", {}), at).items()
            if name not in gone
        }
        return {**row, "combatants": combatants}

    def masked(self, gone: frozenset[str]) -> dict[str, str]:
        """Each side named after a combatant hidden entirely (`gone`: a side "Ogre" of an Ogre), as the players
        read it: "side N", N its place in the fight (docs/players.md, "Hidden entirely")."""
        found = {}
        for i, side in enumerate(self.side_names):
            if any(re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", side) for n in gone):
                found[side] = f"side {i + 1}"
        return found

    def renamed(self, text: str, masks: Mapping[str, str]) -> str:
        """`text` with each side's name of `masks` as the players read it (whole names only, the longest first:
        the side "Ogre" in "Ogre 2" is no side)."""
        if not masks:
            return text
        words = sorted({*self.names, *self.side_names}, key=len, reverse=True)
        pattern = "|".join(re.escape(w) for w in words)
        return re.sub(rf"(?<![\w])(?:{pattern})(?![\w])", lambda m: masks.get(m.group(0), m.group(0)), text)

    def present(self, names: Iterable[str]) -> list[str]:
        """`names` without those the players do not know of."""
        return [n for n in names if n not in self.absent]

    def known(self, names: Iterable[str], field: str) -> None:
        """A 422 naming `field` for a name the players do not know of, in the same words for one hidden entirely as
        for one the fight never had (so the answer tells nothing of an ambusher)."""
        roster = set(self.present(self.enc.fight.roster.names))
        for name in names:
            if name not in roster:
                raise ApiError(422, f"no combatant named {name!r} in the players' view", field)

    def summary(self, found: dict[str, Any]) -> dict[str, Any]:
        """GET /v1/encounters/{id} for the players: state and shown without hidden values (nor Damage dealt)."""
        shown = {
            k: [self.card(c) for c in v if c.get("stat") not in UNTOLD]
            for k, v in found.get("shown", {}).items()
            if k not in self.absent
        }
        reading = self.enc.fight.rules.readings.get(self.health)
        label = reading.label if reading is not None else self.enc.fight.rules.health_label
        state = found["state"]["combatants"]
        for name in self.hidden & set(shown):
            word = self.word(name, state[name])
            shown[name] = [{"stat": self.health, "label": label, "kind": "health", "text": word, "hidden": True}]
        found = {k: v for k, v in found.items() if k != "notes"}  # the GM's notes: never the players'
        standing = found.get("standing")
        masks = self.masked(self.absent)
        return {
            **found,
            "state": self.row(found["state"]),
            "shown": shown,
            "rows": [{**r, "side": masks.get(r["side"], r["side"])} for r in self.rows(found.get("rows", []))],
            "hidden": sorted((self.hidden - self.absent) & set(found["state"]["combatants"])),  # none that left
            "hidden_entirely": [],
            "durations": {k: v for k, v in found.get("durations", {}).items() if k not in self.hidden},
            "conditions": {k: v for k, v in found.get("conditions", {}).items() if k not in self.absent},
            "order": self.present(found.get("order", [])),
            "turn": None if found.get("turn") in self.absent else found.get("turn"),
            **({"standing": self.present(standing)} if isinstance(standing, list) else {}),
            **({"delay_after": self.present(found["delay_after"])} if "delay_after" in found else {}),
        }

    def card(self, card: Mapping[str, Any]) -> dict[str, Any]:
        """A card of `shown`; a reference to one hidden entirely names "someone" (a Distracted Link, by whom the
        players do not know)."""
        if card.get("kind") != "reference" or not self.absent:
            return dict(card)
        text, chips = str(card.get("text")), card["chips"]
        return {
            **card,
            "text": self.someone(text, self.absent),
            "chips": [self.someone(str(c), self.absent) for c in chips],
        }

    def someone(self, text: str, gone: Iterable[str]) -> str:
        """`text` with each name of `gone` (those the players do not know of) said "someone"."""
        names = [n for n in self.names if n in set(gone)]
        return re.sub("|".join(re.escape(n) + r"(?![\w])" for n in names), "someone", text) if names else text

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
        """The sheet for the players: no starting stats, attacks nor targets' counts of a hidden combatant."""
        combatants = [
            {**c, "start": {}, "attacks": [], "max_targets": [], "hidden": True} if c["name"] in self.hidden else c
            for c in found.get("combatants", [])
            if c["name"] not in self.absent
        ]
        hidden = sorted((self.hidden - self.absent) & {c["name"] for c in combatants})  # none that left
        masks = self.masked(self.absent)
        combatants = [{**c, "side": masks.get(c["side"], c["side"])} for c in self.sight.starts(combatants)]
        return {
            **found,
            "combatants": combatants,
            "hidden": hidden,
            "order": self.present(found.get("order", [])),
            "sides": [masks.get(side, side) for side in found.get("sides", [])],
        }

    def refuse(self, attacker: str, targets: Iterable[str] = ()) -> None:
        """A 403 naming the attacker (field `attacker`) or the targets (field `targets`) hidden from the players:
        what is computed from an attack on or by a hidden combatant reads its stats. A name the players do not know
        of is a 422 (`known`)."""
        self.known([attacker], "attacker")
        self.known(targets, "targets")
        self.sight.refuse(attacker, targets)
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
        """An error (a TohitError) whose message names a hidden combatant said again in words of its own, naming
        whom it concerns (its numbers, e.g. a fallen foe's "it is down (life 0)", are the GM's)."""
        try:
            yield
        except TohitError as e:
            found = [name for name in self.names if name in e.message and name in self.hidden]
            if not found:
                raise
            about = ", ".join(sorted(set(found) - self.absent)) or "a combatant"
            message = f"refused: the reason concerns {about}, hidden from the players (the GM token reads it)"
            raise type(e)(message, field=e.field, source=e.source) from None

    def preview(
        self, attacker: str, attack: str | None, targets: list[str], placement: str | None = None
    ) -> list[dict[str, Any]]:
        """The engine's preview for the players: refused for a hidden attacker or target named (before any odds
        are worked out), or one out of the party's sight; as far as the characters see: a creature the attack
        also reaches that they do not know of or do not see is left out, a hidden one is a row with its name only;
        the game's words of a row (`reach`, `move`, `moves_to`) that name a hidden creature or a square out of
        sight are left out (they measure from where it stands)."""
        self.refuse(attacker, targets)
        with self.said():
            rows = self.enc.preview(attacker, attack, targets, placement)
        unseen = set(self.sight.unseen(r["name"] for r in rows)) | self.absent
        return [
            {"name": r["name"], "hidden": True} if r["name"] in self.hidden else self._words(r, unseen)
            for r in rows
            if r["name"] not in unseen
        ]

    def _words(self, row: dict[str, Any], unseen: set[str]) -> dict[str, Any]:
        told = self.hidden | unseen
        said = {k for k in ("reach", "move") if isinstance(row.get(k), str)}
        said = {k for k in said if any(n in row[k] for n in told) or not self.sight.shows(row[k])}
        end = row.get("moves_to")
        if isinstance(end, list) and len(end) == 2 and not self.sight.shows(f"({end[0]}, {end[1]})"):
            said.add("moves_to")
        return {k: v for k, v in row.items() if k not in said}

    def dice(
        self, attacker: str, attack: str | None, targets: list[str], placement: str | None, faces: Any
    ) -> dict[str, Any]:
        """The dice route for the players: refused (403) for a hidden attacker or target named, or one out of the
        party's sight, for `dice` keyed by a hidden combatant (field `dice`; keyed by one hidden entirely: a 422 in
        the words of a name the fight never had, `known`), and for an attack that reaches a
        hidden creature in sight (an area's catch, a Multi's every foe: field `targets`), since the roles a target
        rolls and what its faces still need are read from its stats; a creature it reaches that the players do not
        know of or do not see is left out of `targets` (as far as the characters see: naming it, or refusing for
        it, would say it stands there)."""
        self.refuse(attacker, targets)
        if isinstance(faces, Mapping):
            self.known([k for k, v in faces.items() if isinstance(v, Mapping)], "dice")  # faces per target
            keyed = sorted(k for k in faces if k in self.hidden)
            if keyed:
                message = f"{', '.join(keyed)}: hidden from the players, only the GM token types dice for it"
                raise ApiError(403, message, "dice")
        with self.said():
            self.enc.check_targets(attacker, attack, targets)
            reached = self.enc.reached(attacker, attack, targets, placement) if not self.enc.over else targets
            unseen = set(self.sight.unseen(reached)) | self.absent
            caught = sorted(t for t in reached if t in self.hidden and t not in unseen)
            if caught:
                message = f"the attack reaches {', '.join(caught)}, hidden from the players: only the GM token reads it"
                raise ApiError(403, message, "targets")
            found = dice_answer(self.enc, attacker, attack, targets, placement, faces)
            return {**found, "targets": [t for t in found["targets"] if t not in unseen]}

    def aim(self, attacker: str) -> None:
        """Best aim for the players: refused while any combatant is hidden (a placement's score is the damage it
        does to every creature it reaches, read from their stats)."""
        self.refuse(attacker)
        if self.hidden:
            names = ", ".join(sorted(self.hidden - self.absent)) or "a creature the players do not see"
            message = f"best aim ranks by the damage done to hidden combatants ({names}): only the GM token asks it"
            raise ApiError(403, message, "attack")

    def map_view(self, attacker: str, attack: str | None, placement: dict[str, Any] | None) -> dict[str, Any]:
        """The map for the players: a hidden attacker's attack left out (the board and the creatures stay), its
        `placement` not even read (a placement refused, out of its range, would say what its range is)."""
        self.known([attacker], "attacker")
        concealed = attacker in self.hidden
        with self.said():
            found = map_view(self.enc, attacker, attack, None if concealed else placement)
        masks = self.masked(self.absent)
        found = {
            **found,
            "creatures": [
                {**c, "side": masks.get(c.get("side"), c.get("side"))}
                for c in found.get("creatures", [])
                if c.get("name") not in self.absent
            ],
            "reached": self.present(found.get("reached", [])),
            "cover": {k: v for k, v in found.get("cover", {}).items() if k not in self.absent},
        }
        return {**found, **_MAP_ATTACK} if concealed else found

    def event(self, event: Mapping[str, Any]) -> dict[str, Any] | None:
        """One event for the players, told in their words (core/fight/audience.py `told`): of an event about a
        hidden combatant, only what says who did what; None for one they would not notice (about nobody but those
        hidden entirely now or as it happened, or on one of them); a GM's note keeps only that one was written."""
        if event.get("kind") == "note":
            return {k: event[k] for k in ("kind", "n", "action", "prev") if k in event} | _NOTE
        n = int(event.get("n", -1))
        gone = ((self.gone_at[n] if 0 <= n < len(self.gone_at) else frozenset()) | self.absent) - self.own
        sight = self.sight.sighting(n)
        audience = replace(self.audience, secret=self.audience.secret | gone, absent=gone, sight=sight)
        rules = self.enc.fight.rules
        text = told(event, audience, rules.players_phrases, rules.players_same)
        if text is None:
            return None
        masks = self.masked(gone)
        out = {k: v for k, v in event.items() if k in _KEPT} if audience.told_again(event) else dict(event)
        out = self.sight.moved(out, event, sight, audience.secret)
        out.pop("hidden", None)  # the start's list of those hidden entirely
        for key in ("attacker", "target", "combatant", "turn"):
            if out.get(key) in gone:
                del out[key]
        out["text"] = self.renamed(text, masks)
        if event.get("kind") in FIGHT_WORDS:  # told to all: one they do not know of is "someone"
            out["text"] = self.someone(out["text"], gone)
        for key in ("side", "winner"):
            if isinstance(out.get(key), str):
                out[key] = masks.get(out[key], out[key])
        outcome = event.get("outcome")
        if "outcome" not in out and isinstance(outcome, Mapping) and "result" in outcome:
            out["result"] = outcome["result"]
        changes = [
            {"who": ch.get("who"), "stat": ch.get("stat")}
            if ch.get("who") in audience.secret or ch.get("stat") in UNTOLD
            else ch
            for ch in event.get("changes", [])
            if ch.get("who") not in gone
        ]
        out["changes"] = self.sight.changes(changes, sight)
        if isinstance(event.get("state"), Mapping):
            out["state"] = self.row(event["state"], gone, n)
        if isinstance(event.get("sides"), Mapping):
            out["sides"] = {
                masks.get(side, side): [m for m in members if m not in gone] for side, members in event["sides"].items()
            }
        if isinstance(out.get("winners"), list):  # the end's winning side: those the players know of
            out["winners"] = [m for m in out["winners"] if m not in gone]
        if event.get("kind") == "start":  # `tohit replay` refuses a players' export, by this mark
            out["told_to"] = PLAYERS
        return out

    def events(self, found: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The events the players notice, each in their words (`event`)."""
        return [told for told in (self.event(e) for e in found) if told is not None]


def _sides(events: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each combatant's side, from the start and the joins."""
    found: dict[str, str] = {}
    for e in events:
        if e.get("kind") == "start":
            found |= {n: side for side, members in e.get("sides", {}).items() for n in members}
        elif e.get("kind") == "join":
            found[str(e.get("combatant"))] = str(e.get("side"))
    return found
