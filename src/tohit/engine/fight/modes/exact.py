"""The exact chain (docs/architecture.md, "What is exact and how"): each fight row is expanded into one row per distinct
outcome of the attack (from the system's exact odds at the stats of that row), with its exact probability, plus one row
for the probability beyond the depth of open-ended dice (never dropped)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from math import lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.fight.contract import LoadedFight, Mode, Rows
from tohit.core.fight.rolls import FightRoll, Rolled
from tohit.core.fight.rows import distinct
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.core.fight.words import Words
from tohit.engine.fight.modes.base import StepContext
from tohit.engine.fight.outcome_table import OutcomeTable
from tohit.engine.fight.outcomes import outcome_table
from tohit.engine.fight.situation import SituationKey

#: Depth of open-ended dice in the exact chain (the rest is reported as `beyond depth`).
EXACT_DEPTH: int | None = None  # None: the system's default depth


class Exact(StepContext):
    """A batch of rows, each with its exact probability weight[row] / denominator (Python ints)."""

    mode: Mode = "enumerate"

    def __init__(
        self,
        fight: LoadedFight,
        state: State,
        *,
        depth: int | None = None,
        standing: BoolArray | None = None,
    ) -> None:
        super().__init__(fight, state, None, standing=standing)
        #: Depth of open-ended dice (None: the system's).
        self.depth = depth
        self.weight: npt.NDArray[np.object_] = np.asarray([1] * state.n, dtype=object)
        self.denominator = 1

    def _expand(self, idx: IntArray, weights: npt.NDArray[np.object_] | None = None, denominator: int = 1) -> None:
        """Re-index the rows by `idx`; row i's probability is multiplied by weights[i] / denominator."""
        self.state = self.state.take(idx)
        self._standing = None if self._standing is None else self._standing[idx]
        self._owned = {(True, k) for k in self.state.per} | {(False, k) for k in self.state.fight}
        self.parent = self.parent[idx]
        self.weight = self.weight[idx] * weights if weights is not None else self.weight[idx]
        self.denominator *= denominator

    def choose(self, allowed: BoolArray) -> tuple[Rows, IntArray]:
        """One row per allowed column, each with probability 1 / (the row's count)."""
        n = allowed.shape[0]
        counts = allowed.sum(axis=1)
        reps = np.maximum(counts, 1)
        idx = np.repeat(np.arange(n, dtype=np.int64), reps)
        choice = np.full(idx.size, -1, dtype=np.int64)
        weights = np.empty(idx.size, dtype=object)
        common = lcm(*[int(x) for x in np.unique(reps)])
        pos = 0
        for r in range(n):
            cols = np.flatnonzero(allowed[r])
            if cols.size == 0:
                weights[pos] = common
                pos += 1
                continue
            for c in cols:
                choice[pos] = c
                weights[pos] = common // cols.size
                pos += 1
        self._expand(idx, weights, common)
        return idx, choice

    def die(self, mask: BoolArray, sides: IntArray) -> tuple[Rows, IntArray]:
        """One row per face for the rows of `mask`, each with probability 1 / sides."""
        n = self.n
        reps = np.where(mask, np.maximum(sides, 1), 1).astype(np.int64)
        idx = np.repeat(np.arange(n, dtype=np.int64), reps)
        starts = np.repeat(np.cumsum(reps) - reps, reps)
        faces = np.where(mask[idx], np.arange(idx.size) - starts + 1, 0).astype(np.int64)
        common = lcm(*[int(x) for x in np.unique(reps)])
        weights = np.asarray([common // int(r) for r in reps[idx]], dtype=object)
        self._expand(idx, weights, common)
        return idx, faces

    def draw(
        self, mask: BoolArray, which: IntArray, tables: Sequence[tuple[IntArray, Sequence[int]]]
    ) -> tuple[Rows, IntArray]:
        """One row per value for the rows of `mask`, with probability weight / total."""
        n = self.n
        which = np.asarray(which, dtype=np.int64)
        totals = [sum(int(w) for w in weights) for _, weights in tables]
        common = lcm(*totals) if totals else 1
        # One flat list of every table's values and weights (over `common`), then a last entry for rows outside
        # the mask: value 0 with the whole weight.
        sizes = np.asarray([len(values) for values, _ in tables] + [1], dtype=np.int64)
        starts = np.cumsum(sizes) - sizes
        flat_values = np.concatenate(
            [np.asarray(values, dtype=np.int64) for values, _ in tables] + [np.zeros(1, dtype=np.int64)]
        )
        flat_weights = np.asarray(
            [int(w) * (common // total) for (_, weights), total in zip(tables, totals, strict=True) for w in weights]
            + [common],
            dtype=object,
        )
        pick = np.where(mask, which, len(tables))
        reps = sizes[pick]
        idx = np.repeat(np.arange(n, dtype=np.int64), reps)
        offset = np.arange(idx.size) - np.repeat(np.cumsum(reps) - reps, reps)
        at = starts[pick[idx]] + offset
        self._expand(idx, flat_weights[at], common)
        return idx, flat_values[at]

    def roll(self, rows: IntArray, roll: FightRoll, args: Mapping[str, Any]) -> Rolled:
        """One row per value of the roll for each of `rows`, with its exact weight (`FightRoll.exact_table`, one
        table per distinct arguments)."""
        n = self.n
        mask = np.zeros(n, dtype=bool)
        mask[rows] = True
        names = sorted(args)
        keys = np.stack([np.broadcast_to(np.asarray(args[k], dtype=np.int64), rows.shape) for k in names], axis=1)
        uniq, inverse = np.unique(keys, axis=0, return_inverse=True)
        which = np.zeros(n, dtype=np.int64)
        which[rows] = inverse.reshape(-1)
        tables = [roll.exact_table(dict(zip(names, u, strict=True))) for u in uniq.tolist()]
        idx, value = self.draw(mask, which, tables)
        return Rolled(idx, value, {})

    def resolve(
        self,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray] | None = None,
        *,
        kind: str = "attack",
        note: Words = "",
        fields: tuple[str, ...] | None = None,
        shared: dict[str, Any] | None = None,
        said_fields: Callable[[], dict[str, IntArray]] | None = None,
    ) -> tuple[Rows, dict[str, IntArray]]:
        """Every outcome of the attacks of `mask`, one row each with its exact weight. The tables are keyed by
        the attacker's own stats only for the resolve kinds whose rules read them (their bindings' `kinds`)."""
        rules = self.fight.rules
        fields = fields or rules.outcome_fields
        own = rules.bound.attacker_for(kind)
        return self._resolve_exact(mask, actor, attack, target, attack_fields or {}, fields, own)

    def situations(
        self,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray],
        own: tuple[str, ...] | None = None,
    ) -> tuple[SituationKey, IntArray]:
        """The situation of each row's resolve, as the exact tables are keyed by it: the key, and its columns as
        one row per fight row (`SituationKey.decode` reads one back; a live encounter's preview reads the
        situations of the rolls its attack's turn makes)."""
        rules = self.fight.rules
        stats = list(rules.bound.table)
        clips = sorted(set(rules.bound.clip.values()))
        key = SituationKey(rules, stats=stats, clips=clips, overrides=sorted(attack_fields), own=own)
        cols = key.columns(
            self.state.per, np.arange(self.n), np.maximum(actor, 0), attack, np.maximum(target, 0), attack_fields
        )
        return key, np.stack(cols, axis=1)

    def _resolve_exact(
        self,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray],
        fields: tuple[str, ...],
        own: tuple[str, ...] | None = None,
    ) -> tuple[IntArray, dict[str, IntArray]]:
        """Each row of `mask` expanded into its situation's outcome rows (the rest kept, one row each), all at once:
        the tables laid end to end (a row outside `mask` reads one empty outcome of the whole weight), each row
        repeated by its table's size and read at its table's place. The rows come out grouped by situation, in the
        order of the situations' keys, each row's outcomes in its table's order."""
        situations, keys = self.situations(actor, attack, target, attack_fields, own)
        keys[~mask] = -1
        leads, inverse = distinct(list(keys.T))
        tables: list[OutcomeTable | None] = []
        for key in keys[leads]:
            s = None if key[0] < 0 else situations.decode(key)
            tables.append(None if s is None else outcome_table(self.fight, s, self.depth, s.clips, fields))
        common = lcm(*[tb.total for tb in tables if tb is not None])
        flat = _laid_end_to_end(tables, fields, common)
        group = inverse.reshape(-1)
        order = np.argsort(group, kind="stable")
        reps = flat.sizes[group[order]]
        idx = np.repeat(order, reps).astype(np.int64)
        offset = np.arange(idx.size) - np.repeat(np.cumsum(reps) - reps, reps)
        at = np.repeat(flat.starts[group[order]], reps) + offset
        rows = flat.columns[at]
        out = {f: np.ascontiguousarray(rows[:, i]) for i, f in enumerate(fields)}
        cut = flat.beyond[at]
        self._expand(idx, flat.weights[at], common)
        if cut.any():
            self.emit("beyond_depth", [self.set("cut", cut, 1)])
        return idx, out


class _Flat:
    """Outcome tables laid end to end: their rows' fields (one column per field), weights over the common total and
    whether each row lies beyond the depth (the remainder's row); per table its number of rows and its first."""

    def __init__(self, columns: IntArray, weights: npt.NDArray[np.object_], beyond: BoolArray, sizes: IntArray) -> None:
        self.columns, self.weights, self.beyond, self.sizes = columns, weights, beyond, sizes
        self.starts = np.cumsum(sizes) - sizes


def _laid_end_to_end(tables: Sequence[OutcomeTable | None], fields: tuple[str, ...], common: int) -> _Flat:
    """Each table's rows, then one row for its weight beyond the depth (when it has some), its weights over
    `common`; None (the rows no attack is resolved for) one empty row of the whole weight. Each table's own rows
    laid out once (`OutcomeTable.laid`)."""
    empty = (np.zeros((1, len(fields)), dtype=np.int64), np.zeros(1, dtype=bool), np.ones(1, dtype=object))
    laid = [empty if table is None else table.laid(fields) for table in tables]
    sizes = np.asarray([beyond.size for _, beyond, _ in laid], dtype=np.int64)
    scale = np.empty(len(tables), dtype=object)
    scale[:] = [common if table is None else common // table.total for table in tables]
    weights = np.concatenate([numerators for _, _, numerators in laid]) * np.repeat(scale, sizes)
    columns = np.concatenate([rows for rows, _, _ in laid])
    return _Flat(columns, weights, np.concatenate([beyond for _, beyond, _ in laid]), sizes)
