"""The outcomes of the rows a table sampler draws past its table's depth (docs/architecture.md, "What is exact and
how"), read from a deeper table of the same situation instead of a `resolve` of their own.

A sampled table is cut at depth 1: a roll whose open dice go on past it (a double 6 followed by a 6 on open d6) is a row
"beyond", whose tail dice the sampler draws from the role's own tail. The outcome of such a row is the system's
`resolve` on those dice in the table's situation: the situation decides everything else the outcome reads. So
each situation met past the depth gets its joint table at a greater depth (`DEEP_DEPTH`) once, and a row beyond
reads its outcome there, by the row of each role's deep support its dice are. Only a row whose dice pass that depth
too (a chance of 6^-(DEEP_DEPTH - 1) against one past depth 1) is resolved as before. The dice are drawn as they
were (this module reads them, it draws nothing), and `resolve` gives each row what it gave it before: the same
results for the same seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import BoolArray, IntArray
from tohit.core.support import Support
from tohit.engine import joint
from tohit.engine.fight.stack import TableSampler

#: The depth of the deeper tables: a roll past depth 1 goes past this one in one case in 6^(DEEP_DEPTH - 1).
DEEP_DEPTH = 6
#: Most rows the deeper tables of one fight hold together, some 12 MB (past them, rows past depth 1 resolve as before):
#: the bench's duel with open rolls needs 115 tables of 1,849 rows.
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

    def of(self, columns: dict[str, IntArray]) -> IntArray:
        """Each row's support row (-1 where its columns are no row of the support)."""
        cols = [columns[c] for c in self.names]
        inside = np.ones(cols[0].size, dtype=bool)
        for col, low, span in zip(cols, self.lows, self.spans, strict=True):
            inside &= (col >= low) & (col < low + span)
        code = self._code(cols)
        found: IntArray = np.where(inside, self.rows.take(np.where(inside, code, 0)), -1)
        return found


class DeepTables:
    """A fight's deeper tables: every one's outcome fields side by side (fields x rows, as `TableStack` holds the
    tables at depth 1), which rows are finite, and for each table its place and how a row's role rows make its joint
    row (its layout)."""

    def __init__(self, fields: tuple[str, ...]) -> None:
        self.fields = fields
        self.matrix = np.zeros((len(fields), 1024), dtype=np.int64)
        self.finite = np.zeros(1024, dtype=bool)
        self.used = 0
        #: Each sampler's deeper table, by the sampler's identity (the sampler kept with it): its offset and layout
        #: (-1, -1: none, the budget of rows spent).
        self.of_sampler: dict[int, tuple[TableSampler, int, int]] = {}
        #: Each layout: per role, its support's rows and the stride of its row in the joint row.
        self.layouts: list[list[tuple[str, _SupportRows, int]]] = []
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
        table = joint.build(fight.system, sm.scenario, sm.target, DEEP_DEPTH)
        size = int(table.weights.size)
        finite = np.flatnonzero(table.finite)
        if self.used + size > DEEP_ROWS:
            return -1, -1
        offset, self.used = self.used, self.used + size
        if self.used > self.finite.size:  # the buffers double when full
            grown = max(self.used, 2 * self.finite.size) - self.finite.size
            self.matrix = np.concatenate([self.matrix, np.zeros((len(self.fields), grown), np.int64)], axis=1)
            self.finite = np.concatenate([self.finite, np.zeros(grown, dtype=bool)])
        for i, f in enumerate(self.fields):
            self.matrix[i, offset + finite] = table.outcome[f]
        self.finite[offset : self.used] = table.finite
        return offset, self._layout(table)

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
            self.layouts.append(parts)
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
            for name, rows, stride in self.layouts[lay]:
                idx = rows.of({c: dice[name, c] if sel is None else dice[name, c].take(sel) for c in rows.names})
                if sel is None:
                    found &= idx >= 0
                    at += idx * stride
                else:
                    found[sel] &= idx >= 0
                    at[sel] += idx * stride
        at = np.where(found, at, 0)
        found &= self.finite.take(at)
        return found, {f: self.matrix[self.fields.index(f)].take(at) for f in fields}
