"""The table sampler (docs/architecture.md, "What is exact and how"): a batch of fights; each attack's
outcome is one draw from its exact joint table (built by the system's `resolve` once per attack and stats,
cached), rolls beyond the table's depth read from a deeper table of the same situation (`modes/deep.py`). The
same distribution as the direct sampler."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.fight.contract import ALL, LoadedFight, Rows
from tohit.core.fight.rows import dense_rank, first_of_each, gather_stats, spread, take_at
from tohit.core.fight.state import NARROW, BoolArray, IntArray, every_row, narrow_fits, wide
from tohit.core.fight.words import Words
from tohit.core.steps import Silent
from tohit.core.support import Columns
from tohit.core.system import Dice
from tohit.engine import joint
from tohit.engine.fight import situation as situations
from tohit.engine.fight.caches import alias_tables, caches
from tohit.engine.fight.modes.deep import DeepTables
from tohit.engine.fight.modes.sample import TABLE_DEPTH, DirectSample
from tohit.engine.fight.situation import CODED, Packed, Situation, SituationKey, pack, packed
from tohit.engine.fight.stack import TableSampler, TableStack


def _one_table(
    stack: TableStack,
    sm: TableSampler,
    local: npt.NDArray[np.integer[Any]],
    n: int,
    rows: IntArray,
    fields: tuple[str, ...],
) -> dict[str, IntArray]:
    """The outcome fields of rows that all drew from one table (`local`: each row's joint row in it), read from the
    table's own columns of the stack (a view from its offset), with no offset added to each row. A row beyond the
    depth reads 0 there, as in the whole stack, until its tail is resolved."""
    if rows.size == n:
        return {f: stack.read(f, local, sm) for f in fields}
    return {f: spread(stack.read(f, local, sm), rows, n) for f in fields}


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

    def resolve_at(
        self,
        rows: IntArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray] | None = None,
        *,
        kind: str = "attack",
        note: Words = "",
        fields: tuple[str, ...] | None = None,
    ) -> tuple[Rows, IntArray, dict[str, IntArray]]:
        """`resolve` on the fights `rows` alone (FightContext.resolve_at): the rows' draws as `resolve` makes them
        (the same dice in the same order), the fields one entry per row, no array of the batch's size."""
        fields = fields or self.fight.rules.outcome_fields
        return ALL, rows, self._resolve_rows(rows, actor, attack, target, attack_fields or {}, fields, None)

    def _resolve_table(
        self,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray],
        fields: tuple[str, ...],
    ) -> dict[str, IntArray]:
        """`_resolve_rows` on the rows of `mask`, the fields over the whole batch (0 off the mask)."""
        n = self.n
        if mask.all():  # every row resolves (most steps of a duel): no positions to find
            return self._resolve_rows(every_row(n), actor, attack, target, attack_fields, fields, n)
        rows = np.flatnonzero(mask)
        return self._resolve_rows(
            rows,
            actor.take(rows),
            attack.take(rows),
            target.take(rows),
            {f: v.take(rows) for f, v in attack_fields.items()},
            fields,
            n,
        )

    def _resolve_rows(
        self,
        rows: IntArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray],
        fields: tuple[str, ...],
        n: int | None,
    ) -> dict[str, IntArray]:
        """One draw per attack from its joint table's exact weights, on the batch's rows `rows` (`actor`, `attack`,
        `target` and `attack_fields` one entry per row of them). The fields: over the batch's `n` rows (0 off
        `rows`), or (`n` None) one entry per row of `rows`.

        Rows are grouped by everything the outcome fields depend on (attacker, attack, target, the target's
        bound stats that change the outcome and its scalar stats, the attacker's stats, attack overrides); each
        group's table is built once by `resolve` on the joint support (`TABLE_DEPTH`; rolls beyond it are sampled
        from the roles' tails and resolved as they come). Each row is one exact integer draw from the alias table of its
        group's weights (groups with the same weights share it: their dice are the same, their outcomes differ)."""
        size = rows.size if n is None else n
        if rows.size == 0:
            return {f: np.zeros(size, dtype=np.int64) for f in fields}
        rules = self.fight.rules
        per = self.state.per
        stats = list(rules.bound.table)
        over = sorted(attack_fields)
        steady = situations.steady_values(self.fight, per)  # read once a batch, not on every resolve
        keyed = SituationKey(rules, stats=stats, overrides=over, steady=steady)
        comps = keyed.columns(per, rows, actor, attack, target, {f: attack_fields[f] for f in over})
        codes = packed(comps)
        groups = _Groups(codes.code, codes.radix)
        found = caches(self.fight).samplers.setdefault((tuple(stats), tuple(over), *sorted(steady.items())), {})
        samplers = []
        situations_met = groups.values(codes, comps)
        for values in situations_met:
            sm = found.get(tuple(values))
            if sm is None:
                sm = found[tuple(values)] = self._sampler(keyed.decode(values))
            samplers.append(sm)
        local: npt.NDArray[np.integer[Any]]
        beyond: BoolArray | None
        if len(samplers) == 1:  # one situation (every step of a duel): the table's own matrix, no stack offsets
            sm = samplers[0]
            tables = alias_tables(self.fight)
            local = tables.of(sm).sample(self.rng, rows.size)
            out = _one_table(tables.stack, sm, local, size, rows, fields)
            beyond = tables.stack.beyond_at(local, sm) if sm.deep else None
        else:
            local, out, beyond = self._draw_groups(groups, samplers, rows, fields, size)
        if beyond is not None:  # rolls past the table's depth: their tails sampled, then resolved
            b = np.flatnonzero(beyond)
            if b.size:  # each row's sampler and joint row read at those rows alone
                owner = groups.each(list(range(len(samplers))), b)
                joint_rows: IntArray = wide(local.take(b))
                who = [tuple(values[:3]) for values in situations_met]  # each sampler's (c, a, t)
                put = b if n is None else rows.take(b)  # where in `out` those rows are
                self._resolve_beyond(b, rows, joint_rows, owner, (samplers, who), comps, attack_fields, (out, put))
        return out

    def _draw_groups(
        self, groups: _Groups, samplers: list[TableSampler], rows: IntArray, fields: tuple[str, ...], n: int
    ) -> tuple[npt.NDArray[np.integer[Any]], dict[str, IntArray], BoolArray]:
        """(each row's joint row in its table, the outcome fields, which rows fell beyond the depth) of rows in
        several groups: one alias draw per row from the alias table of its group's weights (groups with the same
        weights, the same dice with outcomes told apart by stats, share one draw call), read from the stack. The
        fields over `n` rows: the batch's (0 off `rows`), or `rows`' own (n == rows.size)."""
        tables = alias_tables(self.fight)
        stack = tables.stack
        layout = [sm.layout for sm in samplers]
        present = sorted(set(layout))
        local: npt.NDArray[np.integer[Any]]
        if len(present) == 1:  # int64, added to the offsets as it is
            local = tables.aliases[present[0]].sample(self.rng, rows.size)
        else:
            row_layout = groups.each(layout)
            local = np.empty(rows.size, dtype=np.int64)
            for lay in present:
                sel = np.flatnonzero(row_layout == lay)
                local[sel] = tables.aliases[lay].sample(self.rng, sel.size)
        joint_row = groups.each([sm.offset for sm in samplers])
        joint_row += local
        # `take`: far faster than [:, column]. The rows left out read 0, the stack's column of zeros: where a
        # `resolve` covers some of the batch's rows only, each row's column is spread once (column 0 where it does
        # not resolve) and each field read whole, not read at the rows and written into zeros field by field.
        at = joint_row if rows.size == n else spread(joint_row, rows, n)
        out = {f: stack.read(f, at) for f in fields}
        return local, out, stack.beyond_at(joint_row)

    def _resolve_beyond(
        self,
        b: IntArray,
        rows: IntArray,
        local: IntArray,
        owner: IntArray,
        met: tuple[list[TableSampler], list[tuple[int, ...]]],
        comps: list[IntArray],
        attack_fields: dict[str, IntArray],
        written: tuple[dict[str, IntArray], IntArray],
    ) -> None:
        """Resolve the rows whose draw fell beyond the table's depth (`b`: their places among the resolve's rows
        `rows`, whose `attack_fields` are one entry per row; `local`: their joint rows; `owner`: their samplers, of
        `met`: the samplers and their (c, a, t); `written`: the outcome fields and those rows' places in them): their
        dice read at once from the fight's `_TailDice` (every table's role columns side by side), the tail dice sampled
        (conditioned on being beyond) group by group in the groups' order, their outcomes read from the deeper table
        of their situation (`DeepTables`), and the few rows those do not hold (dice past its depth too) resolved by
        `resolve` once per attacker, attack and target whose blocks differ (`situations.twin`: a fight's copies of
        one creature share the call), the stats fed as arrays."""
        fight = self.fight
        samplers = met[0]
        out, put = written
        drawn = np.flatnonzero(np.bincount(owner, minlength=len(samplers))).tolist()  # the samplers drawn here
        # (c, a, t) decide the table's layout; the scalar groups and codes what the system reads as plain values.
        coded = sorted(f for f in attack_fields if f.startswith(CODED))
        keyed = SituationKey(fight.rules, overrides=coded, own=())
        state_rows = rows[b]
        cols = keyed.columns(
            self.state.per,
            state_rows,
            comps[0][b],
            comps[1][b],
            comps[2][b],
            {f: attack_fields[f][b] for f in coded},
        )
        if len(cols) == 3:  # the groups are the rows' samplers' (c, a, t), in order: ranked by sampler, not by row
            count, inv = _ranked(met[1], drawn, owner)
        else:
            count, inv = dense_rank(pack(cols)[0])  # the groups, in the columns' lexicographic order
        leads = first_of_each(inv, count)
        tails = _tail_dice(fight)
        blocks = np.zeros(len(samplers), dtype=np.int64)
        for i in drawn:
            blocks[i] = tails.block(samplers[i])
        at = blocks.take(owner) + local
        lead_samplers = [samplers[i] for i in owner.take(leads).tolist()]
        dice = tails.dice(at, inv, lead_samplers, self.rng)
        done, deep = _deep_tables(fight).read(fight, samplers, owner, dice, list(out))
        if done.any():  # the rows whose outcome a deeper table of their situation holds
            read = put[done]
            for f in out:
                _put(out, f, read, deep[f][done])
            if done.all():
                return
        lead_values = np.stack([col.take(leads) for col in cols], axis=1).tolist()
        alike: dict[tuple[Any, ...], list[int]] = {}
        for u, values in enumerate(lead_values):  # one resolve for the groups whose blocks are the same
            key = (situations.twin(fight, *values[:3]), tuple(values[3:]), tuple(lead_samplers[u].table.roles))
            alike.setdefault(key, []).append(u)
        plain = {f: v.take(b) for f, v in attack_fields.items() if not f.startswith(CODED)}  # at the rows of `b`
        for groups in alike.values():
            sel = _rows_of_groups(inv, groups, count)
            sel = sel[~done.take(sel)]
            if sel.size == 0:
                continue
            situation = keyed.decode(lead_values[groups[0]])
            here = state_rows[sel]
            at_sel = {f: v[sel] for f, v in plain.items()}
            values = _row_values(fight, situation, self.state.per, here, cols[0][sel], cols[2][sel], at_sel)
            scenario, target = situations.blocks(fight, situation.c, situation.a, situation.t, values)
            supports = lead_samplers[groups[0]].table.supports
            picked = {role: {c: dice[role, c][sel] for c in sup.columns} for role, sup in supports.items()}
            outcome = fight.system.resolve(scenario, target, Dice(picked), Silent())
            for f in out:
                _put(out, f, put[sel], outcome[f])

    def _sampler(self, situation: Situation) -> TableSampler:
        """The situation's joint table at `TABLE_DEPTH`, ready for drawing (built once per fight)."""
        held = caches(self.fight).sampler
        key = situation.ident  # one tuple: the cache's key and the sampler's
        found = held.get(key)
        if found is None:
            fight = self.fight
            scenario, target = situations.situation_blocks(fight, situation)
            table = joint.build(fight.system, scenario, target, TABLE_DEPTH)
            found = held[key] = TableSampler(table, key, fight.rules.outcome_fields)
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
        self._first = first_of_each(inverse, count)

    @property
    def first(self) -> IntArray:
        """Each group's first row."""
        if self._first is None:
            assert self.by_code is not None
            self._first = first_of_each(self.code, self.radix).take(self.by_code)
        return self._first

    def values(self, codes: Packed, columns: list[IntArray]) -> list[list[int]]:
        """Each group's values of the packed `columns` (`codes`: their `packed`), in the groups' order."""
        if self.by_code is not None:
            return codes.unpack(self.by_code)
        if self.radix == 1:  # one group: every column holds one value, its minimum (no row read)
            return [list(codes.lows)]
        found: list[list[int]] = np.stack([col[self.first] for col in columns], axis=1).tolist()
        return found

    def each(self, values: list[int], at: IntArray | None = None) -> IntArray:
        """Each row's group's value (`values`: one per group, in the groups' order), as a new array; of the rows
        `at` alone, when given."""
        per_group = np.asarray(values, dtype=np.int64)
        if self.inverse is not None:
            return take_at(per_group, self.inverse if at is None else self.inverse.take(at))
        if self.by_code is None:
            return np.full(self.code.size if at is None else at.size, per_group[0], dtype=np.int64)
        table = np.zeros(self.radix, dtype=np.int64)
        table[self.by_code] = per_group
        return take_at(table, self.code if at is None else self.code.take(at))


