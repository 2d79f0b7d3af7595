"""The game master's words for the kinds of event every game has (docs/players.md, "Events are data, told to
each audience"): the engine's own events (a turn, a round, the GM's hand, a join, a door, an undo...), each
written from the event's data alone. A game words its own kinds in its package (`FightRules.gm_phrases`), and may
word a common kind its own way there too: its table is read first (`core/fight/words.gm_told`).

The details each kind's phrase reads (besides `changes`):

- `start`: `sides` (side name -> its combatants, in order). `stalemate`: `depth` where only open-ended dice past
  the depth could end it. `end`: `winner` (a side's name, None: a draw), `winners` (its combatants), `rounds`,
  `still_fighting` (a draw past `max_rounds`). `round_limit`: `max_rounds`.
- `attack`, `counter` (any kind a game resolves): `attacker`, `target`, `attack`, `note` (the game's words after the
  attack's name), `outcome` (`result`, `damage`), `zero_damage_told` (a hit of 0 the game says: "hit, 0 damage").
- The GM's hand: `adjust` (`combatant`, `label`: the stat in the game's words, `was` and `now`: its values as the
  game reads them, `by`, `stops_at`, `maximum`), `condition` (`combatant`, `condition`, `on`, `expires` with
  `until` and `of`), each with `follows` (what the rules made of it: `who`, `label`, `was`, `now`, `clause`) and, on
  several at once, `each` (per combatant, its words); `dice` (`label`, `expression`, `total`, `faces`); `note`
  (`combatant`, `note`); `duration` (`combatant`, `condition`, `left`, `until`, `of`).
- `turn` (the round's order: `combatant`, `round`), `round` (`round`: its number).
- `unfinished` (a log exported before the end): `round`, `turn`.
- The encounter: `move` (the GM's free move, `free`: `combatant`, `from`, `to`; a game words its own moves),
  `end_turn` (`combatant`, when a turn ended), each with `player` when a player's link played it; `undo`
  (`undoes`, `last`: the first and last events taken back); `delay` (`combatant`, `after`, `order`); `join`
  (`combatant`, `side`); `leave` (`combatant`); `door` (`door`: its number from 0, `doors`: how many, `closed`);
  `hide` (`combatant`); `reveal` (`combatant`, `to_players`, `brought_in`: it was hidden entirely).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.state import side_wins
from tohit.core.fight.words import GmPhrase, gm_told

#: A fight nobody can end any more (the stalemate check's answer "never").
STALEMATE_TEXT = "nobody can harm anybody any more (the exact chain from here never ends): a draw"
#: ... and a fight only open-ended dice past the depth could end (the answer "depth").
DEPTH_STALEMATE_TEXT = (
    "nobody can harm anybody any more unless open-ended dice go past depth {depth} (the exact chain from here"
    " ends only beyond the depth; options.depth follows them further): a draw"
)
#: The words of each moment of a turn a duration counts at.
MOMENT = {"start_of_turn": "the start", "end_of_turn": "the end"}


def rounds_words(n: int) -> str:
    """ "1 round", "2 rounds"."""
    return f"{n} round{'s' if n != 1 else ''}"


def by_whom(event: Mapping[str, Any]) -> str:
    """Who did it: the GM, or the player whose link played it (`player`)."""
    player = event.get("player")
    return f"{player}'s player" if player else "the GM"


def start(event: Mapping[str, Any]) -> str:
    return f"{' vs '.join(event.get('sides', {}))}: round 1"


def stalemate(event: Mapping[str, Any]) -> str:
    depth = event.get("depth")
    return STALEMATE_TEXT if depth is None else DEPTH_STALEMATE_TEXT.format(depth=depth)


def end(event: Mapping[str, Any]) -> str:
    """ "Heroes win after 3 rounds", "a draw (still fighting after round 10) after 10 rounds"."""
    winner, rounds = event.get("winner"), int(event.get("rounds", 0))
    text = "a draw" if winner is None else side_wins(str(winner), len(event.get("winners", ())))
    if event.get("still_fighting"):
        text += f" (still fighting after round {rounds})"
    return f"{text} after {rounds_words(rounds)}"


def round_limit(event: Mapping[str, Any]) -> str:
    return f"round {event.get('max_rounds')} is over and the fight goes on: max_rounds reached"


def resolved(event: Mapping[str, Any]) -> str:
    """An attack's line: "Ceil attacks Bandit with long sword (a note): hit, 7 damage"."""
    outcome = event.get("outcome") or {}
    verb = "counterattacks" if event.get("kind") == "counter" else "attacks"
    text = f"{event.get('attacker')} {verb} {event.get('target')} with {event.get('attack')}{event.get('note', '')}"
    text += f": {outcome.get('result')}"
    if outcome.get("damage") or event.get("zero_damage_told"):
        text += f", {outcome['damage']} damage"
    return text


def follows_words(event: Mapping[str, Any]) -> list[str]:
    """What the rules made of the GM's change, each with its clause."""
    return [f"{f['who']}'s {f['label']}: {f['was']} -> {f['now']} [{f['clause']}]" for f in event.get("follows", [])]


def by_hand(event: Mapping[str, Any], head: str) -> str:
    """The GM's change (`head`) and what the rules made of it; on several at once, each one's words."""
    parts = event.get("each")
    if isinstance(parts, list):
        return "; ".join(str(part.get("text", "")) for part in parts)
    return "; ".join([head, *follows_words(event)])


