"""Fight state, changed only by events (docs/architecture.md, "Outcomes are data, state changes are events").

A `State` holds a batch of fights as integer arrays: per-combatant stats of shape (fights, combatants)
(health, AP, statuses, durability...) and per-fight values of shape (fights,) (round, whose turn, a pending
reaction...). One narrated fight is a batch of one; Monte Carlo advances a hundred thousand together; the
exact chain holds one row per distinct state. The three share this module. A Monte Carlo batch holds its small
per-combatant stats as int32 (`narrow_dtype`, engine/fight/ending.py's `initial_state(narrow=True)`; a write past
`NARROW_LIMIT` widens the stat first); every other state holds int64.

An `Event` is what happened, in words, with the `Change`s it makes: each change sets one stat of some rows
(and combatants) to new values. `apply(state, events)` is the one pure function that changes a state: it
returns a new state and never mutates its input, so a fight is a fold over its events and can be logged,
replayed and undone.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from tohit.core.fight.rows import cells, one_row_for_all, read_flat, take_at

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
#: The int64 dtype (one object: an array of int64 has it as its dtype, told by identity faster than by equality).
INT64 = np.dtype(np.int64)
#: The dtype a Monte Carlo batch holds a per-combatant stat in while its values are small (`narrow_dtype`): half the
#: memory of int64, so that a step's reads, writes and sums of a hundred thousand fights stay in the cache.
NARROW = np.dtype(np.int32)
#: A narrow stat holds values within +-NARROW_LIMIT: a sum or difference of a few of them, or one of them times a
#: small number, stays far inside int32, so a step's arithmetic on them never wraps. A write of a value past it
#: widens the stat to int64 first (`apply_event_changes`).
NARROW_LIMIT = 1 << 24
#: A cell type of a table `gather` reads (int or bool).
Cell = TypeVar("Cell", bound=np.generic)


def side_wins(name: str, members: int) -> str:
    """ "<side> wins" or "<side> win" (`Roster.wins`), for a side of `members` combatants."""
    plural = members > 1 or (name.endswith("s") and not name.endswith("ss"))
    return f"{name} {'win' if plural else 'wins'}"


@dataclass(frozen=True)
class Roster:
    """Who is in the fight: combatant names in file order, the side of each, the side names."""

    names: tuple[str, ...]
    side: tuple[int, ...]
    side_names: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def wins(self, side: int) -> str:
        """ "<side> wins" or "<side> win": plural for a side of several combatants or a name ending in one
        -s ("Heroes win", "Bandits win"), singular otherwise ("Troll wins", "Ceil wins")."""
        return side_wins(self.side_names[side], sum(s == side for s in self.side))

    @cached_property
    def side_array(self) -> IntArray:
        return np.asarray(self.side, dtype=np.int64)

    @cached_property
    def foe_matrix(self) -> BoolArray:
        """(C, C): True where combatant j is on another side than combatant i."""
        s = self.side_array
        return s[:, None] != s[None, :]

    def foes(self) -> BoolArray:
        return self.foe_matrix

    def are_foes(self, a: IntArray, b: IntArray) -> BoolArray:
        """foe_matrix[a, b] elementwise, by flat index (faster than 2-D fancy indexing)."""
        return gather(self.foe_matrix, a, b)

    @cached_property
    def side_members(self) -> tuple[tuple[int, ...], ...]:
        """Per side, its combatants' columns, in file order."""
        return tuple(tuple(c for c, s in enumerate(self.side) if s == k) for k in range(len(self.side_names)))

    @cached_property
    def side_columns(self) -> tuple[slice | IntArray, ...]:
        """Per side, its combatants' columns: a slice when they are contiguous (as in a fight file)."""
        out: list[slice | IntArray] = []
        for s in range(len(self.side_names)):
            members = np.flatnonzero(self.side_array == s)
            contiguous = members.size and members[-1] - members[0] + 1 == members.size
            out.append(slice(int(members[0]), int(members[-1]) + 1) if contiguous else members)
        return tuple(out)