class _TailDice:
    """The dice of every sampled table, for the rows beyond a table's depth: each role's columns on each joint row
    (the tail's place a stand-in), and which rows lie beyond a role's depth, one block per distinct set of dice
    (tables of the same supports share it), so that the dice of all the rows beyond read at once."""

    def __init__(self, stack: TableStack) -> None:
        #: The stack whose samplers the blocks serve (a new stack, new blocks).
        self.stack = stack
        self.columns: dict[tuple[str, str], IntArray] = {}
        self.beyond: dict[str, BoolArray] = {}
        #: The columns and the beyond flags stacked (one row each, in the dicts' order): read in one call each.
        self._stacked: tuple[IntArray, BoolArray] | None = None
        self.size = 0
        #: Each sampler's block (by its `number`), and each set of dice's block.
        self.of_sampler: dict[int, int] = {}
        self.of_dice: dict[tuple[Any, ...], int] = {}

    def block(self, sm: TableSampler) -> int:
        """Where the sampler's dice start (its block made on first use)."""
        found = self.of_sampler.get(sm.number)
        if found is None:
            table = sm.table
            key = tuple(
                (name, sup.size, sup.remainder, tuple((c, v.tobytes()) for c, v in sup.columns.items()))
                for name, sup in table.supports.items()
            )
            found = self.of_dice.get(key)
            if found is None:
                found = self.of_dice[key] = self._add(table)
            self.of_sampler[sm.number] = found
        return found

    def _add(self, table: joint.JointTable) -> int:
        start, rows = self.size, int(table.weights.size)
        self.size += rows
        self.columns = {key: np.concatenate([col, np.zeros(rows, dtype=np.int64)]) for key, col in self.columns.items()}
        self.beyond = {name: np.concatenate([f, np.zeros(rows, dtype=bool)]) for name, f in self.beyond.items()}
        for name, sup in table.supports.items():
            ri = table.index[name]
            if sup.remainder:
                self.beyond.setdefault(name, np.zeros(self.size, dtype=bool))[start:] = ri == sup.size
            at = np.minimum(ri, sup.size - 1)
            for c, v in sup.columns.items():
                self.columns.setdefault((name, c), np.zeros(self.size, dtype=np.int64))[start:] = v[at]
        self._stacked = None  # stacked anew, with this table's block, on the next read
        return start

    def dice(
        self, at: IntArray, inv: IntArray, leads: list[TableSampler], rng: np.random.Generator
    ) -> dict[tuple[str, str], IntArray]:
        """Each row's role columns (`at`: its block's start + its joint row), the tails of the rows beyond a
        role's depth sampled group by group (`inv`: each row's group; `leads`: each group's first sampler, whose
        roles sample), in the groups' order and each table's roles' order: the draws of the groups one by one."""
        if self._stacked is None:
            flags_of = list(self.beyond.values())
            stacked = np.stack(flags_of) if flags_of else np.zeros((0, self.size), dtype=bool)
            self._stacked = np.stack(list(self.columns.values())), stacked
        columns, beyond_flags = self._stacked
        read: IntArray = columns.take(at, axis=1)
        beyond: BoolArray = beyond_flags.take(at, axis=1)
        out = dict(zip(self.columns, read, strict=True))  # rows of `read`: views, written where the tails go
        some: list[bool] = np.asarray(beyond.any(axis=1)).tolist()
        flags = {name: f for name, f, on in zip(self.beyond, beyond, some, strict=True) if on}
        counts = {name: np.bincount(inv[f], minlength=len(leads)).tolist() for name, f in flags.items()}
        parts: dict[str, list[Columns]] = {name: [] for name in flags}
        calls = [
            (name, role, counts[name][u], sm.table.depth)
            for u, sm in enumerate(leads)
            for name, role in sm.table.roles.items()
            if name in counts and counts[name][u]
        ]
        for (name, *_), tail in zip(calls, _tails_in_turn(rng, calls), strict=True):
            parts[name].append(tail)
        for name, f in flags.items():
            rows = np.flatnonzero(f)
            if len(leads) > 1:  # the rows group by group, as their tails were drawn
                rows = rows[np.argsort(inv[rows], kind="stable")]
            for c in parts[name][0]:
                drawn = parts[name]
                out[name, c][rows] = drawn[0][c] if len(drawn) == 1 else np.concatenate([p[c] for p in drawn])
        return out


