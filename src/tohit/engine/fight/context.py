"""One step of a batch of fights, fed dice three ways (design.md, "The one idea", applied to fights).

A fight module's `step` reads `ctx.state`, emits events (each applied at once by the pure `apply`) and
asks `ctx.resolve` for attack outcomes. The same step code runs in three modes:

- "narrate": one fight; dice are drawn face by face as at the table, each resolve is traced and every
  event is logged with the values it changed (from -> to);
- "sample": a batch of fights; each resolve gets dice sampled for all the fights it concerns at once,
  with the stats that changed during the fight (LP, AP, guard...) fed in as arrays, one value per fight;
- "enumerate": the exact chain; each fight row is expanded into one row per distinct outcome of the
  attack (from the system's exact odds at the stats of that row), with its exact probability, plus one
  row for the probability beyond the depth of open-ended dice (never dropped).

Expansions change the rows: `resolve` and `choose` return `idx`, the parent row of each new row, and the
caller re-indexes what it holds with it (`actor = actor[idx]`). In "narrate" and "sample" mode `idx` is
the identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from fractions import Fraction
from math import lcm
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from tohit.core.errors import InputError
from tohit.core.fight.contract import ALL, GMChoice, LoadedFight, Mode, Rows
from tohit.core.fight.rows import dense_rank, distinct
from tohit.core.fight.state import BoolArray, Change, Event, IntArray, State, apply_owned, change
from tohit.core.outcome import NULL_CODE, NULL_INT, Outcome
from tohit.core.roles import Role
from tohit.core.steps import Silent, Trace
from tohit.core.support import Support
from tohit.core.system import Dice
from tohit.engine import joint
from tohit.engine.alias import MAX_TOTAL, Alias
from tohit.engine.fight import policy
from tohit.engine.fight.situation import Situation, SituationKey, pack

Method = Literal["table", "direct"]
#: Depth of the role tables Monte Carlo samples from (rolls beyond it come from the role's tail).
ROLE_TABLE_DEPTH = 1
#: Keys of `attack_fields` with this prefix override a field of the target block instead (an integer code the
#: rules decode with `override_value`; the system reads it as a plain value, so rows are grouped by it).
TARGET = "target."
#: The same for a field of the attacker block ("attacker.<field>": e.g. an attacker grappled by a foe).
ATTACKER = "attacker."
CODED = (TARGET, ATTACKER)
#: Depth of open-ended dice in the exact chain (the rest is reported as `beyond depth`).
EXACT_DEPTH: int | None = None  # None: the system's default depth


class OutcomeTable:
    """The exact distribution of an attack's fight-relevant outcome fields, grouped, with the remainder."""

    def __init__(self, columns: dict[str, IntArray], weights: list[int], total: int, remainder: int) -> None:
        self.columns, self.weights, self.total, self.remainder = columns, weights, total, remainder
        #: Row weights, then the remainder's (when there is one), as Python ints over `total`.
        self.numerators = np.asarray([*weights, *([remainder] if remainder else [])], dtype=object)

    @property
    def size(self) -> int:
        return len(self.weights)


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
        #: Tables with the very same weights share one alias table (`layout`, set by the context): the dice
        #: do not depend on the stats that tell the tables apart, only the outcomes do.
        self.weights_key = (self.total, weights.tobytes())
        self.layout = -1
        #: Where its rows start in the fight's stack of every table's outcome matrix (set by the context).
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


Key = tuple[Any, ...]


@dataclass
class EngineCaches:
    """What the engine keeps for one fight while it runs it (exact tables, samplers, alias tables), typed: held
    by the fight through `LoadedFight.memo("engine", EngineCaches)`."""

    #: Roles of (c, a, t) with target or attacker fields overridden by code.
    override_roles: dict[Key, dict[str, Role]] = dc_field(default_factory=dict)
    #: The table sampler of each situation, by the parts its key has (target stats and overrides) and values.
    samplers: dict[Key, dict[tuple[int, ...], TableSampler]] = dc_field(default_factory=dict)
    #: Each sampler, by the identity of its situation.
    sampler: dict[Key, TableSampler] = dc_field(default_factory=dict)
    #: The alias tables, one per distinct set of joint weights, and where each set's is.
    layout_ids: dict[tuple[int, bytes], int] = dc_field(default_factory=dict)
    aliases: list[Alias] = dc_field(default_factory=list)
    #: Every sampled table's outcome matrix side by side.
    stack: TableStack | None = None
    #: A role's exact support and its alias table (by the role object's identity).
    role_tables: dict[int, tuple[Support, Alias]] = dc_field(default_factory=dict)
    #: Exact outcome tables (grouped), and the same clipped to a stat's value.
    tables: dict[Key, OutcomeTable] = dc_field(default_factory=dict)
    clipped: dict[Key, OutcomeTable] = dc_field(default_factory=dict)
    #: Expected damage of an attack in a situation (policy `best`).
    means: dict[Key, float] = dc_field(default_factory=dict)


def caches(fight: LoadedFight) -> EngineCaches:
    """The engine's caches for `fight` (made on first use)."""
    return fight.memo("engine", EngineCaches)


