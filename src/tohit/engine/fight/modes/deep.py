"""The outcomes of the rows a table sampler draws past its table's depth (docs/architecture.md, "What is exact and
how"), read from a deeper table of the same situation instead of a `resolve` of their own.

A sampled table is cut at a depth (`modes.sample.TABLE_DEPTH`, 2): a roll whose open dice go on past it (a double 6
followed by a 6 on each of two open d6) is a row "beyond", whose tail dice the sampler draws from the role's own
tail. The outcome of such a row is the system's `resolve` on those dice in the table's situation: the situation
decides everything else the outcome reads. So each situation met past the depth gets its joint table at a greater
depth (`DEEP_DEPTH`) once, and a row beyond reads its outcome there, by the row of each role's deep support its dice
are. Only a row whose dice pass that depth too (a chance of 6^-(DEEP_DEPTH - 2) against one past depth 2) is
resolved as before. The dice are drawn as they were (this module reads them, it draws nothing), and `resolve` gives
each row what it gave it before: the same results for the same seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import BoolArray, IntArray
from tohit.core.support import Support
from tohit.engine import joint
from tohit.engine.fight.columns import FieldColumns
from tohit.engine.fight.situation import Situation, situation_blocks
from tohit.engine.fight.stack import TableSampler

#: The depth of the deeper tables: a roll past the sampled table's depth 2 goes past this one in one case in
#: 6^(DEEP_DEPTH - 2).
DEEP_DEPTH = 6
#: Most rows the deeper tables of one fight hold together (some 12 MB as int64; a third of it once narrow,
#: `FieldColumns`, and the buffer grows by half up to 14% past them; past them, rows past the table's depth resolve as
#: before): the bench's duel with open rolls needed 115 tables of 1,849 rows when its tables were cut at depth 1;
#: at depth 2 it needs 35 (64,715 rows over 100,000 fights).
DEEP_ROWS = 1 << 18


class _SupportRows:
    """Which row of a role's support a role's columns are (-1: none of them, e.g. past the support's depth): the
    columns packed by each one's least value and span, one entry per packed code."""

    def __init__(self, support: Support) -> None:
        self.names = tuple(support.columns)
        cols = [np.asarray(support.columns[c], dtype=np.int64) for c in self.names]
        self.lows = [int(c.min()) for c in cols]
        self.spans = [int(c.max()) - low + 1 for c, low in zip(cols, self.lows, strict=True)]
        code = self._code(cols)
        self.rows = np.full(int(np.prod(self.spans)), -1, dtype=np.int64)
        self.rows[code] = np.arange(support.size)

    def _code(self, cols: list[IntArray]) -> IntArray:
        code = np.zeros(cols[0].size, dtype=np.int64)
        for col, low, span in zip(cols, self.lows, self.spans, strict=True):
            code *= span
            code += col - low
        return code


#: A column's offset value where it lies outside its span: times a role's weights (together below 2**20), past every
#: table and far from overflowing.
OUTSIDE = 1 << 40


class _LayoutRows:
    """Every role's support rows of one layout at once: the roles' columns (in order, each role's together) offset by
    their least values (a value outside its span, below the least too as it wraps unsigned, set to `OUTSIDE`), packed
    per role by `np.add.reduceat`, and read from the roles' `_SupportRows` tables laid end to end (a last entry -1:
    no row, where every code past them is clipped), so that a batch's rows find their joint row in a few whole-array
    calls, not a dozen per role."""

    def __init__(self, parts: list[tuple[str, _SupportRows, int]]) -> None:
        self.keys = [(name, c) for name, rows, _ in parts for c in rows.names]
        lows: list[int] = []
        spans: list[int] = []
        weights: list[int] = []
        starts: list[int] = []
        offsets: list[int] = []
        tables: list[IntArray] = []
        at = 0
        for _, rows, _ in parts:
            starts.append(len(lows))
            offsets.append(at)
            tables.append(rows.rows)
            at += rows.rows.size
            lows += rows.lows
            spans += rows.spans
            weights += [int(np.prod(rows.spans[i + 1 :], dtype=np.int64)) for i in range(len(rows.spans))]
        if sum(weights) >= 1 << 20:  # pragma: no cover - far beyond any role's dice (OUTSIDE times them: no overflow)
            raise ValueError("a layout's supports are too wide to read at once")
        self.lows = np.asarray(lows, dtype=np.int64)[:, None]
        self.spans = np.asarray(spans, dtype=np.uint64)[:, None]
        self.weights = np.asarray(weights, dtype=np.int64)[:, None]
        self.starts = np.asarray(starts, dtype=np.int64)
        self.offsets = np.asarray(offsets, dtype=np.int64)[:, None]
        self.none = at  # the code of "no row": the table's last entry
        self.table = np.concatenate([*tables, np.asarray([-1], dtype=np.int64)])
        self.strides = np.asarray([stride for _, _, stride in parts], dtype=np.int64)

    def rows(self, dice: dict[tuple[str, str], IntArray], sel: IntArray | None) -> tuple[BoolArray, IntArray]:
        """(found: every role's columns are a row of its support, the joint row of the layout where found) of each
        row (of the rows `sel` alone, when given)."""
        d = np.stack([dice[key] for key in self.keys])
        if sel is not None:
            d = d.take(sel, axis=1)
        d -= self.lows
        np.copyto(d, OUTSIDE, where=d.view(np.uint64) >= self.spans)  # below the least value too: it wraps
        d *= self.weights
        code = np.add.reduceat(d, self.starts, axis=0)
        code += self.offsets
        np.minimum(code, self.none, out=code)  # a role with a column outside its span: past every table, "no row"
        idx = self.table.take(code)
        found: BoolArray = np.asarray((idx >= 0).all(axis=0))
        idx *= self.strides[:, None]
        joint: IntArray = idx.sum(axis=0)
        return found, joint


class DeepTables:
    """A fight's deeper tables: every one's outcome fields side by side (`held`: a column a field, as `TableStack`
    holds the sampled tables) and which rows are finite (its flags), and for each table its place and how a
    row's role rows make its joint row (its layout)."""

    def __init__(self, fields: tuple[str, ...]) -> None:
        self.held = FieldColumns(fields, rows=1024)
        #: Each sampler's deeper table, by the sampler's identity (the sampler kept with it): its offset and layout
        #: (-1, -1: none, the budget of rows spent).
        self.of_sampler: dict[int, tuple[TableSampler, int, int]] = {}
        #: Each layout: per role, its support's rows and the stride of its row in the joint row, read at once.
        self.layouts: list[_LayoutRows] = []
        self._layout_ids: dict[tuple[Any, ...], int] = {}

    def place(self, fight: LoadedFight, sm: TableSampler) -> tuple[int, int]:
        """(offset, layout) of the sampler's deeper table, built on first use; (-1, -1) when it has none."""
        found = self.of_sampler.get(id(sm))
        if found is None:
            found = self.of_sampler[id(sm)] = (sm, *self._add(fight, sm))
        return found[1], found[2]

    def _add(self, fight: LoadedFight, sm: TableSampler) -> tuple[int, int]:
        """The sampler's situation's joint table at `DEEP_DEPTH` (one `resolve`, as the sampler's own table was
        built), appended: its (offset, layout)."""
        scenario, target = situation_blocks(fight, Situation.from_ident(sm.situation))
        if self.held.used + joint.row_count(fight.system, scenario, target, DEEP_DEPTH) > DEEP_ROWS:
            return -1, -1  # refused before it is built: a group may refuse most of its situations' deeper tables
        table = joint.build(fight.system, scenario, target, DEEP_DEPTH)
        size = int(table.weights.size)
        finite = np.flatnonzero(table.finite)
        # each field at the finite rows, 0 on the others
        values = np.stack([np.broadcast_to(table.outcome[f], finite.shape) for f in self.held.fields])
        return self.held.append(size, values, table.finite, at=finite), self._layout(table)

    def _layout(self, table: joint.JointTable) -> int:
        """The layout of the table's dice: per role, its support's rows and stride (tables of the same dice share
        one; a held role's support is made anew for each table, so they are told apart by their contents)."""
        key = tuple(
            (name, sup.size, sup.remainder, tuple((c, v.tobytes()) for c, v in sup.columns.items()))
            for name, sup in table.supports.items()
        )
        layout = self._layout_ids.get(key)
        if layout is None:
            radix = [s.size + (1 if s.remainder else 0) for s in table.supports.values()]
            strides = [int(np.prod(radix[i + 1 :], dtype=np.int64)) for i in range(len(radix))]
            parts = [
                (name, _SupportRows(sup), stride)
                for (name, sup), stride in zip(table.supports.items(), strides, strict=True)
            ]
            layout = self._layout_ids[key] = len(self.layouts)
            self.layouts.append(_LayoutRows(parts))
        return layout

    def read(
        self,
        fight: LoadedFight,
        samplers: list[TableSampler],
        owner: IntArray,
        dice: dict[tuple[str, str], IntArray],
        fields: list[str],
    ) -> tuple[BoolArray, dict[str, IntArray]]:
        """(which rows were read, their outcome fields there) of rows past the depth of their
        tables (`owner`: each row's sampler, its index in `samplers`; `dice`: each row's dice, per role and
        column)."""
        offsets = np.full(len(samplers), -1, dtype=np.int64)
        layouts = np.full(len(samplers), -1, dtype=np.int64)
        for i in np.flatnonzero(np.bincount(owner, minlength=len(samplers))).tolist():
            offsets[i], layouts[i] = self.place(fight, samplers[i])
        at = offsets.take(owner)
        found = at >= 0
        present = sorted(set(layouts[layouts >= 0].tolist()))
        row_layout = layouts.take(owner) if len(present) > 1 else None
        for lay in present:
            sel = None if row_layout is None else np.flatnonzero(row_layout == lay)
            inside, joint_row = self.layouts[lay].rows(dice, sel)
            if sel is None:
                found &= inside
                at += joint_row
            else:
                found[sel] &= inside
                at[sel] += joint_row
        at = np.where(found, at, 0)
        found &= self.held.flags_at(at)
        return found, {f: self.held.read(f, at) for f in fields}