def _put(out: dict[str, IntArray], field: str, at: IntArray, values: Any) -> None:
    """out[field][at] = values, for the rows past a table's depth: a field read as int32 (its stack's values so far
    within NARROW_LIMIT, `state.narrow_range`) is widened to int64 first where a value written is past the limit
    (a deeper table's or `resolve`'s: the stack holds those rows as 0), so that none wraps."""
    column = out[field]
    if column.dtype == NARROW and not narrow_fits(np.asarray(values, dtype=np.int64)):
        column = out[field] = wide(column)
    column[at] = values


def _tails_in_turn(rng: np.random.Generator, calls: list[tuple[str, Any, int, int]]) -> list[Columns]:
    """Each call's tail (name, role, count, depth): `role.sample_beyond(rng, count, depth)`, in turn. Calls all of
    one role class and depth whose class offers `sample_beyond_each(rng, counts, depth)` (the same draws, made at
    once: a game's open rolls past the depth) are drawn by it."""
    kinds = {(type(role), depth) for _, role, _, depth in calls}
    each = getattr(type(calls[0][1]), "sample_beyond_each", None) if len(kinds) == 1 else None
    if each is None:
        return [role.sample_beyond(rng, k, depth) for _, role, k, depth in calls]
    drawn: list[Columns] = each(rng, [k for _, _, k, _ in calls], calls[0][3])
    return drawn


