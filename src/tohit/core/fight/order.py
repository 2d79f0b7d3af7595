"""The round's order of a fight, place by place (docs/fights.md, "The evening's tools": Delay).

A fight's round goes in the file's order, sides alternating, unless the fight keeps its order itself: then each
combatant's `turn` stat is its place in its fight's order. A fight keeps it where the game rolls it per fight (an
Initiative: `RoundRules.static_order` False), and in a live encounter of a game whose round goes in the file's order
and that lets a combatant delay there (`FightRules.keeps_order`): that order starts as the file's and changes only
when the game master delays a turn (engine/turn_delay.py). A fight the engine runs (a sample, an exact duel) keeps no
`turn` stat for such a game, so it runs as it always has.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import IntArray, State

#: The per-combatant stat that holds each combatant's place in the round's order, where the fight keeps it.
TURN = "turn"


def kept(state: State) -> bool:
    """Whether the fight keeps its round's order itself (the `turn` stat), rather than going in the file's."""
    return TURN in state.per


def live_start(fight: LoadedFight) -> list[int] | None:
    """The `turn` stat a live encounter of a game that keeps the file's order as its own starts with: per
    combatant its place in the file's order; None where the fight keeps none (module docstring)."""
    if not (fight.live and fight.rules.keeps_order):
        return None
    return file_places(fight)


def file_places(fight: LoadedFight) -> list[int]:
    """Per combatant, its place in the file's order, sides alternating."""
    return [fight.file_order.index(c) for c in range(fight.roster.size)]


def round_order(fight: LoadedFight, state: State) -> list[int]:
    """Fight 0's round order (combatant numbers, place by place): by the `turn` stat where the fight keeps it,
    else the file's order, sides alternating."""
    if not kept(state):
        return list(fight.file_order)
    row = [int(p) for p in state.per[TURN][0]]
    return sorted(range(len(row)), key=lambda c: (row[c], c))


def order_rows(fight: LoadedFight, turn: IntArray) -> IntArray:
    """(fights, places): who acts at each place of each fight's order (the inverse of the `turn` stat). Kept
    while the `turn` array is the same object: an event that changes it makes a new one."""
    return order_places(fight, turn)[0]


def order_places(fight: LoadedFight, turn: IntArray) -> tuple[IntArray, IntArray]:
    """`order_rows`, and the same as flat indices into a (fights, combatants) array (row i's entries offset by i *
    combatants), kept together while the `turn` array is the same object."""
    held = fight.memo("order_rows", OrderRows)
    found = held.kept  # one read: the old order or the new one, whole
    if found is not None and found[0] is turn:
        return found[1], found[2]
    rows = np.empty_like(turn)
    np.put_along_axis(rows, turn, fight.combatant_columns(turn.shape[0]), axis=1)
    flat = rows + np.arange(turn.shape[0], dtype=np.int64)[:, None] * turn.shape[1]
    held.kept = (turn, rows, flat)  # one assignment
    return rows, flat


@dataclass
class OrderRows:
    """The inverse of the `turn` stat, kept while the `turn` array is the same object."""

    #: The `turn` array read, who acts at each place, and the same as flat indices.
    kept: tuple[IntArray, IntArray, IntArray] | None = None