class StepContext:
    """The state of a batch during one step, and the operations a fight module uses on it."""

    def __init__(
        self,
        fight: LoadedFight,
        state: State,
        mode: Mode,
        rng: np.random.Generator | None = None,
        *,
        depth: int | None = None,
        max_rounds: int | None = None,
        script: list[dict[str, list[int]]] | None = None,
        method: Method = "table",
        standing: BoolArray | None = None,
    ) -> None:
        self.fight, self.state, self.mode = fight, state, mode
        #: Who is standing in `state` (the rules' `standing`), kept until an event changes what it reads;
        #: a caller that has it already for this very state passes it.
        self._standing = standing
        self._standing_stats = fight.rules.standing_stats
        #: Monte Carlo: "table" samples each attack's outcome from its exact joint table (built by `resolve`
        #: once per attack and stats, cached); "direct" samples the dice and runs `resolve` on every batch,
        #: with the fight's stats fed in as arrays. Both are exact samplers of the same distribution.
        self.method = method
        #: Rounds after this one are not played (None in the exact chain, which has no round limit).
        self.max_rounds = max_rounds
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.depth = depth
        self.parent: IntArray = np.arange(state.n, dtype=np.int64)
        self._owned: set[tuple[bool, str]] = set()
        #: Exact mode: the probability of each row is weight[row] / denominator (Python ints).
        self.weight: npt.NDArray[np.object_] | None = (
            np.asarray([1] * state.n, dtype=object) if mode == "enumerate" else None
        )
        self.denominator = 1
        #: Narrate mode: forced faces for the next resolves, in order (role -> faces; roles left out are
        #: drawn). The list is consumed, so one script serves a whole fight.
        self.script = script if script is not None else []
        #: Narrated events as JSON (each change with its `from` value), in order.
        self.log: list[dict[str, Any]] = []

    @property
    def narrating(self) -> bool:
        return self.mode == "narrate"

    @property
    def n(self) -> int:
        return self.state.n

    # -- events ----------------------------------------------------------------------------------------
    @property
    def known_standing(self) -> BoolArray | None:
        """`standing()` when it is still valid for the current state (None once an event may have changed it)."""
        return self._standing

    def standing(self) -> BoolArray:
        """(fights, combatants): who is able to act now (the rules' `standing`, computed once per change)."""
        if self._standing is None:
            self._standing = self.fight.rules.standing(self.fight, self.state)
        return self._standing

    def emit(self, kind: str, changes: Sequence[Change], text: str = "", **info: Any) -> None:
        """Record an event and apply it to the state."""
        kept = tuple(c for c in changes if c.rows.size)
        if not kept and not self.narrating:
            return
        if self._standing is not None and (
            self._standing_stats is None or any(c.stat in self._standing_stats for c in kept if c.who is not None)
        ):
            self._standing = None
        event = Event(kind, kept, text, info)
        if self.narrating:
            self.log.append(self.event_json(event))
        # The step's input state is never written: each array is copied on its first change in this step.
        self.state = apply_owned(self.state, [event], self._owned)

    def event_json(self, event: Event) -> dict[str, Any]:
        names = self.fight.roster.names
        changes = []
        for ch in event.changes:
            for k in range(ch.rows.size):
                row = int(ch.rows[k])
                if ch.who is None:
                    before = int(self.state.fight[ch.stat][row])
                    who = None
                else:
                    before = int(self.state.per[ch.stat][row, ch.who[k]])
                    who = names[int(ch.who[k])]
                changes.append({"who": who, "stat": ch.stat, "from": before, "to": int(ch.to[k])})
        return {"kind": event.kind, "text": event.text, "changes": changes, **event.info}

    def last_round(self) -> BoolArray:
        """Rows whose current round is the last one played (`max_rounds`; never in the exact chain)."""
        if self.max_rounds is None:
            return np.zeros(self.n, dtype=bool)
        return np.asarray(self.state.fight["round"] >= self.max_rounds)

    def stop_at_round_limit(self, new_round: BoolArray) -> BoolArray:
        """Of the fights about to start a new round, end those whose last round was played as draws.

        Returns them, for the caller to drop from this step.
        """
        late = new_round & self.last_round()
        if late.any():
            self.round_limit(late)
        return late

    def round_limit(self, rows: BoolArray) -> None:
        """Instead of starting another round, end these fights as draws at `max_rounds`."""
        self.emit(
            "round_limit",
            [self.set("round", rows, (self.max_rounds or 0) + 1)],
            f"round {self.max_rounds} is over and the fight goes on: max_rounds reached" if self.narrating else "",
        )

    def set(self, stat: str, rows: Any, to: Any, who: Any = None) -> Change:
        """A change (helper for fight modules): `rows` may be a mask or an index array."""
        r = np.asarray(rows)
        if r.dtype == bool:
            r = np.flatnonzero(r)
        if who is not None and np.ndim(who) and np.asarray(who).shape[0] == self.n and r.size != self.n:
            who = np.asarray(who)[r]
        if np.ndim(to) and np.asarray(to).shape[0] == self.n and r.size != self.n:
            to = np.asarray(to)[r]
        return change(stat, r, to, who)

    # -- choices -----------------------------------------------------------------------------------------
    def choose_actions(
        self, acting: BoolArray, actor: IntArray, options: BoolArray, choice: GMChoice | None = None
    ) -> tuple[Rows, IntArray, IntArray]:
        """(idx, attack, target) per row by each actor's policy (`policy.choose_actions`), or the game master's
        `choice` (an InputError when the rules do not allow it now)."""
        if choice is not None:
            return ALL, *forced_choice(self.fight, acting, actor, options, choice)
        return policy.choose_actions(self, acting, actor, options)

    def expected_damage(
        self,
        c: int,
        a: int,
        t: int,
        stats: dict[str, int],
        overrides: dict[str, int] | None = None,
        groups: dict[str, int] | None = None,
        attacker_groups: dict[str, int] | None = None,
    ) -> float:
        """Mean damage of combatant c's attack a on t (`expected_damage`)."""
        return expected_damage(self.fight, c, a, t, stats, overrides, groups, attacker_groups)

    # -- expansions ------------------------------------------------------------------------------------
    def _expand(self, idx: IntArray, weights: npt.NDArray[np.object_] | None = None, denominator: int = 1) -> None:
        """Re-index the rows by `idx`; row i's probability is multiplied by weights[i] / denominator."""
        self.state = self.state.take(idx)
        self._standing = None if self._standing is None else self._standing[idx]
        self._owned = {(True, k) for k in self.state.per} | {(False, k) for k in self.state.fight}
        self.parent = self.parent[idx]
        if self.weight is not None:
            self.weight = self.weight[idx] * weights if weights is not None else self.weight[idx]
            self.denominator *= denominator

    def choose(self, allowed: BoolArray) -> tuple[Rows, IntArray]:
        """A uniform choice among the True columns of each row of `allowed` (rows with none: -1)."""
        n = allowed.shape[0]
        counts = allowed.sum(axis=1)
        if self.mode != "enumerate":
            pick = np.floor(self.rng.random(n) * np.maximum(counts, 1)).astype(np.int64)
            rank = np.cumsum(allowed, axis=1) - 1
            hit = allowed & (rank == pick[:, None])
            choice = np.where(counts > 0, np.argmax(hit, axis=1), -1).astype(np.int64)
            return ALL, choice
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
        """A face of a d`sides` (per row) for the rows of `mask`; 0 elsewhere. Exact mode expands each row into
        one row per face, each with probability 1 / sides."""
        n = self.n
        if self.mode != "enumerate":
            high = np.broadcast_to(np.maximum(sides, 1), (n,))
            faces = np.where(mask, self.rng.integers(1, high + 1, size=n), 0).astype(np.int64)
            return ALL, faces
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
        """A value for each row of `mask`, drawn from the exact integer distribution tables[which[row]] (its
        values and their weights); 0 elsewhere. Exact mode expands each such row into one row per value, with
        probability weight / total (a roll a fight module makes besides the attacks, e.g. a Physical
        Resistance check against a Critical)."""
        n = self.n
        which = np.asarray(which, dtype=np.int64)
        if self.mode != "enumerate":
            out = np.zeros(n, dtype=np.int64)
            rows = np.flatnonzero(mask)
            for k in np.unique(which[rows]).tolist():
                sel = rows[which[rows] == k]
                values, weights = tables[k]
                cumulative = np.cumsum(np.asarray([int(w) for w in weights], dtype=np.int64))
                u = self.rng.integers(0, int(cumulative[-1]), size=sel.size)
                out[sel] = np.asarray(values, dtype=np.int64)[np.searchsorted(cumulative, u, side="right")]
            return ALL, out
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

    # -- attacks ---------------------------------------------------------------------------------------
    def resolve(
        self,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray] | None = None,
        *,
        kind: str = "attack",
        note: str = "",
        fields: tuple[str, ...] | None = None,
        shared: dict[str, Any] | None = None,
    ) -> tuple[Rows, dict[str, IntArray]]:
        """Resolve combatant actor's attack against target in the rows of `mask`.

        Returns (idx, outcome): the outcome's fields (those the fight module declared) per row after
        any expansion; rows outside `mask` get 0. `attack_fields` override fields of the attack block per
        row (e.g. a Counter bonus on the modifiers); a key "target.<field>" overrides that field of the target
        block instead, as a code the rules decode (e.g. on a map: Hard to Hit from cover), and a key
        "attacker.<field>" a field of the attacker block the same way (e.g. grappled by a foe). `fields`
        narrows the declared outcome fields to those this resolve's caller reads (exact mode then merges
        outcomes that differ only elsewhere). `shared` (a dict the caller keeps across the resolves of one
        ability) makes roles of scope "attack" one roll for every target of the ability (e.g. one hit
        die for a Multi ability).
        """
        fields = fields or self.fight.rules.outcome_fields
        attack_fields = attack_fields or {}
        if self.mode == "enumerate":
            kinds = self.fight.rules.attacker_stats_kinds
            reads_own = kinds is None or kind in kinds
            return self._resolve_exact(mask, actor, attack, target, attack_fields, fields, reads_own)
        if self.mode == "sample" and self.method == "table" and shared is None:
            return ALL, self._resolve_table(mask, actor, attack, target, attack_fields, fields)
        n = self.n
        out = {f: np.zeros(n, dtype=np.int64) for f in fields}
        rows = np.flatnonzero(mask)
        if rows.size == 0:
            return ALL, out
        fight = self.fight
        rules = fight.rules
        whole = rows.size == n
        scalar, own_scalar = rules.scalar_stats, rules.attacker_scalar_stats
        coded = sorted(f for f in attack_fields if f.startswith(CODED))
        # Rows are grouped by their situation: who, which attack, whom, and what the system reads as plain
        # values (target and attacker scalar stats, coded overrides); the rest is fed as arrays.
        situations = SituationKey(rules, overrides=coded, own=False)
        cols = situations.columns(
            self.state.per,
            rows,
            *((actor, attack, target) if whole else (actor[rows], attack[rows], target[rows])),
            {f: attack_fields[f] if whole else attack_fields[f][rows] for f in coded},
        )
        key, radix = pack(cols)
        plain = {f: v for f, v in attack_fields.items() if not f.startswith(CODED)}
        unused = rules.unused_roles
        for k in [None] if radix == 1 else np.unique(key):
            in_group = None if k is None else key == k
            grp = rows if in_group is None else rows[in_group]
            sel: Any = ALL if whole and grp.size == n else grp
            lead = 0 if in_group is None else int(np.argmax(in_group))
            situation = situations.decode([col[lead] for col in cols])
            groups, own_groups, codes = situation.groups, situation.own_groups, situation.overrides
            c, a, t = situation.c, situation.a, situation.t
            own = rules.attacker_stats
            if self.narrating:  # one fight: stats as plain scalars, as in a scenario file
                mine: dict[str, Any] = {s: int(self.state.per[s][grp[0], c]) for s in own}
                mine.update({s: rules.narrate_value(s, int(self.state.per[s][grp[0], c])) for s in own_scalar})
                scenario = self._scenario(c, a, t, {**{f: int(v[grp][0]) for f, v in plain.items()}, **codes}, mine)
                values = {s: int(self.state.per[s][grp[0], t]) for s in rules.target_stats}
                values.update({s: rules.narrate_value(s, int(self.state.per[s][grp[0], t])) for s in scalar})
                tgt = self._target(t, None, {**values, **self._target_part(codes)})
            else:
                mine = {s: self.state.per[s][sel, c] for s in own}
                mine.update({s: rules.field_value(s, g) for s, g in own_groups.items()})
                scenario = self._scenario(c, a, t, {**{f: v[sel] for f, v in plain.items()}, **codes}, mine)
                fixed = {s: rules.field_value(s, g) for s, g in groups.items()}
                tgt = self._target(t, sel, None, {**fixed, **self._target_part(codes)})
            roles = fight.roles(c, a, t) if not codes else self._override_roles(c, a, t, codes, scenario, tgt)
            if self.narrating:
                outcome = self._narrated(scenario, tgt, roles, c, a, t, kind, note, shared)
            else:
                m = grp.size
                columns: dict[str, dict[str, IntArray]] = {}
                for name, role in roles.items():
                    if name in unused:
                        columns[name] = {col: np.zeros(m, dtype=np.int64) for col in role.columns}
                    elif shared is not None and role.scope == "attack":
                        if name not in shared:  # one roll for every target of the ability, per fight
                            shared[name] = self._sample_role(role, n)
                        columns[name] = {col: v[sel] for col, v in shared[name].items()}
                    else:
                        columns[name] = self._sample_role(role, m)
                outcome = fight.system.resolve(scenario, tgt, Dice(columns), Silent())
            for f in fields:
                out[f][sel] = outcome[f]
        return ALL, out

    def _override_roles(
        self, c: int, a: int, t: int, codes: dict[str, int], scenario: Any, target: Any
    ) -> dict[str, Role]:
        """The roles of (c, a, t) when a resolve overrides fields of the target or attacker block by code: such a
        field may change the dice (e.g. a foe the attacker grapples gives brace advantage; an attacker grappled
        by a foe has brace disadvantage), so they are the system's roles for
        the overridden target, cached per codes (the exact chain and the table sampler build theirs from the
        overridden target already, in `joint.build`)."""
        key = (c, a, t, tuple(sorted(codes.items())))
        held = caches(self.fight).override_roles
        found = held.get(key)
        if found is None:
            found = held[key] = self.fight.system.roles(scenario, target)
        return found

    def _resolve_table(
        self,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray],
        fields: tuple[str, ...],
    ) -> dict[str, IntArray]:
        """The "table" sampler: one draw per attack from its joint table's exact weights.

        Rows are grouped by everything the outcome fields depend on (attacker, attack, target, the rules'
        `table_stats` and scalar stats, the attacker's stats, attack overrides); each group's table is built
        once by `resolve` on the joint support (depth 1; rolls beyond it are sampled from the roles' tails and
        resolved as they come). Each row is one exact integer draw from the alias table of its group's weights
        (groups with the same weights share it: their dice are the same, their outcomes differ)."""
        n = self.n
        rows = np.flatnonzero(mask)
        if rows.size == 0:
            return {f: np.zeros(n, dtype=np.int64) for f in fields}
        rules = self.fight.rules
        per = self.state.per
        whole = rows.size == n
        a_rows, k_rows, t_rows = (actor, attack, target) if whole else (actor[rows], attack[rows], target[rows])
        stats = list(rules.target_stats if rules.table_stats is None else rules.table_stats)
        over = sorted(attack_fields)
        situations = SituationKey(rules, stats=stats, overrides=over)
        comps = situations.columns(
            per, rows, a_rows, k_rows, t_rows, {f: attack_fields[f] if whole else attack_fields[f][rows] for f in over}
        )
        code, radix = pack(comps)
        if radix == 1:
            groups, inverse, first = 1, np.zeros(rows.size, dtype=np.int64), np.zeros(1, dtype=np.int64)
        else:
            groups, inverse = dense_rank(code)
            first = np.empty(groups, dtype=np.int64)
            first[inverse[::-1]] = np.arange(rows.size - 1, -1, -1)
        found = caches(self.fight).samplers.setdefault((tuple(stats), tuple(over)), {})
        samplers = []
        for values in np.stack([comp[first] for comp in comps], axis=1).tolist():
            sm = found.get(tuple(values))
            if sm is None:
                sm = found[tuple(values)] = self._sampler(situations.decode(values))
            samplers.append(sm)
        # One alias draw per row, from the alias table of its group's weights: groups with the same weights
        # (the same dice, outcomes told apart by stats) share one draw call.
        stack = self._stack()
        if groups == 1:
            local = self._alias(samplers[0]).sample(self.rng, rows.size).astype(np.int64)
            joint_row = local + samplers[0].offset
        else:
            layout = [sm.layout for sm in samplers]
            present = sorted(set(layout))
            if len(present) == 1:
                local = self._layouts()[1][present[0]].sample(self.rng, rows.size).astype(np.int64)
            else:
                row_layout = np.asarray(layout, dtype=np.int64)[inverse]
                local = np.empty(rows.size, dtype=np.int64)
                for lay in present:
                    sel = np.flatnonzero(row_layout == lay)
                    local[sel] = self._layouts()[1][lay].sample(self.rng, sel.size)
            offsets = np.asarray([sm.offset for sm in samplers], dtype=np.int64)
            joint_row = offsets[inverse] + local
        if whole:
            column = joint_row
        else:  # the rows left out read the stack's column of zeros
            column = np.zeros(n, dtype=np.int64)
            column[rows] = joint_row
        out = {f: stack.matrix[stack.at[f]].take(column) for f in fields}  # `take`: far faster than [:, column]
        beyond = stack.beyond[joint_row]
        if beyond.any():  # rolls past the table's depth: their tails sampled, then resolved
            self._resolve_beyond(beyond, rows, local, inverse, samplers, comps, attack_fields, out)
        return out

    def _layouts(self) -> tuple[dict[tuple[int, bytes], int], list[Alias]]:
        """The fight's alias tables, one per distinct set of joint weights."""
        held = caches(self.fight)
        return held.layout_ids, held.aliases

    def _alias(self, sm: TableSampler) -> Alias:
        return self._layouts()[1][sm.layout]

    def _stack(self) -> TableStack:
        held = caches(self.fight)
        if held.stack is None:
            held.stack = TableStack(self.fight.rules.outcome_fields)
        return held.stack

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
        being beyond), and `resolve` runs once per attacker, attack and target, the stats fed as arrays."""
        rules = self.fight.rules
        b = np.flatnonzero(beyond)
        # (c, a, t) decide the table's layout; the scalar groups and codes what the system reads as plain values.
        coded = sorted(f for f in attack_fields if f.startswith(CODED))
        situations = SituationKey(rules, overrides=coded, own=False)
        cols = situations.columns(
            self.state.per,
            rows[b],
            comps[0][b],
            comps[1][b],
            comps[2][b],
            {f: attack_fields[f][rows[b]] for f in coded},
        )
        leads, inv = distinct(cols)
        for u, lead in enumerate(leads.tolist()):
            sel = b[inv == u]
            situation = situations.decode([col[lead] for col in cols])
            c, a, t = situation.c, situation.a, situation.t
            groups, codes = situation.groups, situation.overrides
            sm = samplers[int(inverse[sel[0]])]
            state_rows = rows[sel]
            mine = {s: self.state.per[s][state_rows, c] for s in rules.attacker_stats}
            mine.update({s: rules.field_value(s, g) for s, g in situation.own_groups.items()})
            plain = {f: v[state_rows] for f, v in attack_fields.items() if not f.startswith(CODED)}
            scenario = self._scenario(c, a, t, {**plain, **codes}, mine)
            fixed = {s: rules.field_value(s, g) for s, g in groups.items()}
            target = self._target(t, state_rows, None, {**fixed, **self._target_part(codes)})
            dice = Dice(sm.table.columns(local[sel], self.rng))
            outcome = self.fight.system.resolve(scenario, target, dice, Silent())
            for f in out:
                out[f][state_rows] = outcome[f]

    def _sampler(self, situation: Situation) -> TableSampler:
        held = caches(self.fight).sampler
        found = held.get(situation.ident)
        if found is None:
            c, a, t = situation.c, situation.a, situation.t
            rules = self.fight.rules
            mine: dict[str, Any] = dict(situation.own)
            mine.update({s: rules.field_value(s, g) for s, g in situation.own_groups.items()})
            scenario = self._scenario(c, a, t, situation.overrides, mine)
            fixed = {s: rules.field_value(s, g) for s, g in situation.groups.items()}
            fixed.update(self._target_part(situation.overrides))
            target = self._target(t, None, situation.stats, fixed)
            table = joint.build(self.fight.system, scenario, target, ROLE_TABLE_DEPTH)
            found = held[situation.ident] = TableSampler(table, scenario, target, rules.outcome_fields)
            ids, aliases = self._layouts()
            layout = ids.get(found.weights_key)
            if layout is None:
                layout = ids[found.weights_key] = len(aliases)
                aliases.append(Alias([int(w) for w in table.weights]))
            found.layout = layout
            found.offset = self._stack().add(found)
        return found

    def _sample_role(self, role: Role, m: int) -> dict[str, IntArray]:
        """m outcomes of a role, drawn from its exact support table (one alias draw each), the part beyond
        the table's depth drawn from the role's own tail: the same distribution as `role.sample`, cheaper."""
        held = caches(self.fight).role_tables
        found = held.get(id(role))
        if found is None:
            support = role.support(ROLE_TABLE_DEPTH)
            weights = [int(w) for w in support.weights] + ([support.remainder] if support.remainder else [])
            if support.total > MAX_TOTAL:  # pragma: no cover - no role has such a table
                return role.sample(self.rng, m)
            found = held[id(role)] = (support, Alias(weights))
        support, alias = found
        idx = alias.sample(self.rng, m)
        size = support.size
        cols = {c: v[np.minimum(idx, size - 1)] for c, v in support.columns.items()}
        beyond = np.flatnonzero(idx == size)
        if beyond.size:
            tail = role.sample_beyond(self.rng, beyond.size, ROLE_TABLE_DEPTH)
            for c in cols:
                cols[c][beyond] = tail[c]
        return cols

    def _scenario(
        self, c: int, a: int, t: int, overrides: dict[str, Any], attacker_values: dict[str, Any] | None = None
    ) -> Any:
        """The scenario of (c, a, t), with attack fields overridden and the attacker's current stats fed in
        (overrides of the target block, "target.<field>", are left to `_target`; those of the attacker block,
        "attacker.<field>", are codes decoded by the rules' `override_value`)."""
        scenario = self.fight.scenario(c, a, t)
        rules = self.fight.rules
        own_codes = {
            f[len(ATTACKER) :]: rules.override_value(f[len(ATTACKER) :], int(v))
            for f, v in overrides.items()
            if f.startswith(ATTACKER)
        }
        if own_codes:
            attacker_values = {**(attacker_values or {}), **own_codes}
        overrides = {f: v for f, v in overrides.items() if not f.startswith(CODED)}
        if not overrides and not attacker_values:
            return scenario
        fields = dict(scenario)
        if overrides:
            attack = scenario.attack
            fields["attack"] = type(attack).model_construct(**{**dict(attack), **overrides})
        if attacker_values:
            attacker = scenario.attacker
            fields["attacker"] = type(attacker).model_construct(**{**dict(attacker), **attacker_values})
        return type(scenario).model_construct(**fields)

    def _target_part(self, overrides: dict[str, Any]) -> dict[str, Any]:
        """The target-block overrides among `overrides` ("target.<field>": code), decoded to field values."""
        rules = self.fight.rules
        return {
            f[len(TARGET) :]: rules.override_value(f[len(TARGET) :], int(v))
            for f, v in overrides.items()
            if f.startswith(TARGET)
        }

    def _target(
        self, t: int, rows: Any, values: dict[str, Any] | None = None, fixed: dict[str, Any] | None = None
    ) -> Any:
        """Combatant t's target block with the fight's current stats (arrays over `rows`) fed in, and any
        `fixed` (plain) values; stat names map to field names by the rules' `stat_fields`."""
        base = self.fight.target(t)
        rules = self.fight.rules
        stats = rules.target_stats
        if values is None:
            values = {s: self.state.per[s][rows, t] for s in stats} if stats else {}
        values = {**values, **(fixed or {})}
        if not values:
            return base
        named = {rules.stat_fields.get(s, s): v for s, v in values.items()}
        return type(base).model_construct(**{**dict(base), **named})

    def _narrated(
        self,
        scenario: Any,
        target: Any,
        roles: dict[str, Any],
        c: int,
        a: int,
        t: int,
        kind: str,
        note: str,
        shared: dict[str, Any] | None = None,
    ) -> Outcome:
        fresh = [n for n, r in roles.items() if not (shared is not None and r.scope == "attack" and n in shared)]
        forced = self.script.pop(0) if self.script and fresh else {}
        faces: dict[str, list[int]] = {}
        for name, role in roles.items():
            if shared is not None and role.scope == "attack" and name in shared:
                faces[name] = shared[name]
            else:
                faces[name] = list(forced[name]) if name in forced else role.draw(self.rng)
                if shared is not None and role.scope == "attack":
                    shared[name] = faces[name]
        dice = Dice(
            {name: role.read(faces[name]) for name, role in roles.items()},
            {name: role.describe(faces[name]) for name, role in roles.items()},
        )
        trace = Trace()
        outcome = self.fight.system.resolve(scenario, target, dice, trace)
        row = outcome.row(self.fight.system.fields)
        names = self.fight.roster.names
        attack_name = self.fight.attack(c, a).name
        verb = "counterattacks" if kind == "counter" else "attacks"
        text = f"{names[c]} {verb} {names[t]} with {attack_name}{note}: {row.get('result')}"
        if row.get("damage"):
            text += f", {row['damage']} damage"
        self.emit(
            kind,
            (),
            text,
            attacker=names[c],
            target=names[t],
            attack=attack_name,
            dice=faces,
            outcome=row,
            trace=[{"text": s.text, "clause": s.clause} for s in trace.steps],
        )
        return outcome

    # -- exact -------------------------------------------------------------------------------------------
    def _resolve_exact(
        self,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        attack_fields: dict[str, IntArray],
        fields: tuple[str, ...],
        own: bool = True,
    ) -> tuple[IntArray, dict[str, IntArray]]:
        """Every outcome of the attacks of `mask` (one row each, with its exact weight); `own`: the rules read the
        attacker's own stats (`attacker_stats_kinds`), so the tables are keyed by them."""
        fight = self.fight
        rules = fight.rules
        stats = list(rules.target_stats if rules.table_stats is None else rules.table_stats)
        clips = sorted(set(rules.table_clip.values()))
        n = self.n
        situations = SituationKey(rules, stats=stats, clips=clips, overrides=sorted(attack_fields), own=own)
        cols = situations.columns(
            self.state.per, np.arange(n), np.maximum(actor, 0), attack, np.maximum(target, 0), attack_fields
        )
        keys = np.stack(cols, axis=1)
        keys[~mask] = -1
        leads, inverse = distinct(list(keys.T))
        uniq = keys[leads]
        parents: list[IntArray] = []
        values: dict[str, list[IntArray]] = {f: [] for f in fields}
        weights: list[npt.NDArray[np.object_]] = []
        beyond: list[BoolArray] = []
        tables: dict[int, OutcomeTable] = {}
        for u, key in enumerate(uniq):
            if key[0] < 0:
                continue
            s = situations.decode(key)
            tables[u] = self.outcome_table(
                s.c, s.a, s.t, s.stats, s.overrides, s.clips, fields, s.own, s.groups, s.own_groups
            )
        common = lcm(*[tb.total for tb in tables.values()]) if tables else 1
        for u, key in enumerate(uniq):
            rows = np.flatnonzero(inverse == u)
            if key[0] < 0:
                parents.append(rows)
                for f in fields:
                    values[f].append(np.zeros(rows.size, dtype=np.int64))
                weights.append(np.asarray([common] * rows.size, dtype=object))
                beyond.append(np.zeros(rows.size, dtype=bool))
                continue
            table = tables[u]
            k = table.size + (1 if table.remainder else 0)
            parents.append(np.repeat(rows, k))
            for f in fields:
                col = np.concatenate([table.columns[f], np.zeros(k - table.size, dtype=np.int64)])
                values[f].append(np.tile(col, rows.size))
            weights.append(np.tile(table.numerators * (common // table.total), rows.size))
            flag = np.zeros(k, dtype=bool)
            flag[table.size :] = True
            beyond.append(np.tile(flag, rows.size))
        idx = np.concatenate(parents)
        out = {f: np.concatenate(values[f]) for f in fields}
        cut = np.concatenate(beyond)
        self._expand(idx, np.concatenate(weights), common)
        if cut.any():
            self.emit("beyond_depth", [self.set("cut", cut, 1)])
        return idx, out

    def outcome_table(
        self,
        c: int,
        a: int,
        t: int,
        stats: dict[str, int],
        overrides: dict[str, int],
        clips: dict[str, int] | None = None,
        fields: tuple[str, ...] | None = None,
        attacker_values: dict[str, int] | None = None,
        groups: dict[str, int] | None = None,
        attacker_groups: dict[str, int] | None = None,
    ) -> OutcomeTable:
        """Exact outcome distribution of attack (c, a) on t at these stats, grouped by the fight's fields.

        With `clips` (stat -> value), each field the rules clip (`table_clip`, e.g. damage at the target's
        LP) is capped at that value before grouping: outcomes the fight cannot tell apart become one row.
        """
        clips = clips or {}
        all_fields = self.fight.rules.outcome_fields
        fields = fields or all_fields
        mine = tuple(sorted((attacker_values or {}).items()))
        grouped = tuple(sorted((groups or {}).items()))
        key: tuple[Any, ...] = (
            c,
            a,
            t,
            tuple(sorted(stats.items())),
            tuple(sorted(overrides.items())),
            mine,
            grouped,
            self.depth,
        )
        if attacker_groups:
            key += (tuple(sorted(attacker_groups.items())),)
        held = caches(self.fight)
        base = held.tables.get(key)
        if base is None:
            rules = self.fight.rules
            own: dict[str, Any] = dict(attacker_values or {})
            own.update({s: rules.field_value(s, g) for s, g in (attacker_groups or {}).items()})
            scenario = self._scenario(c, a, t, dict(overrides), own)
            fixed = {s: rules.field_value(s, g) for s, g in (groups or {}).items()}
            tgt = self._target(t, None, stats, {**fixed, **self._target_part(overrides)})
            table = joint.build(self.fight.system, scenario, tgt, self.depth)
            columns = {f: table.outcome[f] for f in all_fields}
            base = _grouped(columns, table.weights[table.finite], int(table.total), int(table.remainder))
            held.tables[key] = base
        if not clips and fields == all_fields:
            return base
        ckey = (key, tuple(sorted(clips.items())), fields)
        found = held.clipped.get(ckey)
        if found is None:
            columns = {f: base.columns[f] for f in fields}
            for f, stat in self.fight.rules.table_clip.items():
                if f in columns:
                    columns[f] = np.minimum(columns[f], clips[stat])
            found = _grouped(columns, np.asarray(base.weights, dtype=object), base.total, base.remainder)
            held.clipped[ckey] = found
        return found


#: Up to this many rows a table is grouped in plain Python (a dict of row tuples): faster than numpy's passes for
#: the small tables of most situations.
SMALL_TABLE = 512


def _grouped(columns: dict[str, IntArray], weights: npt.NDArray[Any], total: int, remainder: int) -> OutcomeTable:
    """Rows with equal values in every column merged, their integer weights summed exactly; the rows in
    lexicographic order of the columns."""
    names = list(columns)
    if len(weights) <= SMALL_TABLE:
        merged: dict[tuple[int, ...], int] = {}
        each_row = zip(*(columns[f].tolist() for f in names), strict=True)
        for row, w in zip(each_row, weights.tolist(), strict=True):
            merged[row] = merged.get(row, 0) + int(w)
        keys = sorted(merged)
        table = np.asarray(keys, dtype=np.int64).reshape(len(keys), len(names))
        small = {f: np.ascontiguousarray(table[:, i]) for i, f in enumerate(names)}
        return OutcomeTable(small, [merged[k] for k in keys], total, remainder)
    first, inverse = distinct([columns[f] for f in names])
    rows = np.stack([columns[f][first] for f in names], axis=1)
    if weights.dtype != object and total < 2**62:
        summed = np.zeros(len(first), dtype=np.int64)
        np.add.at(summed, inverse, weights)
        sums = [int(x) for x in summed]
    else:
        sums = [0] * len(first)
        for i, w in zip(inverse.tolist(), weights.tolist(), strict=True):
            sums[i] += int(w)
    out = {f: rows[:, i].astype(np.int64) for i, f in enumerate(names)}
    return OutcomeTable(out, sums, total, remainder)


def expected_damage(
    fight: LoadedFight,
    c: int,
    a: int,
    t: int,
    stats: dict[str, int],
    overrides: dict[str, int] | None = None,
    groups: dict[str, int] | None = None,
    attacker_groups: dict[str, int] | None = None,
) -> float:
    """Mean damage of combatant c's attack a on t (exact odds at the system's depth; policy `best`), with
    `overrides` of the attack or target block as in `StepContext.resolve`'s `attack_fields`, and the groups of
    the target's and the attacker's scalar stats (`odds_scalar_stats`, `odds_attacker_scalar_stats`)."""
    overrides = overrides or {}
    key: tuple[Any, ...] = (c, a, t, tuple(sorted(stats.items())), tuple(sorted(overrides.items())))
    if groups or attacker_groups:
        key += (tuple(sorted((groups or {}).items())), tuple(sorted((attacker_groups or {}).items())))
    means = caches(fight).means
    found = means.get(key)
    if found is None:
        ctx = StepContext(fight, _one_row(fight), "enumerate")
        table = ctx.outcome_table(c, a, t, stats, overrides, groups=groups, attacker_groups=attacker_groups)
        finite = sum(table.weights)
        dmg = table.columns["damage"]
        num = sum(int(d) * w for d, w in zip(dmg.tolist(), table.weights, strict=True) if d not in (NULL_INT,))
        found = float(Fraction(num, finite)) if finite else 0.0
        means[key] = found
    return found


def forced_choice(
    fight: LoadedFight, acting: BoolArray, actor: IntArray, options: BoolArray, choice: GMChoice
) -> tuple[IntArray, IntArray]:
    """One fight's (attack, target) as chosen by hand, when the rules' `options` allow it; else an InputError
    naming what the actor may do now (or whose turn the step plays, when it is not the choice's actor's)."""
    attack, target, names = choice.attack, choice.target, fight.roster.names
    if bool(acting[0]) and int(actor[0]) != choice.actor:
        raise InputError(f"{names[choice.actor]} cannot act now: it is {names[int(actor[0])]}'s turn", field="attacker")
    actor = np.full(1, choice.actor, dtype=np.int64)
    who = names[choice.actor]
    if not 0 <= attack < options.shape[1] or not fight.has_attack[int(actor[0]), attack]:
        raise InputError(f"{who} has no attack number {attack}", field="attack")
    if not 0 <= target < options.shape[2]:
        raise InputError(f"no combatant number {target}", field="targets")
    if not bool(acting[0]) or not bool(options[0, attack, target]):
        name = fight.attack(int(actor[0]), attack).name
        allowed = [
            f"{fight.attack(int(actor[0]), int(a)).name} on {fight.roster.names[int(t)]}"
            for a, t in zip(*np.nonzero(options[0]), strict=True)
        ]
        if not allowed:
            raise InputError(
                f"{who} can use none of its attacks now (no AP or cost left for any, or no foe in reach)",
                field="attacker",
            )
        raise InputError(
            f"{who} cannot use {name} on {fight.roster.names[target]} now; allowed now: {', '.join(allowed)}",
            field="targets",
        )
    return np.asarray([attack], dtype=np.int64), np.asarray([target], dtype=np.int64)


def _one_row(fight: LoadedFight) -> State:
    return State({}, {"round": np.zeros(1, dtype=np.int64)})


__all__ = ["EXACT_DEPTH", "NULL_CODE", "Mode", "OutcomeTable", "StepContext", "expected_damage"]
