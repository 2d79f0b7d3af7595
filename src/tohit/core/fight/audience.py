"""Who reads an event, and the words each audience is told (docs/players.md, "Events are data, told to
each audience").

An event is stored as data: its kind, who acted (`attacker`, `combatant`), on whom (`target`), with what
(`attack`), the outcome, the dice, the changes (whose stat, from, to) and the rule cited. Its `text` is the game
master's words, written by the game as it plays. The players' words are written here, from that data, for an
`Audience`: the combatants whose numbers it does not read (`secret`: the players learn a health word and what a
person at the table sees), those it does not know of (`absent`: hidden entirely) and those whose every number
it reads (`own`: a player's own character). Nothing is masked after the fact: an event about nobody kept from the
audience reads in the game's own words; one about somebody kept from it is told again from its data, by the
game's phrase for its kind (`FightRules.players_phrases`) or the common one here.

Damage dealt (the `dealt` tally) is never told to the players: it sums the foes' losses, a hidden foe's too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tohit.core.fight import gm_words
from tohit.core.fight.readings import StatReading, label_of, reading_of, stat_text

#: The health words, from unhurt to down (docs/players.md): a game with its own words gives its own.
HEALTH_WORDS = ("unhurt", "wounded", "bloodied", "down")
#: Stats the players never read, of anyone: Damage dealt sums the foes' losses.
UNTOLD = frozenset({"dealt"})
#: Kinds whose words hold no number of a combatant (who joined, left, whose turn, the round, the order): told to
#: the players as the game wrote them.
SAME_WORDS = frozenset(
    {"turn", "round", "join", "leave", "undo", "start", "end", "stalemate", "unfinished", "initiative"}
    | {"end_turn", "door", "round_limit"}
)
#: Kinds about the whole fight (it starts, a round, it ends): told to every audience, a side's name or a
#: combatant it does not know of in their words said as it knows them (server/players_view.py).
FIGHT_WORDS = frozenset({"start", "round", "end", "stalemate", "unfinished"})

#: What the players notice of an attack by a combatant they do not know of (hidden entirely), before its result:
#: the common words; a game gives its own (`FightRules.unseen_attack`). `{verb}`: "attacks", "counterattacks"...
UNSEEN_ATTACK = "something {verb} {target} from the dark"

#: A phrase: the players' words for one event, from its data (None: an event they would not notice).
Phrase = Callable[[Mapping[str, Any], "Audience"], str | None]
#: A square as an event's words name it: "(3, 4)", or "(3,4)" in a cover line.
SQUARE = re.compile(r"\((\d+), ?(\d+)\)")


def health_word(value: int, top: int, words: Sequence[str] = HEALTH_WORDS) -> str:
    """Health in words: down at 0 or less, unhurt at its top, bloodied at half or less, else wounded."""
    unhurt, wounded, bloodied, down = words
    if value <= 0:
        return down
    if value >= top:
        return unhurt
    return bloodied if 2 * value <= top else wounded


@dataclass(frozen=True)
class Sighting:
    """Where the audience's eyes reach around one event, on a map (docs/maps.md, "Vision"; docs/players.md, "Out
    of sight"): the combatants standing in its sight before and after the event, and whether a square (x, y) is
    seen before or after it. Where a creature stands is told only while its square is seen."""

    before: frozenset[str]
    after: frozenset[str]
    square: Callable[[int, int], bool]

    def shows(self, text: str) -> bool:
        """Whether every square `text` names is seen (before or after the event)."""
        return all(self.square(int(x), int(y)) for x, y in SQUARE.findall(text))


@dataclass(frozen=True)
class Audience:
    """Who reads: see the module docstring. `tops`: each combatant's top health (its health word's measure)."""

    secret: frozenset[str] = frozenset()
    absent: frozenset[str] = frozenset()
    own: frozenset[str] = frozenset()
    health: str = ""
    readings: Mapping[str, StatReading] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    sides: Mapping[str, str] = field(default_factory=dict)
    tops: Mapping[str, int] = field(default_factory=dict)
    words: tuple[str, str, str, str] = HEALTH_WORDS
    #: The game's names of a named condition's value (`FightRules.narrate_value`).
    named: Callable[[str, int], Any] | None = None
    #: The words of an attack by a combatant it does not know of (`UNSEEN_ATTACK`; the game's own).
    unseen_attack: str = UNSEEN_ATTACK
    #: Its sight around the event told, on a map (None: no map, every square told).
    sight: Sighting | None = None

    def unseen(self, name: object) -> bool:
        """Whether the audience does not read `name`'s numbers."""
        return isinstance(name, str) and name not in self.own and (name in self.secret or name in self.absent)

    def gone(self, name: object) -> bool:
        """Whether the audience does not know of `name` at all."""
        return isinstance(name, str) and name not in self.own and name in self.absent

    def called(self, name: object) -> str:
        """How the audience calls `name`: "someone" when it does not know of it (hidden entirely)."""
        return "someone" if self.gone(name) else str(name)

    def word(self, name: str, value: int) -> str:
        return health_word(value, max(int(self.tops.get(name, value)), 1), self.words)

    def about(self, event: Mapping[str, Any]) -> list[str]:
        """Whom an event is about: its actor, its target, its combatant(s), whose stats it changes, in order."""
        found = [event.get(k) for k in ("attacker", "target", "combatant")]
        found += [ch.get("who") for ch in event.get("changes", []) if ch.get("stat") not in UNTOLD]
        found += [part.get("combatant") for part in event.get("each") or [] if isinstance(part, Mapping)]
        text = str(event.get("text") or "")
        if self.names:  # each name as a whole, the longest first ("Orc chief" is no "Orc")
            pattern = "|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True))
            found += re.findall(rf"(?<![\w])(?:{pattern})(?![\w])", text)
        return list(dict.fromkeys(n for n in found if isinstance(n, str)))

    def touches(self, event: Mapping[str, Any]) -> bool:
        return any(self.unseen(n) for n in self.about(event))

    def out_of_sight(self, event: Mapping[str, Any]) -> bool:
        """Whether the event's words (its text, its trace's) name a square the audience does not see (before or
        after the event)."""
        if self.sight is None:
            return False
        trace = [str(t.get("text")) for t in event.get("trace") or [] if isinstance(t, Mapping)]
        return not all(self.sight.shows(words) for words in (str(event.get("text") or ""), *trace))

    def told_again(self, event: Mapping[str, Any]) -> bool:
        """Whether the event is told again from its data: it touches a combatant kept from the audience, or its
        words say where a creature out of its sight stands."""
        return self.touches(event) or self.out_of_sight(event)

    def label(self, stat: str) -> str:
        return label_of(self.readings, stat)

    def value(self, stat: str, value: int) -> str:
        names = tuple("someone" if self.gone(n) else n for n in self.names)  # a reference to one it does not know
        return stat_text(self.readings, stat, value, names, None, self.named)


