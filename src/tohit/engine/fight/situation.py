"""What a resolve's outcome depends on besides its dice, keyed in one place (design.md, "The one idea").

The exact chain, the table sampler, the direct sampler and the rolls beyond a table's depth all group the rows of
a resolve by situation: who attacks (c) with which attack (a) whom (t), the target's stats the outcome reads
(`table_stats`, and those the exact chain clips at), the groups of the scalar stats the system reads as plain
values, the attacker's own stats, the attack's overrides (plain values, and "target."/"attacker." codes) and
the groups of the attacker's scalar stats. `SituationKey` builds those columns, always in that order, and turns
one row of them back into a typed `Situation`; each path picks the parts it keys by.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tohit.core.fight.contract import FightRules
from tohit.core.fight.state import IntArray, gather


@dataclass(frozen=True)
class Situation:
    """One situation of a resolve, decoded: plain ints by name."""

    c: int
    a: int
    t: int
    #: The target's stats fed as values (exact tables and samplers are keyed by them).
    stats: dict[str, int]
    #: Target stats the exact chain caps outcome fields at (`table_clip`).
    clips: dict[str, int]
    #: Groups of the target's scalar stats (`group_value`).
    groups: dict[str, int]
    #: The attacker's own stats (`attacker_stats`).
    own: dict[str, int]
    #: Overrides of the attack block, and "target."/"attacker." codes.
    overrides: dict[str, int]
    #: Groups of the attacker's scalar stats.
    own_groups: dict[str, int]
    #: The key's values in order.
    values: tuple[int, ...]

    @property
    def ident(self) -> tuple[Any, ...]:
        """A hashable identity, names included (caches are keyed by it)."""
        parts = (self.stats, self.clips, self.groups, self.own, self.overrides, self.own_groups)
        return (self.c, self.a, self.t, *(tuple(sorted(p.items())) for p in parts))


class SituationKey:
    """The columns that tell situations apart, for a chosen set of parts, in the one canonical order."""

    def __init__(
        self,
        rules: FightRules,
        *,
        stats: Sequence[str] = (),
        clips: Sequence[str] = (),
        overrides: Sequence[str] = (),
        own: bool = True,
    ) -> None:
        self.rules = rules
        self.stats, self.clips, self.overrides = tuple(stats), tuple(clips), tuple(overrides)
        self.scalar = tuple(rules.scalar_stats)
        self.own = tuple(rules.attacker_stats) if own else ()
        self.own_scalar = tuple(rules.attacker_scalar_stats)

    def columns(
        self,
        per: Mapping[str, IntArray],
        rows: Any,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray],
    ) -> list[IntArray]:
        """One column per part, one entry per row: `actor`, `attack`, `target` and `attack_fields` are the
        rows' own (aligned with `rows`, the state's rows)."""
        group = self.rules.group_value
        cols = [actor, attack, target]
        cols += [gather(per[s], rows, target) for s in self.stats + self.clips]
        cols += [np.asarray(group(s, gather(per[s], rows, target)), dtype=np.int64) for s in self.scalar]
        cols += [gather(per[s], rows, actor) for s in self.own]
        cols += [attack_fields[f] for f in self.overrides]
        cols += [np.asarray(group(s, gather(per[s], rows, actor)), dtype=np.int64) for s in self.own_scalar]
        return cols

    def decode(self, values: Sequence[int]) -> Situation:
        """The situation of one row of the columns."""
        vals = tuple(int(v) for v in values)
        parts: list[dict[str, int]] = []
        i = 3
        for names in (self.stats, self.clips, self.scalar, self.own, self.overrides, self.own_scalar):
            parts.append(dict(zip(names, vals[i : i + len(names)], strict=True)))
            i += len(names)
        stats, clips, groups, own, overrides, own_groups = parts
        return Situation(vals[0], vals[1], vals[2], stats, clips, groups, own, overrides, own_groups, vals)


def pack(columns: Sequence[IntArray]) -> tuple[IntArray, int]:
    """Each row's columns packed into one int64 that keeps their lexicographic order (each column offset by its
    minimum, times the spans of those after it), and the number of distinct codes possible (1: one situation)."""
    n = len(columns[0]) if columns else 0
    code = np.zeros(n, dtype=np.int64)
    radix = 1
    for col in columns:
        col = np.asarray(col, dtype=np.int64)
        low = int(col.min())
        span = int(col.max()) - low + 1
        if span == 1:
            continue
        radix *= span
        if radix >= 2**62:  # pragma: no cover - far beyond any fight's stats
            raise ValueError("too many distinct attack situations to group")
        code = code * span + (col - low)
    return code, radix