def _tail_dice(fight: LoadedFight) -> _TailDice:
    """The fight's `_TailDice`, for its current stack."""
    stack = alias_tables(fight).stack
    held: dict[str, _TailDice] = fight.memo("tail_dice", dict)
    found = held.get("dice")
    if found is None or found.stack is not stack:
        found = held["dice"] = _TailDice(stack)
    return found


def _deep_tables(fight: LoadedFight) -> DeepTables:
    """The fight's deeper tables (made on first use)."""
    held: dict[str, DeepTables] = fight.memo("deep_tables", dict)
    found = held.get("deep")
    if found is None:
        found = held["deep"] = DeepTables(fight.rules.outcome_fields)
    return found


def _ranked(keys: list[tuple[int, ...]], drawn: list[int], owner: IntArray) -> tuple[int, IntArray]:
    """`dense_rank` of the rows' keys where each row's key is its sampler's (`owner`: each row's sampler; `keys`:
    each sampler's; `drawn`: the samplers of the rows): the distinct keys of the rows ranked in Python, once a
    sampler."""
    order = {key: r for r, key in enumerate(sorted({keys[i] for i in drawn}))}
    rank = np.zeros(len(keys), dtype=np.int64)
    for i in drawn:
        rank[i] = order[keys[i]]
    return len(order), rank.take(owner)