def change_said(ch: Mapping[str, Any], audience: Audience) -> str | None:
    """One change in the audience's words: every number of a combatant it reads ("Ceil's LP: 12 -> 9"); of one it
    does not, the health word it moves to, or what a person at the table sees (a condition, a reference, a flag)
    and only whether a number rose or fell; nothing of an internal stat or of Damage dealt."""
    who, stat, was, now = ch.get("who"), str(ch.get("stat")), ch.get("from"), ch.get("to")
    reading = reading_of(audience.readings, stat)
    if who is None or stat in UNTOLD or was is None or now is None or was == now or audience.gone(who):
        return None
    if reading is not None and reading.kind == "internal":
        return None
    if not audience.unseen(who):
        return f"{who}'s {audience.label(stat)}: {audience.value(stat, was)} -> {audience.value(stat, now)}"
    if stat == audience.health:
        before, after = audience.word(who, was), audience.word(who, now)
        if before != after:
            return f"{who} is {after}"
        return f"{who} is hurt" if now < was else f"{who} recovers"
    if reading is not None and reading.kind == "condition" and not reading.named:
        return f"{who}: {audience.label(stat)}" if now else f"{who}: no longer {audience.label(stat)}"
    if reading is not None and reading.kind == "condition":  # a named set's values may be levels: not said
        return f"{who}'s {audience.label(stat)} change"
    if reading is not None and reading.kind in ("reference", "flag"):
        return f"{who}'s {audience.label(stat)}: {audience.value(stat, now)}"
    return f"{who}'s {audience.label(stat)} {'falls' if now < was else 'rises'}"


def changes_said(event: Mapping[str, Any], audience: Audience) -> str:
    """An event told from its changes (`change_said`), or, where none reads to the audience, whom it is about."""
    said = [s for s in (change_said(ch, audience) for ch in event.get("changes", [])) if s]
    if said:
        return "; ".join(dict.fromkeys(said))
    who = [n for n in audience.about(event) if not audience.gone(n)] or ["someone"]
    return f"{', '.join(who)}: {str(event.get('kind', '')).replace('_', ' ')}"


