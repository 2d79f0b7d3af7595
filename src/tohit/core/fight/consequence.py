"""An outcome's consequences, itemised (docs/architecture.md, "Outcomes are data, state changes are events"): a
game's `consequences.apply` is the one place where damage, Shell, Peril, AP, guard, durability and statuses
change, a pure function returning an itemised list of what changed and why.

A game's `consequences.apply(before, outcome)` takes the stats an attack may change, one row per attack (the
values before it), and the attack's resolved outcome columns, and returns `Item`s: each sets one stat of the
defender or of the attacker of some of those rows to new values, under the event kind the fight emits it as.
Nothing here knows a fight: the fight maps an item's rows back to its own rows and combatants (`changes`) and
words it (narration stays in the game's narrate.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tohit.core.fight.state import NARROW, BoolArray, Change, IntArray, change, change_at, every_row

#: Whose stat an item changes: the attack's target, the one who made it, or another combatant (`Item.combatant`:
#: a third party, such as one who lets go of a grappled foe that falls).
DEFENDER, ATTACKER, OTHER = "defender", "attacker", "other"


@dataclass(frozen=True)
class Item:
    """Set `stat` of `whose` (DEFENDER, ATTACKER, or OTHER: combatant `combatant`) to `to` at `rows` (increasing
    positions in the rows given to `apply`), as part of the event `kind` (its `part`: consecutive items of one kind
    and part are one event), by the rule `clause`. An item may have no rows: its event still happens (a narrated
    fight words it)."""

    kind: str
    stat: str
    rows: IntArray
    to: IntArray
    whose: str = DEFENDER
    clause: str = ""
    combatant: int = -1
    part: int = 0


def item(
    kind: str,
    stat: str,
    rows: Any,
    to: Any,
    whose: str = DEFENDER,
    clause: str = "",
    combatant: int = -1,
    part: int = 0,
) -> Item:
    """An Item from array-likes; `to` broadcasts to the rows: one value for every row as a read-only view of it
    (not an array of copies; the state writes it as one value), and values worked from a batch's narrow stats
    (`state.narrow_dtype`) kept as int32 (the stat they are written to holds them as they are, with no cast there
    and back)."""
    r = np.asarray(rows, dtype=np.int64).reshape(-1)
    values = np.asarray(to)
    if values.dtype != np.int64 and values.dtype != NARROW:
        values = values.astype(np.int64)
    if values.shape != r.shape:
        values = np.broadcast_to(values, r.shape)
    return Item(kind, stat, r, values, whose, clause, combatant, part)


def of_combatant(items: Iterable[Item], combatant: int) -> tuple[Item, ...]:
    """The items of one row as changes of `combatant` (a game master's hand: `FightRules.by_hand`): each DEFENDER
    item becomes an OTHER item of that combatant; an OTHER item stays as it is."""
    return tuple(
        it if it.whose == OTHER else Item(it.kind, it.stat, it.rows, it.to, OTHER, it.clause, combatant, it.part)
        for it in items
    )


def positions(mask: BoolArray) -> tuple[IntArray, Callable[[Any], Any]]:
    """(the positions where `mask` holds, a function taking an array's entries at them). The fight usually gives
    `apply` only the rows that act, so the positions are every row: the arrays are then used as they are, not
    copied (`take` otherwise: faster than fancy indexing)."""
    rows = np.flatnonzero(mask)
    if rows.size == mask.size:
        return rows, _same
    return rows, lambda x: np.take(x, rows, axis=0)


def _same(x: Any) -> Any:
    return x


def of_kind(items: Iterable[Item], kind: str) -> tuple[Item, ...]:
    """The items of one event kind, in order, leaving out those of no rows."""
    return tuple(it for it in items if it.kind == kind and it.rows.size)


def events(items: Iterable[Item]) -> list[tuple[str, tuple[Item, ...]]]:
    """The items as events: runs of items of one kind and part, in order."""
    out: list[tuple[str, tuple[Item, ...]]] = []
    for it in items:
        if out and out[-1][0] == it.kind and out[-1][1][-1].part == it.part:
            out[-1] = (it.kind, (*out[-1][1], it))
        else:
            out.append((it.kind, (it,)))
    return out


def changes(
    items: Iterable[Item],
    rows: IntArray,
    who: Mapping[str, IntArray],
    cells: Mapping[str, IntArray] | None = None,
) -> list[Change]:
    """The state changes the items make: `rows` maps an item's positions to the fight's rows, `who[whose]` (one
    combatant per position) to the combatant whose stat it is (OTHER: the item's own `combatant`). An item's
    positions are increasing, so an item of as many positions as `rows` is every position: its rows are `rows`;
    where `rows` is the batch's every row (`every_row`), an item's positions are the fight's rows themselves.
    `cells[whose]`: each position's cell of that combatant (`stat_cells`), where the step read the stats there; a
    change of some positions at those cells takes its rows and combatants only if they are read (`change_at`: a
    batch writes through the cells)."""
    found = []
    whole = not rows.flags.writeable and rows is every_row(rows.size)  # `every_row` is read-only
    for it in items:
        every = it.rows.size == rows.size
        at = None if cells is None or it.whose not in cells else cells[it.whose]
        if at is not None and not every and it.whose != OTHER:
            found.append(change_at(it.stat, it.rows, None if whole else rows, it.to, who[it.whose], at.take(it.rows)))
            continue
        mine = it.combatant if it.whose == OTHER else (who[it.whose] if every else who[it.whose].take(it.rows))
        if at is not None and not every:
            at = at.take(it.rows)
        found.append(change(it.stat, rows if every else it.rows if whole else rows.take(it.rows), it.to, mine, at))
    return found


def table(items: Iterable[Item]) -> list[tuple[str, str, str, list[int], list[int]]]:
    """The items as plain rows (kind, whose, stat, positions, new values): for tests and traces (OTHER: whose is
    "other <combatant>")."""
    return [
        (it.kind, it.whose if it.whose != OTHER else f"other {it.combatant}", it.stat, it.rows.tolist(), it.to.tolist())
        for it in items
    ]