def _rows_of_groups(inv: IntArray, groups: list[int], count: int) -> IntArray:
    """The rows of the groups `groups` (of `count`; `inv`: each row's group)."""
    if len(groups) == count:
        return np.arange(inv.size)
    if len(groups) == 1:
        return np.flatnonzero(inv == groups[0])
    chosen = np.zeros(count, dtype=bool)
    chosen[groups] = True
    return np.flatnonzero(chosen.take(inv))


def _row_values(
    fight: LoadedFight, s: Situation, per: Any, at: IntArray, c: IntArray, t: IntArray, plain: dict[str, IntArray]
) -> situations.Values:
    """What `resolve` reads on the state's rows `at`, each with its own attacker `c` and target `t` (twins share
    a call): their stats as arrays, the field values of the situation's groups, the rows' plain attack overrides
    (`plain`: one entry per row of `at`) and the situation's codes (`situations.state_values`, row by row); int64, as
    `resolve` is always fed (`state.wide`)."""
    rules = fight.rules
    attacker: dict[str, Any] = {k: wide(v) for k, v in gather_stats(per, rules.bound.attacker, at, c).items()}
    attacker.update({k: rules.field_value(k, g) for k, g in s.own_groups.items()})
    target: dict[str, Any] = {k: wide(v) for k, v in gather_stats(per, rules.bound.target, at, t).items()}
    target.update({k: rules.field_value(k, g) for k, g in s.groups.items()})
    return {**{f: wide(v) for f, v in plain.items()}, **s.overrides}, attacker, target