def attack_said(event: Mapping[str, Any], audience: Audience, verb: str = "attacks") -> str:
    """ "<attacker> attacks <target> with <attack>: <result>", and the damage when the audience reads the target's
    numbers; an attacker it does not know of is "something" ("something attacks Ceil: hit, 7 damage")."""
    attacker, target, outcome = event.get("attacker"), event.get("target"), event.get("outcome")
    result = outcome.get("result") if isinstance(outcome, Mapping) else None
    damage = outcome.get("damage") if isinstance(outcome, Mapping) else None
    head = (
        audience.unseen_attack.format(verb=verb, target=target)
        if audience.gone(attacker)
        else f"{attacker} {verb} {target} with {event.get('attack')}"
    )
    tail = f": {result}" if result is not None else ""
    if tail and isinstance(damage, int) and damage > 0 and not audience.unseen(target):
        tail += f", {damage:,} damage"
    return head + tail


def by_hand_said(event: Mapping[str, Any], audience: Audience) -> str:
    """The GM's adjust or condition, told from its changes, "(by the GM)"; one on several (`each`) told part by
    part: a part about nobody kept from the audience in the game's words, the others from their changes."""
    parts = event.get("each")
    if not isinstance(parts, list):
        said = [s for s in (change_said(ch, audience) for ch in event.get("changes", [])) if s]
        if not said and event.get("label") and not audience.gone(event.get("combatant")):  # an adjust by 0
            return f"{event.get('combatant')}'s {event.get('label')} stays (by the GM)"
        return f"{changes_said(event, audience)} (by the GM)"
    said = []
    for part in parts:
        who, text = part.get("combatant"), str(part.get("text") or "")
        if audience.touches({"combatant": who, "text": text}):
            mine = [ch for ch in event.get("changes", []) if ch.get("who") == who]
            one = {"kind": event.get("kind"), "combatant": who, "changes": mine}
            text = PHRASES.get(str(event.get("kind")), by_hand_said)(one | _condition_of(part), audience) or ""
        if text:
            said.append(text)
    return "; ".join(said)


def move_said(event: Mapping[str, Any], audience: Audience) -> str | None:
    """A move (the game's, or the GM's) for the audience. Off a map's sight, or with the mover seen where it
    starts and where it ends: the game's words, where they name no square out of sight, no creature out of sight
    (it moves toward one) and nobody kept from the audience (its Movement); else "X moves to (x, y)". On a map,
    a mover seen only where it starts "moves out of sight", one seen only where it ends "comes into sight at (x,
    y)", and a move wholly out of sight is not told (None)."""
    text = str(event.get("text") or "")
    ends = {ch.get("stat"): ch for ch in event.get("changes", []) if ch.get("stat") in ("x", "y")}
    mover = ends["x"].get("who") if "x" in ends else ends["y"].get("who") if "y" in ends else event.get("combatant")
    end = event.get("to")
    if "x" in ends and "y" in ends:
        end = [ends["x"].get("to"), ends["y"].get("to")]
    square = f"({end[0]}, {end[1]})" if isinstance(end, list) and len(end) == 2 else None
    sight = audience.sight
    if not isinstance(mover, str):
        return text if sight is None or sight.shows(text) else "something moves"
    if sight is not None and mover not in sight.before | sight.after:
        return None
    if sight is not None and mover not in sight.after:
        return f"{mover} moves out of sight"
    if sight is not None and mover not in sight.before:
        return f"{mover} comes into sight at {square}" if square else f"{mover} comes into sight"
    unseen = [n for n in audience.about({"text": text}) if sight is not None and n not in sight.before | sight.after]
    if not audience.told_again(event) and not unseen:
        return text
    return f"{mover} moves to {square}" if square else f"{mover} moves"


def of_the_kept(phrase: Callable[[Mapping[str, Any], Audience, str], str]) -> Phrase:
    """A game's phrase for an event about one combatant (its `combatant`), told by `phrase` (given that name) only
    where the audience does not read that combatant's numbers: else in the game's own words (`text`). An event
    stored before it carried its data (no `combatant`) is told from its changes where it is about somebody kept
    from the audience, as a kind without a phrase is."""

    def told(event: Mapping[str, Any], audience: Audience) -> str:
        name = event.get("combatant")
        if name is not None and audience.unseen(name):
            return phrase(event, audience, str(name))
        if name is None and audience.touches(event):
            return changes_said(event, audience)
        return str(event.get("text") or "")

    told.__doc__ = phrase.__doc__
    return told


