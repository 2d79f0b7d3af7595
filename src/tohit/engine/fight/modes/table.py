"""The table sampler (docs/architecture.md, "What is exact and how"): a batch of fights; each attack's
outcome is one draw from its exact joint table (built by the system's `resolve` once per attack and stats,
cached), rolls beyond the table's depth resolved as they come. The same distribution as the direct sampler."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.fight.contract import ALL, Rows
from tohit.core.fight.rows import dense_rank, distinct
from tohit.core.fight.state import BoolArray, IntArray
from tohit.core.fight.words import Words
from tohit.core.steps import Silent
from tohit.core.support import Columns
from tohit.core.system import Dice
from tohit.engine import joint
from tohit.engine.fight import situation as situations
from tohit.engine.fight.caches import alias_tables, caches
from tohit.engine.fight.modes.sample import ROLE_TABLE_DEPTH, DirectSample
from tohit.engine.fight.situation import CODED, Packed, Situation, SituationKey, packed
from tohit.engine.fight.stack import TableSampler


class TableSample(DirectSample):
    """Monte Carlo, "table": one exact integer draw per attack from its joint table (a resolve with `shared`
    dice, one roll for every target of an ability, is sampled directly)."""

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
        if shared is not None:
            return super().resolve(
                mask, actor, attack, target, attack_fields, kind=kind, note=note, fields=fields, shared=shared
            )
        fields = fields or self.fight.rules.outcome_fields
        return ALL, self._resolve_table(mask, actor, attack, target, attack_fields or {}, fields)

    def _resolve_table(
        self,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray],
        fields: tuple[str, ...],
    ) -> dict[str, IntArray]:
        """One draw per attack from its joint table's exact weights.

        Rows are grouped by everything the outcome fields depend on (attacker, attack, target, the target's
        bound stats that change the outcome and its scalar stats, the attacker's stats, attack overrides); each
        group's table is built once by `resolve` on the joint support (depth 1; rolls beyond it are sampled from
        the roles' tails and resolved as they come). Each row is one exact integer draw from the alias table of its
        group's weights (groups with the same weights share it: their dice are the same, their outcomes differ)."""
        n = self.n
        rows = np.flatnonzero(mask)
        if rows.size == 0:
            return {f: np.zeros(n, dtype=np.int64) for f in fields}
        rules = self.fight.rules
        per = self.state.per
        whole = rows.size == n
        a_rows, k_rows, t_rows = (actor, attack, target) if whole else (actor[rows], attack[rows], target[rows])
        stats = list(rules.bound.table)
        over = sorted(attack_fields)
        keyed = SituationKey(rules, stats=stats, overrides=over)
        comps = keyed.columns(
            per, rows, a_rows, k_rows, t_rows, {f: attack_fields[f] if whole else attack_fields[f][rows] for f in over}
        )
        codes = packed(comps)
        groups = _Groups(codes.code, codes.radix)
        found = caches(self.fight).samplers.setdefault((tuple(stats), tuple(over)), {})
        samplers = []
        for values in groups.values(codes, comps):
            sm = found.get(tuple(values))
            if sm is None:
                sm = found[tuple(values)] = self._sampler(keyed.decode(values))
            samplers.append(sm)
        # One alias draw per row, from the alias table of its group's weights: groups with the same weights
        # (the same dice, outcomes told apart by stats) share one draw call.
        tables = alias_tables(self.fight)
        stack = tables.stack
        layout = [sm.layout for sm in samplers]
        present = sorted(set(layout))
        local: npt.NDArray[np.integer[Any]]
        if len(present) == 1:  # int32, added to the int64 offsets as it is (no copy)
            local = tables.aliases[present[0]].sample(self.rng, rows.size)
        else:
            row_layout = groups.each(layout)
            local = np.empty(rows.size, dtype=np.int64)
            for lay in present:
                sel = np.flatnonzero(row_layout == lay)
                local[sel] = tables.aliases[lay].sample(self.rng, sel.size)
        joint_row = groups.each([sm.offset for sm in samplers])
        joint_row += local
        if whole:
            column = joint_row
        else:  # the rows left out read the stack's column of zeros
            column = np.zeros(n, dtype=np.int64)
            column[rows] = joint_row
        out = {f: stack.matrix[stack.at[f]].take(column) for f in fields}  # `take`: far faster than [:, column]
        beyond = stack.beyond.take(joint_row)
        if beyond.any():  # rolls past the table's depth: their tails sampled, then resolved
            inverse = groups.each(list(range(len(samplers))))
            wide: IntArray = local.astype(np.int64, copy=False)
            self._resolve_beyond(beyond, rows, wide, inverse, samplers, comps, attack_fields, out)
        return out

    def _resolve_beyond(
        self,
        beyond: BoolArray,
        rows: IntArray,
        local: IntArray,
        inverse: IntArray,
        samplers: list[TableSampler],
        comps: list[IntArray],
        attack_fields: dict[str, IntArray],
        out: dict[str, IntArray],
    ) -> None:
        """Resolve the rows whose draw fell beyond the table's depth: the tail dice are sampled (conditioned on
        being beyond), group by group in the groups' order, and `resolve` runs once per attacker, attack and target
        whose blocks differ (`situations.twin`: a fight's copies of one creature share the call), the stats fed as
        arrays."""
        fight = self.fight
        b = np.flatnonzero(beyond)
        # (c, a, t) decide the table's layout; the scalar groups and codes what the system reads as plain values.
        coded = sorted(f for f in attack_fields if f.startswith(CODED))
        keyed = SituationKey(fight.rules, overrides=coded, own=())
        cols = keyed.columns(
            self.state.per,
            rows[b],
            comps[0][b],
            comps[1][b],
            comps[2][b],
            {f: attack_fields[f][rows[b]] for f in coded},
        )
        plain = {f: v for f, v in attack_fields.items() if not f.startswith(CODED)}
        leads, inv = distinct(cols)
        alike: dict[tuple[Any, ...], list[_Tail]] = {}
        for u, lead in enumerate(leads.tolist()):  # each group's tail dice, drawn in the groups' order
            sel = b[inv == u]
            situation = keyed.decode([col[lead] for col in cols])
            sm = samplers[int(inverse[sel[0]])]
            state_rows = rows[sel]
            values = situations.state_values(fight.rules, situation, self.state.per, state_rows, plain)
            dice = sm.table.columns(local[sel], self.rng)
            shape = tuple((role, tuple(columns)) for role, columns in dice.items())
            key = (situations.twin(fight, situation.c, situation.a, situation.t), situation.values[3:], shape)
            alike.setdefault(key, []).append(_Tail(situation, state_rows, values, dice))
        for tails in alike.values():  # one resolve for the groups whose blocks are the same
            lead_tail, state_rows, values, dice = _merged(tails)
            situation = lead_tail.situation
            scenario, target = situations.blocks(fight, situation.c, situation.a, situation.t, values)
            outcome = fight.system.resolve(scenario, target, Dice(dice), Silent())
            for f in out:
                out[f][state_rows] = outcome[f]

    def _sampler(self, situation: Situation) -> TableSampler:
        """The situation's joint table at depth 1, ready for drawing (built once per fight)."""
        held = caches(self.fight).sampler
        found = held.get(situation.ident)
        if found is None:
            fight = self.fight
            values = situations.situation_values(fight.rules, situation)
            scenario, target = situations.blocks(fight, situation.c, situation.a, situation.t, values)
            table = joint.build(fight.system, scenario, target, ROLE_TABLE_DEPTH)
            found = held[situation.ident] = TableSampler(table, scenario, target, fight.rules.outcome_fields)
            alias_tables(fight).add(found)
        return found


#: Most packed codes `_Groups` reads through a table of one entry per code (beyond it, a dense rank).
DIRECT_CODES = 1 << 22


class _Groups:
    """The groups of a resolve's rows by their packed situation code (`pack`: 0 to radix - 1), in increasing code
    order: each group's columns' values (`values`) and first row, and a value per group spread over the rows. While
    the codes are few, through a table of one entry per code (no rank of the rows; a group's values unpacked from
    its code); else by `dense_rank`."""

    def __init__(self, code: IntArray, radix: int) -> None:
        n = code.size
        self.code, self.radix = code, radix
        self.inverse: IntArray | None = None
        #: The codes present, in increasing order (None: one group, or ranked).
        self.by_code: IntArray | None = None
        self._first: IntArray | None = None
        if radix == 1:
            self._first = np.zeros(1, dtype=np.int64)
            return
        if radix <= DIRECT_CODES and radix <= 8 * n + 4096:
            present = np.zeros(radix, dtype=bool)
            present[code] = True
            self.by_code = np.flatnonzero(present)
            return
        count, inverse = dense_rank(code)
        self.inverse = inverse
        self._first = np.empty(count, dtype=np.int64)
        self._first[inverse[::-1]] = np.arange(n - 1, -1, -1)

    @property
    def first(self) -> IntArray:
        """Each group's first row."""
        if self._first is None:
            assert self.by_code is not None
            first_of = np.full(self.radix, self.code.size, dtype=np.int64)
            first_of[self.code[::-1]] = np.arange(self.code.size - 1, -1, -1)  # the last write wins: the first row
            self._first = first_of.take(self.by_code)
        return self._first

    def values(self, codes: Packed, columns: list[IntArray]) -> list[list[int]]:
        """Each group's values of the packed `columns` (`codes`: their `packed`), in the groups' order."""
        if self.by_code is not None:
            return codes.unpack(self.by_code)
        found: list[list[int]] = np.stack([col[self.first] for col in columns], axis=1).tolist()
        return found

    def each(self, values: list[int]) -> IntArray:
        """Each row's group's value (`values`: one per group, in the groups' order), as a new array."""
        per_group = np.asarray(values, dtype=np.int64)
        if self.inverse is not None:
            return per_group.take(self.inverse)
        if self.by_code is None:
            return np.full(self.code.size, per_group[0], dtype=np.int64)
        table = np.zeros(self.radix, dtype=np.int64)
        table[self.by_code] = per_group
        return table.take(self.code)


@dataclass
class _Tail:
    """The rows of one group beyond a table's depth: its situation, its rows of the state, the values fed to its
    blocks (`situations.state_values`) and its dice (the table's columns, tails sampled)."""

    situation: Situation
    rows: IntArray
    values: situations.Values
    dice: dict[str, Columns]


def _merged(tails: list[_Tail]) -> tuple[_Tail, IntArray, situations.Values, dict[str, Columns]]:
    """Groups whose blocks are the same (`situations.twin`) as one: their rows, values and dice end to end (a value
    fed as one number is the same in each group: it comes from their shared key)."""
    first = tails[0]
    if len(tails) == 1:
        return first, first.rows, first.values, first.dice

    def joined(parts: list[Any]) -> Any:
        return np.concatenate(parts) if np.ndim(parts[0]) else parts[0]

    values = tuple({k: joined([t.values[i][k] for t in tails]) for k in first.values[i]} for i in range(3))
    dice = {
        role: {c: np.concatenate([t.dice[role][c] for t in tails]) for c in columns}
        for role, columns in first.dice.items()
    }
    rows = np.concatenate([t.rows for t in tails])
    return first, rows, (values[0], values[1], values[2]), dice
