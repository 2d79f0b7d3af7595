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
from tohit.core.fight.rows import take_at
from tohit.core.fight.state import BoolArray, IntArray, State

#: The per-combatant stat that holds each combatant's place in the round's order, where the fight keeps it.
TURN = "turn"
#: The most entries a table of kept orders holds (`KeptPlaces`): past it, the place-by-place search.
KEPT_TABLE_LIMIT = 1 << 20
#: The most keys an order's key can take (combatants ** combatants) for its offset to be read from a table of one entry
#: per key (`KeptPlaces.offsets`); past it (a fight of 7 or more), a binary search of the orders met.
KEYS_DIRECT = 1 << 16


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
    rows = np.empty(turn.shape, dtype=turn.dtype)  # C order (`empty_like` of a batch's one-row `turn` is not)
    np.put_along_axis(rows, turn, fight.combatant_columns(turn.shape[0]), axis=1)
    flat = rows + np.arange(turn.shape[0], dtype=np.int64)[:, None] * turn.shape[1]
    held.kept = (turn, rows, flat)  # one assignment
    return rows, flat


@dataclass
class OrderRows:
    """The inverse of the `turn` stat, kept while the `turn` array is the same object."""

    #: The `turn` array read, who acts at each place, and the same as flat indices.
    kept: tuple[IntArray, IntArray, IntArray] | None = None


@dataclass(frozen=True)
class NextPlaces:
    """For one or more orders of a fight of at most 8 combatants, at index (order * (combatants + 1) + cursor) * 256
    + able (bit c: combatant c able): the first place at or after the cursor whose combatant is able (0 when none),
    whether there is one, and who it is (the first place's combatant when none): `RoundRules._next_at`'s answer,
    read by one index a fight. The file's order is the one order of its table (`build`)."""

    slot: IntArray
    found: BoolArray
    who: IntArray
    #: `who` where there is a place, -1 where none (who acts: `_advance`'s answer).
    acting: IntArray

    @staticmethod
    def build(fight: LoadedFight) -> NextPlaces:
        """The table of the file's order."""
        return NextPlaces.of_orders(np.asarray([fight.file_order], dtype=np.int64))

    @staticmethod
    def of_orders(orders: IntArray) -> NextPlaces:
        """The table of `orders` (one row an order: who acts at each place), order by order."""
        count, size = orders.shape
        able = np.arange(256, dtype=np.int64)
        by_place = ((able[None, :, None] >> orders[:, None, :]) & 1).astype(bool)  # (orders, able, places)
        after = np.arange(size)[None, :] >= np.arange(size + 1)[:, None]  # (cursor, places): at or after the cursor
        cand = by_place[:, None, :, :] & after[None, :, None, :]  # (orders, cursor, able, places)
        slot = cand.argmax(axis=3).astype(np.int64)
        found = cand.any(axis=3)
        who = orders[np.arange(count)[:, None, None], slot]
        flat = (slot.reshape(-1), found.reshape(-1), who.reshape(-1))
        return NextPlaces(*flat, np.where(flat[1], flat[2], -1))


@dataclass
class KeptPlaces:
    """The `NextPlaces` of the kept orders (the `turn` stat) met in a fight's batches, and per fight of the batch its
    order's offset in that table, kept while the `turn` array is the same object."""

    #: Each order's key (its `turn` row read as a number, base combatants), sorted: its place in the table.
    keys: IntArray | None = None
    table: NextPlaces | None = None
    #: The `turn` array read and its fights' offsets (None: an order the table does not take).
    kept: tuple[IntArray, IntArray | None] | None = None
    #: Per key, its order's offset in the table, -1 for an order not met (while the keys are few: `KEYS_DIRECT`).
    offsets: IntArray | None = None


def kept_places(fight: LoadedFight, turn: IntArray) -> tuple[NextPlaces, IntArray] | None:
    """The table of the orders the fights of the batch keep (`turn`), and per fight its order's offset in it; None
    where a row of `turn` is not an order (a place twice) or the orders are too many for a table."""
    held = fight.memo("kept_places", KeptPlaces)
    found = held.kept
    if found is not None and found[0] is turn:
        return None if found[1] is None or held.table is None else (held.table, found[1])
    size = turn.shape[1]
    base = None
    if turn.size and int(turn.min()) >= 0 and int(turn.max()) < size:  # a row's key then names that row alone
        base = _offsets(held, order_keys(turn), turn)
    held.kept = (turn, base)
    return None if base is None or held.table is None else (held.table, base)


def order_keys(turn: IntArray) -> IntArray:
    """Each fight's `turn` row read as one number, base combatants (the first combatant's place the lowest digit):
    turn @ size ** arange(size), by columns (an integer `dot` is many times slower), in int64 whatever `turn` is held
    in (a batch's narrow int32: `state.narrow_dtype`)."""
    size = turn.shape[1]
    key = turn[:, size - 1].astype(np.int64)  # a copy, int64 whatever `turn` is: `key` is written in place
    for c in range(size - 2, -1, -1):
        key *= size
        key += turn[:, c]
    return key


def _offsets(held: KeptPlaces, keys: IntArray, turn: IntArray) -> IntArray | None:
    """Per fight, its order's offset in `held`'s table, the table grown by orders it has not met (None: see
    `kept_places`)."""
    size = turn.shape[1]
    stride = (size + 1) * 256
    if held.offsets is not None:  # one entry per key: a lookup, no search
        found = take_at(held.offsets, keys)
        if int(found.min()) >= 0:
            return found
    elif held.keys is not None and held.keys.size:
        at = np.minimum(np.searchsorted(held.keys, keys), held.keys.size - 1)
        if bool((held.keys.take(at) == keys).all()):
            return at * stride
    new, first = np.unique(keys, return_index=True)
    rows = turn[first]
    if not (np.sort(rows, axis=1) == np.arange(size)).all():
        return None
    known = held.keys if held.keys is not None else new[:0]
    every = np.union1d(known, new)
    if every.size * stride > KEPT_TABLE_LIMIT:
        return None
    places = (every[:, None] // size ** np.arange(size, dtype=np.int64)) % size  # each order's `turn` row
    orders = np.argsort(places, axis=1, kind="stable").astype(np.int64)
    held.keys, held.table = every, NextPlaces.of_orders(orders)
    if size**size <= KEYS_DIRECT:
        held.offsets = np.full(size**size, -1, dtype=np.int64)
        held.offsets[every] = np.arange(every.size, dtype=np.int64) * stride
        return take_at(held.offsets, keys)
    return np.searchsorted(every, keys) * stride
