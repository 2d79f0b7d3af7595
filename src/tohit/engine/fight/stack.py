"""What the "table" sampler draws from (docs/architecture.md, "What is exact and how"): each situation's joint
table ready for drawing (`TableSampler`), the alias tables shared by tables of the same weights, and every
table's outcome fields side by side (`TableStack`, one column a field), so that a draw from any table is one row
of the stack.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.fight.state import BoolArray
from tohit.core.outcome import Outcome
from tohit.engine.alias import Alias
from tohit.engine.fight.columns import FieldColumns


class TableSampler:
    """A joint table ready for drawing: its weights, the outcome fields of each joint row (until the stack holds
    them: `AliasTables.add`), and which rows lie beyond the depth (those are resolved when drawn).

    It keeps of its table only what drawing reads later (the roles, supports, rows and weights: the tails and the
    deeper tables are made from them), not the outcome `resolve` gave nor the dice it was fed: a fight meets
    thousands of situations (a group with open rolls, over ten million fights), and each one's copies were most of
    a run's memory. Nor does it keep the scenario and target block its table was built on: the few samplers that
    need a deeper table make them again from its situation's key (`situation`)."""

    def __init__(self, table: Any, situation: tuple[Any, ...], fields: tuple[str, ...]) -> None:
        if table.total >= 2**62:  # pragma: no cover - no fight attack has such a table
            raise ValueError("joint table too large to sample")
        self.table = replace(table, outcome=Outcome(0), finite_columns=None)
        #: Its situation's `ident` (the samplers' cache key, the same tuple).
        self.situation = situation
        weights = np.asarray(table.weights, dtype=np.int64)
        self.size = len(weights)
        self.total = int(table.total)
        #: Tables with the very same weights share one alias table (`layout`, set by `AliasTables.add`): the
        #: dice do not depend on the stats that tell the tables apart, only the outcomes do.
        self.weights_key = (self.total, weights.tobytes())
        self.layout = -1
        #: Where its rows start in the fight's stack of every table's outcome fields (set by `AliasTables.add`);
        #: samplers whose rows hold the very same values share them.
        self.offset = -1
        #: Its place among the samplers added to the fight's alias tables (`AliasTables.add`): its own, unlike
        #: its offset.
        self.number = -1
        #: Which rows lie beyond the depth, until the stack holds them (`AliasTables.add`; empty from then on),
        #: and whether any does (a draw from it may need its deeper table).
        self.beyond = ~table.finite
        self.deep = bool(self.beyond.any())
        self.fields = fields
        #: The outcome fields as one (fields, rows) matrix, 0 on the rows beyond the depth: the stack's copy of it
        #: once the sampler is added (`TableStack.read`), and empty here from then on.
        self.matrix = np.zeros((len(fields), self.size), dtype=np.int64)
        finite = np.flatnonzero(table.finite)
        for i, f in enumerate(fields):
            self.matrix[i, finite] = table.outcome[f]


class TableStack(FieldColumns):
    """Every sampled table's outcome fields side by side, one column per field, and which rows lie beyond the
    depth: a draw from any table is one row of the stack (its table's offset + its joint row). Row 0 is all zeros:
    the rows a resolve leaves out read it. Tables whose rows hold the very same values (outcome fields and rows
    beyond the depth) share one place: situations told apart by a stat the outcome does not read (a group with
    open rolls met 8,710 tables over 1,000,000 fights, 520 of them distinct: 168,480 rows of 2,822,040). The
    columns grow by half when full, and a large one is narrow (`FieldColumns`)."""

    def __init__(self, fields: tuple[str, ...]) -> None:
        super().__init__(fields, used=1)
        #: Where the rows of each table added so far start, by a digest of their values (`_place_of`).
        self.places: dict[bytes, int] = {}

    @property
    def beyond(self) -> BoolArray:
        """Which rows lie beyond their table's depth (the columns' flags)."""
        return self.flags

    def add(self, sm: TableSampler) -> int:
        """A table's offset: where an earlier table of the very same rows starts, or where its rows are appended."""
        key = _place_key(sm)
        found = self.places.get(key)
        if found is not None and self._holds(found, sm):
            return found
        offset = self.append(sm.size, sm.matrix, sm.beyond)
        self.places.setdefault(key, offset)
        return offset

    def _holds(self, offset: int, sm: TableSampler) -> bool:
        """Whether the stack's rows from `offset` hold the sampler's values (the digest's match made sure: two
        different tables are never one place, however unlikely a shared digest)."""
        rows = slice(offset, offset + sm.size)
        if offset + sm.size > self.used or not np.array_equal(self.beyond[rows], sm.beyond):
            return False
        return all(np.array_equal(column[rows], values) for column, values in zip(self.columns, sm.matrix, strict=True))

    def beyond_at(self, at: npt.NDArray[np.integer[Any]], within: TableSampler | None = None) -> BoolArray:
        """Whether the stack's rows `at` (`within` a sampler: its joint rows) lie beyond their table's depth."""
        return self.flags_at(at, within)


