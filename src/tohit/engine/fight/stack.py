"""What the "table" sampler draws from (docs/architecture.md, "What is exact and how"): each situation's joint
table ready for drawing (`TableSampler`), the alias tables shared by tables of the same weights, and every
table's outcome matrix side by side (`TableStack`), so that a draw from any table is one column of the stack.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from tohit.core.fight.state import IntArray
from tohit.core.outcome import Outcome
from tohit.engine.alias import Alias


class TableSampler:
    """A joint table ready for drawing: its weights, the outcome fields of each joint row (until the stack holds
    them: `AliasTables.add`), and which rows lie beyond the depth (those are resolved when drawn).

    It keeps of its table only what drawing reads later (the roles, supports, rows and weights: the tails and the
    deeper tables are made from them), not the outcome `resolve` gave nor the dice it was fed: a fight meets
    thousands of situations (a group with open rolls, over ten million fights), and each one's copies were most of
    a run's memory."""

    def __init__(self, table: Any, scenario: Any, target: Any, fields: tuple[str, ...]) -> None:
        if table.total >= 2**62:  # pragma: no cover - no fight attack has such a table
            raise ValueError("joint table too large to sample")
        self.table = replace(table, outcome=Outcome(0), finite_columns=None)
        self.scenario, self.target = scenario, target
        weights = np.asarray(table.weights, dtype=np.int64)
        self.size = len(weights)
        self.total = int(table.total)
        #: Tables with the very same weights share one alias table (`layout`, set by `AliasTables.add`): the
        #: dice do not depend on the stats that tell the tables apart, only the outcomes do.
        self.weights_key = (self.total, weights.tobytes())
        self.layout = -1
        #: Where its rows start in the fight's stack of every table's outcome matrix (set by `AliasTables.add`).
        self.offset = -1
        self.beyond = ~table.finite
        self.fields = fields
        #: The outcome fields as one (fields, rows) matrix, 0 on the rows beyond the depth: the stack's copy of it
        #: once the sampler is added (`TableStack.of`), and empty here from then on.
        self.matrix = np.zeros((len(fields), self.size), dtype=np.int64)
        finite = np.flatnonzero(table.finite)
        for i, f in enumerate(fields):
            self.matrix[i, finite] = table.outcome[f]


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

    def of(self, sm: TableSampler) -> IntArray:
        """The sampler's outcome matrix (fields x its rows), a view of the stack's columns at its offset."""
        return self.matrix[:, sm.offset : sm.offset + sm.size]


class AliasTables:
    """A fight's alias tables, one per distinct set of joint weights, and its stack of outcome matrices."""

    def __init__(self, fields: tuple[str, ...]) -> None:
        #: Where each set of weights' alias table is.
        self.layout_ids: dict[tuple[int, bytes], int] = {}
        self.aliases: list[Alias] = []
        #: Each layout's weights key (`TableSampler.weights_key`), shared by the samplers of that layout.
        self.keys: list[tuple[int, bytes]] = []
        #: Each layout's joint weights, the array its samplers' tables share.
        self.weights: list[Any] = []
        self.stack = TableStack(fields)

    def add(self, sm: TableSampler) -> None:
        """Give a new sampler its alias table (shared with any earlier one of the same weights) and its place in
        the stack."""
        layout = self.layout_ids.get(sm.weights_key)
        if layout is None:
            layout = self.layout_ids[sm.weights_key] = len(self.aliases)
            self.aliases.append(Alias([int(w) for w in sm.table.weights]))
            self.keys.append(sm.weights_key)
            self.weights.append(sm.table.weights)
        # One copy of the weights (their bytes, their array) per layout, not one per situation.
        sm.weights_key = self.keys[layout]
        sm.table = replace(sm.table, weights=self.weights[layout])
        sm.layout = layout
        sm.offset = self.stack.add(sm)
        sm.matrix = np.zeros((sm.matrix.shape[0], 0), dtype=np.int64)  # the stack holds it now (`TableStack.of`)

    def of(self, sm: TableSampler) -> Alias:
        """The alias table `sm` draws from."""
        return self.aliases[sm.layout]