@dataclass(frozen=True)
class State:
    """A batch of fights: `per[stat]` is (fights, combatants), `fight[stat]` is (fights,)."""

    per: Mapping[str, IntArray]
    fight: Mapping[str, IntArray]

    @property
    def n(self) -> int:
        return len(next(iter(self.fight.values())))

    def take(
        self,
        rows: npt.NDArray[np.intp] | IntArray | BoolArray,
        same: Mapping[str, int] | None = None,
        alike: Collection[tuple[bool, str]] = (),
    ) -> State:
        """The fights at `rows` (an index or a mask), as a new state. `same`: per-fight values the caller knows
        are that one value at every row taken, filled rather than read. `alike`: the stats, as (per combatant,
        name), the caller knows to hold the same row in every fight: their first rows, a view, rather than a copy
        of the rows taken (the same values)."""
        if rows.dtype == np.bool_:
            rows = np.flatnonzero(rows)
        known = same or {}

        def taken(per: bool, stat: str, values: IntArray) -> IntArray:
            if not per and stat in known:
                return np.full(rows.size, known[stat], dtype=values.dtype)
            if (per, stat) in alike:
                return values[: rows.size]
            return take_at(values, rows, axis=0)

        return State(
            {k: taken(True, k, v) for k, v in self.per.items()}, {k: taken(False, k, v) for k, v in self.fight.items()}
        )

    @staticmethod
    def concat(states: Sequence[State]) -> State:
        first = states[0]
        return State(
            {k: np.concatenate([s.per[k] for s in states]) for k in first.per},
            {k: np.concatenate([s.fight[k] for s in states]) for k in first.fight},
        )

    def row(self, roster: Roster, i: int = 0) -> dict[str, Any]:
        """Fight `i` as plain JSON: per-fight values, then each combatant's stats by name."""
        return {
            "fight": {k: int(v[i]) for k, v in self.fight.items()},
            "combatants": {name: {k: int(v[i, c]) for k, v in self.per.items()} for c, name in enumerate(roster.names)},
        }

    @staticmethod
    def from_row(roster: Roster, data: Mapping[str, Any]) -> State:
        """The inverse of `row`: a batch of one fight."""
        fight = {k: np.asarray([int(v)], dtype=np.int64) for k, v in data["fight"].items()}
        stats = data["combatants"][roster.names[0]].keys() if roster.names else ()
        per = {
            k: np.asarray([[int(data["combatants"][name][k]) for name in roster.names]], dtype=np.int64) for k in stats
        }
        return State(per, fight)


class Change:
    """Set `stat` to `to` in fights `rows` (for combatant `who` of each, or the fight-level stat if None).

    `cells`: each row's cell rows * combatants + who in the (fights, combatants) arrays, where the step has it from
    reading the stat there (`rows.stat_cells`): written through as it is. None: made from `rows` and `who`.

    A change made by `change_at` holds its rows and combatants as positions in a step's arrays, and takes them from
    there when they are first read: a Monte Carlo batch and the exact chain write through `cells` and never read them
    (a told fight's log does, and gets the same arrays)."""

    __slots__ = ("_rows", "_taken_from", "_who", "cells", "per_combatant", "size", "stat", "to")

    def __init__(
        self, stat: str, rows: IntArray, to: IntArray, who: IntArray | None = None, cells: IntArray | None = None
    ) -> None:
        self.stat, self.to, self.cells = stat, to, cells
        self._rows, self._who = rows, who
        #: (positions, the step's rows or None where the positions are the rows, the step's combatants): where
        #: `rows` and `who` are taken from when first read (`change_at`); None once they are.
        self._taken_from: tuple[IntArray, IntArray | None, IntArray] | None = None
        #: How many rows it changes.
        self.size = int(rows.size)
        #: Whether it changes a combatant's stat (`who` given), not the fight's.
        self.per_combatant = who is not None

    @property
    def rows(self) -> IntArray:
        """The fights it changes."""
        if self._taken_from is not None:
            self._take()
        return self._rows

    @property
    def who(self) -> IntArray | None:
        """The combatant of each row whose stat it changes (None: a stat of the fight)."""
        if self._taken_from is not None:
            self._take()
        return self._who

    def _take(self) -> None:
        assert self._taken_from is not None
        positions, rows, who = self._taken_from
        self._rows = positions if rows is None else np.asarray(rows.take(positions), dtype=np.int64)
        self._who = _fit(who.take(positions), positions.shape)
        self._taken_from = None

    def __repr__(self) -> str:
        return f"Change(stat={self.stat!r}, rows={self.rows!r}, to={self.to!r}, who={self.who!r})"


@dataclass(frozen=True)
class Event:
    """Something that happened in a fight: its kind, its changes, and (in a narrated fight) words."""

    kind: str
    changes: tuple[Change, ...] = ()
    text: str = ""
    info: dict[str, Any] = field(default_factory=dict)


@lru_cache(maxsize=8)
def every_row(n: int) -> IntArray:
    """0..n-1, read-only, one object per `n`: the rows of a change over a whole batch (`StepContext.set` of a mask
    true everywhere, a step's `parent`). `apply_owned` writes such a change as one whole-array write."""
    rows = np.arange(n, dtype=np.int64)
    rows.flags.writeable = False
    return rows