def _condition_of(part: Mapping[str, Any]) -> dict[str, Any]:
    return {k: part[k] for k in ("condition", "on") if k in part}


def condition_said(event: Mapping[str, Any], audience: Audience) -> str:
    """The GM's condition on a combatant the audience does not read: the condition by its rulebook word, as the
    table sees it ("Ogre: Petrified (by the GM)"; "... no longer Flat-Footed (its duration ends)" when its duration
    runs out), then what the rules made of it, from its changes; on several, part by part (`by_hand_said`)."""
    who, word, changes = event.get("combatant"), event.get("condition"), list(event.get("changes", []))
    if isinstance(event.get("each"), list) or not word or not audience.unseen(who):
        return by_hand_said(event, audience)
    rest = changes[1:] if changes and changes[0].get("who") == who else changes  # the first: the condition's own
    said = [s for s in (change_said(ch, audience) for ch in rest) if s]
    head = f"{who}: {word}" if event.get("on") else f"{who}: no longer {word}"
    tail = " (its duration ends)" if "expires" in event else " (by the GM)"
    return "; ".join(dict.fromkeys([head, *said])) + tail


def dice_said(event: Mapping[str, Any], audience: Audience) -> str:
    """The GM's roll, where its label names a combatant the audience does not read: that the GM rolls, and for
    what, never the dice or the total."""
    label = event.get("label")
    return f"the GM rolls for {label}" if label else "the GM rolls"


def delay_said(event: Mapping[str, Any], audience: Audience) -> str:
    """A delayed turn in the game master's words, without those the audience does not know of: "someone" for
    the one it now acts after, and the order of the others. (An event stored before delays carried their order is
    told from its changes.)"""
    if "order" not in event:
        return changes_said(event, audience)
    order = [n for n in event.get("order", ()) if not audience.gone(n)]
    after = "someone" if audience.gone(event.get("after")) else event.get("after")
    return gm_words.delay({**event, "after": after, "order": order})


def duration_said(event: Mapping[str, Any], audience: Audience) -> str:
    """A condition's duration counted, in the game master's words (a timer the table hears), "someone" for whose
    turn counts it where the audience does not know of that one. (One stored before counts carried their moment
    is told from its changes.)"""
    if event.get("until") not in gm_words.MOMENT:
        return changes_said(event, audience)
    return gm_words.duration({**event, "of": "someone"} if audience.gone(event.get("of")) else event)


def reveal_said(event: Mapping[str, Any], audience: Audience) -> str:
    """The GM's reveal, as the players see it: a combatant comes into sight, or its numbers are shown or kept."""
    who = event.get("combatant")
    if event.get("brought_in"):
        return f"{who} comes into sight"
    return f"{who} is shown to the players" if event.get("to_players") else f"{who}'s numbers are kept from the players"


#: The common phrases of the kinds every game has (the engine's: core/fight/gm_words.py words them for the GM).
PHRASES: Mapping[str, Phrase] = {
    "attack": attack_said,
    "counter": lambda event, audience: attack_said(event, audience, "counterattacks"),
    "stand_fast": attack_said,
    "adjust": by_hand_said,
    "condition": condition_said,
    "dice": dice_said,
    "delay": delay_said,
    "duration": duration_said,
    "reveal": reveal_said,
}


def told(
    event: Mapping[str, Any], audience: Audience, phrases: Mapping[str, Phrase] = {}, same: frozenset[str] = frozenset()
) -> str | None:
    """The audience's words for `event`: None for an event about nobody but combatants it does not know of, or on
    one of them (it would not notice it); the game's (`text`) where it is about nobody kept from the audience and
    the game has no phrase of its kind, else its kind's phrase (the game's, else the common one), else its changes
    told (`changes_said`)."""
    kind = str(event.get("kind", ""))
    text = str(event.get("text") or "")
    about = audience.about(event)
    gone = (about and all(audience.gone(n) for n in about)) or audience.gone(event.get("target"))
    if gone and kind not in FIGHT_WORDS:
        return None
    if kind in phrases:
        return phrases[kind](event, audience)
    if kind == "move":
        return move_said(event, audience)
    if not audience.out_of_sight(event) and (kind in SAME_WORDS | same or not audience.touches(event)):
        return text
    return PHRASES.get(kind, changes_said)(event, audience)