def _place_key(sm: TableSampler) -> bytes:
    """A digest of a table's rows as the stack holds them: its size, which rows lie beyond the depth and its outcome
    fields (0 on those rows)."""
    digest = hashlib.blake2b(sm.size.to_bytes(8, "little"), digest_size=16)
    digest.update(np.ascontiguousarray(sm.beyond).tobytes())
    digest.update(np.ascontiguousarray(sm.matrix).tobytes())
    return digest.digest()


def _same_arrays(these: dict[str, Any], those: dict[str, Any]) -> bool:
    """Whether two dicts of arrays hold the same keys, in order, and equal arrays."""
    return list(these) == list(those) and all(these[k] is those[k] or np.array_equal(these[k], those[k]) for k in these)


class AliasTables:
    """A fight's alias tables, one per distinct set of joint weights, and its stack of outcome matrices."""

    def __init__(self, fields: tuple[str, ...]) -> None:
        #: Where each set of weights' alias table is.
        self.layout_ids: dict[tuple[int, bytes], int] = {}
        self.aliases: list[Alias] = []
        #: Each layout's weights key (`TableSampler.weights_key`), shared by the samplers of that layout.
        self.keys: list[tuple[int, bytes]] = []
        #: Each layout's first joint table: its joint weights, the array its samplers' tables share, and its index
        #: grids and rows within the depth, shared where the same.
        self.firsts: list[Any] = []
        #: How many samplers were added (each one's `number`).
        self.added = 0
        self.stack = TableStack(fields)
        #: What an added sampler's matrix and rows beyond the depth become: empty, one pair for all of them.
        self.emptied = (np.zeros((len(fields), 0), dtype=np.int64), np.zeros(0, dtype=bool))

    def add(self, sm: TableSampler) -> None:
        """Give a new sampler its alias table (shared with any earlier one of the same weights) and its place in
        the stack."""
        layout = self.layout_ids.get(sm.weights_key)
        if layout is None:
            layout = self.layout_ids[sm.weights_key] = len(self.aliases)
            self.aliases.append(Alias([int(w) for w in sm.table.weights]))
            self.keys.append(sm.weights_key)
            self.firsts.append(sm.table)
        # One copy of the weights (their bytes, their array) per layout, not one per situation; the layout's first
        # table's index grids and rows within the depth where they are the same (they are, but for a table whose
        # roles' supports differ in size at the same weights).
        sm.weights_key = self.keys[layout]
        table, first = sm.table, self.firsts[layout]
        index = first.index if _same_arrays(table.index, first.index) else table.index
        finite = first.finite if np.array_equal(table.finite, first.finite) else table.finite
        sm.table = replace(table, weights=first.weights, index=index, finite=finite)
        sm.layout = layout
        sm.number, self.added = self.added, self.added + 1
        sm.offset = self.stack.add(sm)
        sm.matrix, sm.beyond = self.emptied  # the stack holds them now (`TableStack.read`, `TableStack.beyond_at`)

    def of(self, sm: TableSampler) -> Alias:
        """The alias table `sm` draws from."""
        return self.aliases[sm.layout]
