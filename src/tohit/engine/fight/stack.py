"""What the "table" sampler draws from (docs/architecture.md, "What is exact and how"): each situation's joint
table ready for drawing (`TableSampler`), the alias tables shared by tables of the same weights, and every
table's outcome matrix side by side (`TableStack`), so that a draw from any table is one column of the stack.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.state import IntArray
from tohit.engine.alias import Alias


class TableSampler:
    """A joint table ready for drawing: cumulative weights, the outcome fields of each joint row, and which
    rows lie beyond the depth (those are resolved when drawn)."""

    def __init__(self, table: Any, scenario: Any, target: Any, fields: tuple[str, ...]) -> None:
        if table.total >= 2**62:  # pragma: no cover - no fight attack has such a table
            raise ValueError("joint table too large to sample")
        self.table, self.scenario, self.target = table, scenario, target
        weights = np.asarray([int(w) for w in table.weights], dtype=np.int64)
        self.size = len(weights)
        self.total = int(table.total)
        #: Tables with the very same weights share one alias table (`layout`, set by `AliasTables.add`): the
        #: dice do not depend on the stats that tell the tables apart, only the outcomes do.
        self.weights_key = (self.total, weights.tobytes())
        self.layout = -1
        #: Where its rows start in the fight's stack of every table's outcome matrix (set by `AliasTables.add`).
        self.offset = -1
        self.beyond = ~table.finite
        finite = np.flatnonzero(table.finite)
        self.columns: dict[str, IntArray] = {}
        for f in fields:
            col = np.zeros(len(weights), dtype=np.int64)
            col[finite] = table.outcome[f]
            self.columns[f] = col
        #: The outcome fields as one (fields, rows) matrix: one gather reads them all.
        self.fields = fields
        self.matrix = np.stack([self.columns[f] for f in fields]) if fields else np.zeros((0, self.size), np.int64)


class TableStack:
    """Every sampled table's outcome matrix side by side (fields x rows), and which rows lie beyond the depth:
    a draw from any table is one column of the stack (its table's offset + its row). Column 0 is all zeros:
    the rows a resolve leaves out read it."""

    def __init__(self, fields: tuple[str, ...]) -> None:
        self.fields = fields
        self.at = {f: i for i, f in enumerate(fields)}
        self.matrix = np.zeros((len(fields), 64), dtype=np.int64)
        self.beyond = np.zeros(64, dtype=bool)
        self.used = 1

    def add(self, sm: TableSampler) -> int:
        """Append a table; returns its offset (the buffers double when full)."""
        need = self.used + sm.size
        if need > self.beyond.size:
            size = max(need, 2 * self.beyond.size)
            matrix = np.zeros((len(self.fields), size), dtype=np.int64)
            matrix[:, : self.used] = self.matrix[:, : self.used]
            beyond = np.zeros(size, dtype=bool)
            beyond[: self.used] = self.beyond[: self.used]
            self.matrix, self.beyond = matrix, beyond
        offset = self.used
        self.matrix[:, offset:need] = sm.matrix
        self.beyond[offset:need] = sm.beyond
        self.used = need
        return offset


class AliasTables:
    """A fight's alias tables, one per distinct set of joint weights, and its stack of outcome matrices."""

    def __init__(self, fields: tuple[str, ...]) -> None:
        #: Where each set of weights' alias table is.
        self.layout_ids: dict[tuple[int, bytes], int] = {}
        self.aliases: list[Alias] = []
        self.stack = TableStack(fields)

    def add(self, sm: TableSampler) -> None:
        """Give a new sampler its alias table (shared with any earlier one of the same weights) and its place in
        the stack."""
        layout = self.layout_ids.get(sm.weights_key)
        if layout is None:
            layout = self.layout_ids[sm.weights_key] = len(self.aliases)
            self.aliases.append(Alias([int(w) for w in sm.table.weights]))
        sm.layout = layout
        sm.offset = self.stack.add(sm)

    def of(self, sm: TableSampler) -> Alias:
        """The alias table `sm` draws from."""
        return self.aliases[sm.layout]
