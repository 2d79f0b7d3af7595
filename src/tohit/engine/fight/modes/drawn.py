"""What the modes that draw their dice share (narration and the direct sampler; the table sampler for choices
and rolls besides attacks): uniform choices, dice and table rolls from the seeded generator, and the grouping
of a resolve's rows by situation, each group handed to the mode's `_resolve_group`."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from tohit.core.fight.contract import ALL, Rows
from tohit.core.fight.state import BoolArray, IntArray
from tohit.core.fight.words import Words
from tohit.core.outcome import Outcome
from tohit.engine.fight.modes.base import StepContext
from tohit.engine.fight.situation import CODED, Situation, SituationKey, pack


class Drawn(StepContext):
    """A step whose dice are drawn from `rng`: every row keeps its own row (`idx` is `ALL`)."""

    def choose(self, allowed: BoolArray) -> tuple[Rows, IntArray]:
        n = allowed.shape[0]
        counts = allowed.sum(axis=1)
        pick = np.floor(self.rng.random(n) * np.maximum(counts, 1)).astype(np.int64)
        rank = np.cumsum(allowed, axis=1) - 1
        hit = allowed & (rank == pick[:, None])
        choice = np.where(counts > 0, np.argmax(hit, axis=1), -1).astype(np.int64)
        return ALL, choice

    def die(self, mask: BoolArray, sides: IntArray) -> tuple[Rows, IntArray]:
        n = self.n
        high = np.broadcast_to(np.maximum(sides, 1), (n,))
        faces = np.where(mask, self.rng.integers(1, high + 1, size=n), 0).astype(np.int64)
        return ALL, faces

    def draw(
        self, mask: BoolArray, which: IntArray, tables: Sequence[tuple[IntArray, Sequence[int]]]
    ) -> tuple[Rows, IntArray]:
        n = self.n
        which = np.asarray(which, dtype=np.int64)
        out = np.zeros(n, dtype=np.int64)
        rows = np.flatnonzero(mask)
        for k in np.unique(which[rows]).tolist():
            sel = rows[which[rows] == k]
            values, weights = tables[k]
            cumulative = np.cumsum(np.asarray([int(w) for w in weights], dtype=np.int64))
            u = self.rng.integers(0, int(cumulative[-1]), size=sel.size)
            out[sel] = np.asarray(values, dtype=np.int64)[np.searchsorted(cumulative, u, side="right")]
        return ALL, out

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
        fields = fields or self.fight.rules.outcome_fields
        attack_fields = attack_fields or {}
        if said_fields is not None and self.narrating:  # only the narrated trace reads them
            attack_fields = {**attack_fields, **said_fields()}
        out = {f: np.zeros(self.n, dtype=np.int64) for f in fields}
        plain = {f: v for f, v in attack_fields.items() if not f.startswith(CODED)}
        for grp, sel, situation in self._situations(mask, actor, attack, target, attack_fields):
            outcome = self._resolve_group(situation, grp, sel, plain, kind, note, shared)
            for f in fields:
                out[f][sel] = outcome[f]
        return ALL, out

    def _situations(
        self, mask: BoolArray, actor: IntArray, attack: IntArray, target: IntArray, attack_fields: dict[str, IntArray]
    ) -> Iterator[tuple[IntArray, Any, Situation]]:
        """The rows of `mask` grouped by their situation: who, which attack, whom, and what the system reads as
        plain values (target and attacker scalar stats, coded overrides); the rest is fed as arrays. Per group:
        its rows, how to select them (`ALL` when it is every row) and its situation."""
        n = self.n
        rows = np.flatnonzero(mask)
        if rows.size == 0:
            return
        whole = rows.size == n
        coded = sorted(f for f in attack_fields if f.startswith(CODED))
        situations = SituationKey(self.fight.rules, overrides=coded, own=())
        cols = situations.columns(
            self.state.per,
            rows,
            *((actor, attack, target) if whole else (actor[rows], attack[rows], target[rows])),
            {f: attack_fields[f] if whole else attack_fields[f][rows] for f in coded},
        )
        key, radix = pack(cols)
        for k in [None] if radix == 1 else np.unique(key):
            in_group = None if k is None else key == k
            grp = rows if in_group is None else rows[in_group]
            sel: Any = ALL if whole and grp.size == n else grp
            lead = 0 if in_group is None else int(np.argmax(in_group))
            yield grp, sel, situations.decode([col[lead] for col in cols])

    @abstractmethod
    def _resolve_group(
        self,
        situation: Situation,
        grp: IntArray,
        sel: Any,
        plain: dict[str, IntArray],
        kind: str,
        note: Words,
        shared: dict[str, Any] | None,
    ) -> Outcome:
        """The outcome of one group's resolve (`plain`: the attack overrides that are not codes, every row's)."""