def _whole(rows: IntArray, n: int) -> bool:
    """True when `rows` is every row 0..n-1 in order (a change over the whole batch): the shared `every_row`, or
    an equal array (checked in full, after its ends)."""
    if rows.size != n:
        return False
    every = every_row(n)
    return rows is every or (int(rows[0]) == 0 and int(rows[-1]) == n - 1 and np.array_equal(rows, every))


def apply(state: State, events: Iterable[Event]) -> State:
    """The new state after `events`, in order. Pure: `state` is not modified."""
    return apply_owned(state, events, set())


def apply_owned(state: State, events: Iterable[Event], copied: set[tuple[bool, str]]) -> State:
    """`apply`, for a caller that owns the arrays named in `copied` (it made them, nobody else holds them):
    those are written in place, every other array is copied first and added to `copied`. With an empty
    `copied` this is exactly `apply`. A step of a batch uses it so that one step copies each array once; where
    every array it writes is owned already, the state it returns is `state` itself (its arrays written)."""
    for event in events:
        state = apply_event_changes(state, event.changes, copied)
    return state


def apply_event_changes(state: State, changes: Iterable[Change], copied: set[tuple[bool, str]]) -> State:
    """`apply_owned` of one event's changes, in order (a batch's step, which builds no `Event` where nobody reads
    it)."""
    per, fight = state.per, state.fight
    based: tuple[IntArray, int, IntArray] | None = None  # the last rows, width and their flat offsets (rows x width)
    for ch in changes:
        if ch.size == 0:
            continue
        if not ch.per_combatant:
            if (False, ch.stat) not in copied:
                fight = {**fight, ch.stat: fight[ch.stat].copy()}
                copied.add((False, ch.stat))
            column = fight[ch.stat]
            if _whole(ch.rows, column.shape[0]):  # one whole-array write: far faster than through the index
                column[...] = ch.to
            else:
                column[ch.rows] = _value(ch.to, column.dtype)
        else:
            arr = per[ch.stat]
            # A value past the limit: widened first (a copy). `==`, not `is`: an unpickled array's dtype is another
            # object, and an int32 stat must widen all the same.
            if arr.dtype == NARROW and not narrow_fits(ch.to):
                arr = arr.astype(np.int64, order="C")  # its own, in C order (a one-row stat's view is not)
                per = {**per, ch.stat: arr}
                copied.add((True, ch.stat))
            elif (True, ch.stat) not in copied:
                arr = own_copy(arr)
                per = {**per, ch.stat: arr}
                copied.add((True, ch.stat))
            to = _value(ch.to, arr.dtype)
            if ch.cells is not None and arr.flags.c_contiguous:  # the cells the step read the stat at
                arr.reshape(-1)[ch.cells] = to
            elif arr.flags.c_contiguous:  # flat indices: much faster than 2-D fancy indexing
                width, who = arr.shape[1], ch.who
                assert who is not None  # a combatant's stat (`per_combatant`)
                if based is None or based[0] is not ch.rows or based[1] != width:  # an event's stats share rows
                    based = (ch.rows, width, ch.rows * width)
                arr.reshape(-1)[based[2] + who] = to
            else:  # pragma: no cover - state arrays are always made contiguous
                arr[ch.rows, ch.who] = ch.to
    return state if per is state.per and fight is state.fight else State(per, fight)


def narrow_range(low: int, high: int) -> bool:
    """Whether values from `low` to `high` lie within +-NARROW_LIMIT, as a narrow stat holds them (and as the table
    sampler reads an outcome field as int32: engine/fight/columns.py)."""
    return low >= -NARROW_LIMIT and high <= NARROW_LIMIT


def narrow_fits(values: IntArray) -> bool:
    """Whether every value is within +-NARROW_LIMIT (`narrow_range`), as a narrow stat holds them (one value for
    every row, a stride-0 view, read once)."""
    if values.size == 0:
        return True
    if values.ndim == 1 and values.strides[0] == 0:
        return narrow_range(int(values[0]), int(values[0]))
    return narrow_range(int(values.min()), int(values.max()))


def own_copy(values: npt.NDArray[Cell]) -> npt.NDArray[Cell]:
    """A copy of a stat's array, contiguous: a stat a batch holds as one row for every fight is tiled from that row
    (several times faster than copying the zero-stride view cell by cell)."""
    if one_row_for_all(values):
        out: npt.NDArray[Cell] = np.tile(values[0], (values.shape[0], 1))
        return out
    return values.copy()


def held_row(values: npt.NDArray[Cell]) -> npt.NDArray[Cell]:
    """A stat as the one row a batch holds for every fight, where it holds it so (a zero-stride view: no event has
    written it), else as it is: a max, a min or an any over it gives the same answer in one row's time (numpy
    loops over a zero-stride array one row at a time)."""
    if one_row_for_all(values):
        return values[:1]
    return values