def adjust(event: Mapping[str, Any]) -> str:
    """ "Ceil's LP: 12 -> 14 (+2 by the GM)", "... (-9 by the GM, stops at 0)", "... (set by the GM)"."""
    by, stops = event.get("by"), event.get("stops_at")
    how = "set by the GM" if by is None else f"{by:+,} by the GM"
    if stops is not None:
        how += f", stops at {stops:,}" + (" (its maximum)" if event.get("maximum") else "")
    who = event.get("combatant")
    return by_hand(event, f"{who}'s {event.get('label')}: {event.get('was')} -> {event.get('now')} ({how})")


def condition(event: Mapping[str, Any]) -> str:
    """ "Ceil is Prone (set by the GM)", "... no longer Prone (cleared by the GM)", or its duration's end."""
    who, name = event.get("combatant"), event.get("condition")
    if "expires" in event:
        head = f"{who} is no longer {name} (its duration ends at {MOMENT[str(event['until'])]} of {event['of']}'s turn)"
    elif event.get("on"):
        head = f"{who} is {name} (set by the GM)"
    else:
        head = f"{who} is no longer {name} (cleared by the GM)"
    return by_hand(event, head)


def dice(event: Mapping[str, Any]) -> str:
    """ "morale: 2d6+1 = 10 (4, 5)"."""
    label, faces = event.get("label"), event.get("faces") or []
    shown = f"{label}: " if label else ""
    return f"{shown}{event.get('expression')} = {event.get('total', 0):,}" + (
        f" ({', '.join(map(str, faces))})" if faces else ""
    )


def note(event: Mapping[str, Any]) -> str:
    who, text = event.get("combatant"), event.get("note")
    return f"GM's note on {who}: {text}" if text else f"GM's note on {who} cleared"


def duration(event: Mapping[str, Any]) -> str:
    """ "Ceil's Prone: 1 round left (counted at the end of Ceil's turn)"."""
    counted = f"at {MOMENT[str(event.get('until'))]} of {event.get('of')}'s turn"
    return f"{event.get('combatant')}'s {event.get('condition')}: {rounds_words(int(event.get('left', 0)))} left " + (
        f"(counted {counted})"
    )


def move(event: Mapping[str, Any]) -> str:
    """The GM's free move (or a player's): "Link moves from (2, 1) to (2, 0) (moved by the GM)". A game that words
    its own moves (kind `move`) hands a free one (`free`) to this phrase."""
    where, to = tuple(event.get("from", ())), tuple(event.get("to", ()))
    return f"{event.get('combatant')} moves from {where} to {to} (moved by {by_whom(event)})"


def end_turn(event: Mapping[str, Any]) -> str:
    who = event.get("combatant")
    whose = f"{who}'s turn" if who else "the turn"
    return f"{whose} ends ({by_whom(event)} moves on)"


def undo(event: Mapping[str, Any]) -> str:
    return f"undo: events {event.get('undoes')} to {event.get('last')} taken back"


def delay(event: Mapping[str, Any]) -> str:
    order = ", ".join(event.get("order", ()))
    return f"{event.get('combatant')} delays: acts after {event.get('after')} this round (the order: {order})"


def unfinished(event: Mapping[str, Any]) -> str:
    """The close of a log exported before the fight's end: "unfinished: round 3, Ceil's turn"."""
    round_, turn = event.get("round"), event.get("turn")
    where = ", ".join(([] if round_ is None else [f"round {round_:,}"]) + ([] if turn is None else [f"{turn}'s turn"]))
    return f"unfinished: {where}" if where else "unfinished"


def join(event: Mapping[str, Any]) -> str:
    return f"{event.get('combatant')} joins {event.get('side')}"


def leave(event: Mapping[str, Any]) -> str:
    return f"{event.get('combatant')} leaves the fight"


def door(event: Mapping[str, Any]) -> str:
    how = "closes" if event.get("closed") else "opens"
    return f"the GM {how} door {int(event.get('door', 0)) + 1} of {event.get('doors')}"


def hide(event: Mapping[str, Any]) -> str:
    return f"{event.get('combatant')} is hidden entirely from the players"


def reveal(event: Mapping[str, Any]) -> str:
    who, shown = event.get("combatant"), bool(event.get("to_players"))
    if event.get("brought_in"):
        return f"{who} comes into the players' sight" + ("" if shown else " (its numbers kept from them)")
    return f"{who} is shown to the players" if shown else f"{who} is hidden from the players"


#: The common phrases, by kind. `stand_fast` is a game's roll the engine resolves and words as an attack.
def turn(event: Mapping[str, Any]) -> str:
    """A turn in the round's order: "Ceil's turn (round 2)" (nothing where no one takes it)."""
    who = event.get("combatant")
    return f"{who}'s turn (round {event.get('round')})" if who is not None else ""


def new_round(event: Mapping[str, Any]) -> str:
    """A new round: "Round 2"."""
    return f"Round {event.get('round')}"


GM_PHRASES: Mapping[str, GmPhrase] = {
    "start": start,
    "turn": turn,
    "round": new_round,
    "stalemate": stalemate,
    "end": end,
    "round_limit": round_limit,
    "attack": resolved,
    "counter": resolved,
    "stand_fast": resolved,
    "adjust": adjust,
    "condition": condition,
    "dice": dice,
    "note": note,
    "duration": duration,
    "move": move,
    "end_turn": end_turn,
    "undo": undo,
    "delay": delay,
    "unfinished": unfinished,
    "join": join,
    "leave": leave,
    "door": door,
    "hide": hide,
    "reveal": reveal,
}


def written(event: dict[str, Any], *phrases: Mapping[str, GmPhrase]) -> dict[str, Any]:
    """`event` with its `text` written from its data (the game's `phrases` first, then the common ones): for an
    event made outside a fight step (a join, a leave, a delay, the start)."""
    event["text"] = gm_told(event, *phrases, GM_PHRASES)
    return event