def wide(values: Any) -> IntArray:
    """`values` as int64 (no copy where they are): what a game's `resolve` is fed from a state, whatever the batch
    holds the stat in (`narrow_dtype`), so that the rules' arithmetic on a scenario's values is int64 as it always
    was."""
    return np.asarray(values, dtype=np.int64)


def narrow_dtype(values: IntArray) -> np.dtype[Any]:
    """The dtype a Monte Carlo batch holds a per-combatant stat of these values in: int32 (`NARROW`) when every one
    is within +-NARROW_LIMIT, else int64 (`apply_event_changes` keeps every value of a narrow stat within the limit,
    widening it to int64 before a write past it)."""
    return NARROW if narrow_fits(values.reshape(-1)) else INT64


def _value(to: IntArray, dtype: np.dtype[Any]) -> Any:
    """A change's new values as a write through an index into an array of `dtype` takes them fastest: its one value
    for every row (a stride-0 view, `change`'s) as that value (numpy writes a scalar through an index in about half
    the time of a view of it), else the array, in `dtype` (a write that casts as it goes takes numpy's slow path:
    int64 values into a narrow stat are cast first, in one pass)."""
    if to.ndim == 1 and to.strides[0] == 0:
        return to[0]
    return to if to.dtype == dtype else to.astype(dtype)


def gather(arr: npt.NDArray[Cell], rows: Any, who: Any) -> npt.NDArray[Cell]:
    """arr[rows, who] for a 2-D array (fights x combatants, or any small table such as combatants x attacks), by
    flat index (faster than 2-D fancy indexing); the array's own dtype."""
    return read_flat(arr, cells(rows, arr.shape[1], who))


def change(stat: str, rows: Any, to: Any, who: Any = None, cells: IntArray | None = None) -> Change:
    """A Change from array-likes; `to` and `who` broadcast to the rows (`to` int64, or int32 as it is: `_fit`).
    `cells`: the rows' cells of `who` (flat indices, one per row), where the caller has them."""
    r = rows if type(rows) is np.ndarray and rows.dtype is INT64 else np.asarray(rows, dtype=np.int64)
    if r.ndim != 1:  # a 1-D index stays the same object (`every_row` is known by it)
        r = r.reshape(-1)
    if cells is not None and (who is None or cells.shape != r.shape):
        raise ValueError(f"cells of {stat}: one per row of a combatant's stat")
    return Change(stat, r, _fit(to, r.shape), None if who is None else _fit(who, r.shape), cells)


def change_at(stat: str, positions: IntArray, rows: IntArray | None, to: Any, who: IntArray, cells: IntArray) -> Change:
    """`change(stat, rows.take(positions), to, who.take(positions), cells)` (`rows` None: the positions are the
    fights themselves), the two takes made only when the change's `rows` or `who` is first read: a change of a
    combatant's stat at `cells` (one per position) that the step read it at, which a batch writes through as they
    are."""
    if cells.shape != positions.shape:
        raise ValueError(f"cells of {stat}: one per row of a combatant's stat")
    found = Change(stat, positions, _fit(to, positions.shape), who, cells)
    found._taken_from = (positions, rows, who)
    return found


def _fit(values: Any, shape: tuple[int, ...]) -> IntArray:
    """`values` as int64 of `shape`, or as they are where they are an int32 array of that shape (read from a batch's
    narrow stat: `apply_event_changes` casts or widens as the stat it writes needs); one value for every row is a
    read-only broadcast view, not a copy (a change is only read)."""
    if type(values) is np.ndarray and (values.dtype is INT64 or values.dtype is NARROW) and values.shape == shape:
        return values  # as it is, no conversion: int64, or int32 read from a narrow stat (`narrow_dtype`)
    if type(values) is int and len(shape) == 1:  # one value: the shared read-only view of it
        return _one_value(values, shape[0])
    arr = np.asarray(values, dtype=np.int64)
    if arr.shape == shape:
        return arr
    if arr.size == 1 and len(shape) == 1:  # one value: a read-only view of stride 0
        return _one_value(int(arr.reshape(1)[0]), shape[0])
    return np.broadcast_to(arr, shape)


@lru_cache(maxsize=256)
def _one_value(value: int, size: int) -> IntArray:
    """`value` for each of `size` rows: a read-only view of stride 0 (`broadcast_to`'s, made directly), one object
    per (value, size): a change only reads it."""
    one: IntArray = np.ndarray((size,), np.int64, np.asarray([value], dtype=np.int64), 0, (0,))
    one.flags.writeable = False
    return one
