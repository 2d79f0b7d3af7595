"""What a resolve's outcome depends on besides its dice, keyed in one place (docs/architecture.md, "The one idea").

The exact chain, the table sampler, the direct sampler and the rolls beyond a table's depth all group the rows of
a resolve by situation: who attacks (c) with which attack (a) whom (t), the target's stats the outcome reads
(its bound stats that change the outcome, and those the exact chain clips at), the groups of the scalar stats
the system reads as plain values, the attacker's own stats, the attack's overrides (plain values, and
"target."/"attacker." codes) and the groups of the attacker's scalar stats. `SituationKey` builds those columns,
always in that order, and turns one row of them back into a typed `Situation`; each path picks the parts it keys
by (policy `best` and a live encounter's preview too).

A situation then becomes what the system's `resolve` reads, in one place: `situation_values` (the situation's
own values: exact tables, table samplers), `state_values` (the fight's stats fed as arrays over rows: the direct
sampler, rolls beyond a table's depth) or `narrated_values` (one fight, as a scenario file would give them) say
what each block gets, `blocks` builds the scenario and the target block from that, and `roles` their dice.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tohit.core.fight.contract import FightRules, LoadedFight
from tohit.core.fight.rows import cells, read_flat
from tohit.core.fight.state import IntArray, held_row, wide
from tohit.core.roles import Role
from tohit.engine.fight.caches import caches

#: Keys of `attack_fields` with this prefix override a field of the target block instead (an integer code the
#: rules decode with `override_value`; the system reads it as a plain value, so rows are grouped by it).
TARGET = "target."
#: The same for a field of the attacker block ("attacker.<field>": e.g. an attacker grappled by a foe).
ATTACKER = "attacker."
CODED = (TARGET, ATTACKER)


@dataclass(frozen=True)
class Situation:
    """One situation of a resolve, decoded: plain ints by name."""

    c: int
    a: int
    t: int
    #: The target's stats fed as values (exact tables and samplers are keyed by them).
    stats: dict[str, int]
    #: Target stats the exact chain caps outcome fields at (bindings' `clip`).
    clips: dict[str, int]
    #: Groups of the target's scalar stats (`group_value`).
    groups: dict[str, int]
    #: The attacker's own plain stats (bound to the attacker block).
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

    @staticmethod
    def from_ident(ident: tuple[Any, ...]) -> Situation:
        """The situation whose `ident` this is, its key's `values` aside (empty, as `situation` leaves them): what
        keeps the small key alone (a table sampler), not the situation nor its blocks, makes them again from it."""
        c, a, t, *parts = ident
        stats, clips, groups, own, overrides, own_groups = (dict(part) for part in parts)
        return Situation(c, a, t, stats, clips, groups, own, overrides, own_groups, ())


class SituationKey:
    """The columns that tell situations apart, for a chosen set of parts, in the one canonical order."""

    def __init__(
        self,
        rules: FightRules,
        *,
        stats: Sequence[str] = (),
        clips: Sequence[str] = (),
        overrides: Sequence[str] = (),
        own: Sequence[str] | None = None,
        scalar: Sequence[str] | None = None,
        own_scalar: Sequence[str] | None = None,
        steady: Mapping[str, int] | None = None,
    ) -> None:
        """`own`: the attacker's plain stats keyed by value; `scalar` and `own_scalar`: the target's and the
        attacker's scalar stats keyed by their groups (default: every one the rules bind); `steady`: stats every
        row and combatant holds at one value (`steady_values`), whose columns are left out of `columns` (a column
        of one value changes neither a code nor the order of the others) and put back by `decode`."""
        self.rules = rules
        bound = rules.bound
        self.stats, self.clips, self.overrides = tuple(stats), tuple(clips), tuple(overrides)
        self.scalar = tuple(bound.scalar if scalar is None else scalar)
        self.own = tuple(bound.attacker if own is None else own)
        self.own_scalar = tuple(bound.attacker_scalar if own_scalar is None else own_scalar)
        self.steady = dict(steady or {})
        #: Each left-out column's place among all the columns, and its one value (a scalar stat's: its group).
        self.fixed: dict[int, int] = {}
        place = 3
        parts = (self.stats, self.clips, self.scalar, self.own, self.overrides, self.own_scalar)
        for part, names in enumerate(parts):
            for name in names:
                if name in self.steady and part != 4:  # an override is the attack's, never a stat
                    value = self.steady[name]
                    self.fixed[place] = _group_of(rules, name, value) if part in (2, 5) else value
                place += 1

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
        group, steady = self.rules.group_value, self.steady
        on_target = [s for s in self.stats + self.clips + self.scalar if s not in steady]
        on_actor = [s for s in self.own + self.own_scalar if s not in steady]
        # Each stat read at the same cells (`gather`'s flat index, made once for the target's and the actor's).
        at_target = at_actor = target  # read by no stat when none is keyed (the rows are not looked at)
        if on_target and not on_actor:  # the target's cells alone (`cells`: one array)
            at_target = cells(rows, per[on_target[0]].shape[1], target)
        elif on_target or on_actor:
            base = np.asarray(rows, dtype=np.int64) * per[(on_target + on_actor)[0]].shape[1]
            at_target = base + target if on_target else base
            at_actor = base + actor if on_actor else base

        cols = [actor, attack, target]
        cols += [read_flat(per[s], at_target) for s in self.stats + self.clips if s not in steady]
        cols += [
            np.asarray(group(s, read_flat(per[s], at_target)), dtype=np.int64) for s in self.scalar if s not in steady
        ]
        cols += [read_flat(per[s], at_actor) for s in self.own if s not in steady]
        cols += [attack_fields[f] for f in self.overrides]
        cols += [
            np.asarray(group(s, read_flat(per[s], at_actor)), dtype=np.int64)
            for s in self.own_scalar
            if s not in steady
        ]
        return cols

    def decode(self, values: Sequence[int]) -> Situation:
        """The situation of one row of the columns (the steady columns' values put back in their places)."""
        if not self.fixed:
            return self._decode(values)
        given = iter(values)
        total = len(values) + len(self.fixed)
        return self._decode([self.fixed[i] if i in self.fixed else next(given) for i in range(total)])

    def _decode(self, values: Sequence[int]) -> Situation:
        """The situation of one row of all the columns."""
        vals = tuple(int(v) for v in values)
        parts: list[dict[str, int]] = []
        i = 3
        for names in (self.stats, self.clips, self.scalar, self.own, self.overrides, self.own_scalar):
            parts.append(dict(zip(names, vals[i : i + len(names)], strict=True)))
            i += len(names)
        stats, clips, groups, own, overrides, own_groups = parts
        return Situation(vals[0], vals[1], vals[2], stats, clips, groups, own, overrides, own_groups, vals)


def _group_of(rules: FightRules, stat: str, value: int) -> int:
    """The group of one value of a scalar stat (`group_value`, as a column of one row would give it)."""
    return int(np.asarray(rules.group_value(stat, np.asarray([value], dtype=np.int64)), dtype=np.int64)[0])


def steady_values(fight: LoadedFight, per: Mapping[str, IntArray]) -> dict[str, int]:
    """The rules' `steady_stats` that every fight of the batch and every combatant holds at one value which no
    step or event of the fight can change (the rules' `steady`), with that value. Each stat is looked at once
    per array: an array no event writes stays the same object through a batch's steps (a new one when finished
    fights are dropped, or when a step writes it), and its answer is kept with it."""
    rules = fight.rules
    if not rules.steady_stats:
        return {}
    held = caches(fight).steady
    found: dict[str, int] = {}
    for stat in rules.steady_stats:
        arr = per.get(stat)
        if arr is None:  # a stat this fight does not keep
            continue
        kept = held.get(stat)
        if kept is None or kept[0]() is not arr:
            value: int | None = None
            if arr.size:
                row = held_row(arr)
                low = int(row.min())
                if low == int(row.max()) and rules.steady(fight, stat, low):
                    value = low
            kept = held[stat] = (weakref.ref(arr), value)  # a batch's arrays are not kept alive for it
        if kept[1] is not None:
            found[stat] = kept[1]
    return found


def pack(columns: Sequence[IntArray]) -> tuple[IntArray, int]:
    """Each row's columns packed into one int64 that keeps their lexicographic order (each column offset by its
    minimum, times the spans of those after it), and the number of distinct codes possible (1: one situation)."""
    found = packed(columns)
    return found.code, found.radix


#: Up to this many codes, `Packed.unpack` works in Python's integers (a numpy call per column costs more).
FEW_CODES = 8


@dataclass(frozen=True)
class Packed:
    """`pack`'s codes, with what turns a code back into its row's columns: each column's minimum and span."""

    code: IntArray
    radix: int
    lows: tuple[int, ...]
    spans: tuple[int, ...]

    def unpack(self, codes: IntArray) -> list[list[int]]:
        """The columns' values of the rows whose codes are `codes`, one list a code (a column of one value: that
        value), unpacked for them all at once."""
        if codes.size <= FEW_CODES:  # a handful (most resolves): Python's integers, no numpy call per column
            return [self._unpack_one(code) for code in codes.tolist()]
        values = np.empty((codes.size, len(self.lows)), dtype=np.int64)
        rest = codes
        for i in range(len(self.lows) - 1, -1, -1):
            if self.spans[i] == 1:
                values[:, i] = self.lows[i]
                continue
            rest, place = np.divmod(rest, self.spans[i])
            values[:, i] = place + self.lows[i]
        found: list[list[int]] = values.tolist()
        return found

    def _unpack_one(self, code: int) -> list[int]:
        """One code's columns (`unpack` of a single code, in Python's integers)."""
        values = [0] * len(self.lows)
        for i in range(len(self.lows) - 1, -1, -1):
            code, values[i] = divmod(code, self.spans[i])
            values[i] += self.lows[i]
        return values


def packed(columns: Sequence[IntArray]) -> Packed:
    """`pack`, keeping each column's minimum and span (`Packed.unpack`). Each column is read as it is (an int32
    stat of a batch is not widened first), and the code is built by Horner's rule, code * span + column, with the
    columns' minimums taken off once at the end (their own code in the same base, `offset`): a pass over the rows
    per column fewer. Where that offset would take the raw code past int64 (large minimums before columns of many
    values), the minimums so far are taken off there first. A column's minimum and maximum are its only other
    reads."""
    n = len(columns[0]) if columns else 0
    code: IntArray | None = None  # made by the first column that varies, then updated in place (no temporaries)
    radix = 1
    offset = 0  # the minimums in the code's base: the raw code less it is the code
    lows, spans = [], []
    for col in columns:
        col = np.asarray(col)
        if col.dtype.kind != "i":  # a column of another kind (bools, unsigned, a list): as int64, as before
            col = np.asarray(col, dtype=np.int64)
        low = int(col.min())
        span = int(col.max()) - low + 1
        lows.append(low)
        spans.append(span)
        if span == 1:
            continue
        radix *= span
        if radix >= 2**62:  # pragma: no cover - far beyond any fight's stats
            raise ValueError("too many distinct attack situations to group")
        if code is None:
            code, offset = col.astype(np.int64), low
            continue
        if abs(offset * span) >= 2**62 or abs(offset * span + low) >= 2**62:  # the minimums off now, not at the end
            code -= offset
            offset = 0
        code *= span
        code += col
        offset = offset * span + low
    if code is None:
        code = np.zeros(n, dtype=np.int64)
    elif offset:
        code -= offset
    return Packed(code, radix, tuple(lows), tuple(spans))


# -- what the system reads -------------------------------------------------------------------------------------
#: What a resolve feeds the three blocks, by name: the attack block's overrides (plain values, and
#: "target."/"attacker." codes), the attacker block's values and the target block's values (by stat name).
Values = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def situation_values(rules: FightRules, s: Situation) -> Values:
    """The situation's own values: its stats and the field values of its groups (exact tables, table samplers)."""
    attacker = {**s.own, **{k: rules.field_value(k, g) for k, g in s.own_groups.items()}}
    target = {**s.stats, **{k: rules.field_value(k, g) for k, g in s.groups.items()}}
    return dict(s.overrides), attacker, target


def state_values(
    rules: FightRules, s: Situation, per: Mapping[str, IntArray], rows: Any, plain: Mapping[str, IntArray]
) -> Values:
    """The fight's current stats over `rows` (arrays, one value per fight), the field values of the situation's
    groups, and the rows' `plain` attack overrides with the situation's codes (the direct sampler); int64, as
    `resolve` is always fed (`state.wide`), whatever a batch holds them in."""
    bound = rules.bound
    attacker: dict[str, Any] = {k: wide(per[k][rows, s.c]) for k in bound.attacker}
    attacker.update({k: rules.field_value(k, g) for k, g in s.own_groups.items()})
    target: dict[str, Any] = {k: wide(per[k][rows, s.t]) for k in bound.target}
    target.update({k: rules.field_value(k, g) for k, g in s.groups.items()})
    return {**{f: wide(v[rows]) for f, v in plain.items()}, **s.overrides}, attacker, target


def narrated_values(
    rules: FightRules, s: Situation, per: Mapping[str, IntArray], row: int, plain: Mapping[str, IntArray]
) -> Values:
    """One fight's stats as plain values, as in a scenario file (scalar stats as `narrate_value` gives them)."""
    bound = rules.bound
    attacker: dict[str, Any] = {k: int(per[k][row, s.c]) for k in bound.attacker}
    attacker.update({k: rules.narrate_value(k, int(per[k][row, s.c])) for k in bound.attacker_scalar})
    target: dict[str, Any] = {k: int(per[k][row, s.t]) for k in bound.target}
    target.update({k: rules.narrate_value(k, int(per[k][row, s.t])) for k in bound.scalar})
    return {**{f: int(v[row]) for f, v in plain.items()}, **s.overrides}, attacker, target


def blocks(fight: LoadedFight, c: int, a: int, t: int, values: Values) -> tuple[Any, Any]:
    """The scenario of combatant c's attack a on t and t's target block, with `values` fed in: attack fields
    overridden, the attacker's stats in its block ("attacker.<field>" codes decoded by the rules'
    `override_value`), the target's stats in its block ("target.<field>" codes decoded the same way); each stat
    feeds the field its binding names. A block nothing changes is the file's own."""
    attack, attacker, target = values
    rules = fight.rules
    return _scenario(fight, c, a, t, attack, attacker), _target(fight, t, {**target, **_coded(rules, TARGET, attack)})


def situation_blocks(fight: LoadedFight, s: Situation) -> tuple[Any, Any]:
    """The scenario and target block of situation `s`, its own values fed in (`situation_values`): what a table
    sampler's joint tables are built on."""
    return blocks(fight, s.c, s.a, s.t, situation_values(fight.rules, s))


def twin(fight: LoadedFight, c: int, a: int, t: int) -> tuple[int, int, int]:
    """One (c, a, t) for all those whose attacker, attack and target blocks are those of combatant c's attack a on t,
    their names aside (the first of them asked): two attacks with the same blocks resolve alike, so their rows may
    share one `resolve` call (a fight's copies of one creature, say). A block's own name only words what a told
    resolve says (a batch's resolve is silent). Found once per fight and attack."""
    held: dict[tuple[int, int, int], tuple[int, int, int]] = fight.memo("twins", dict)
    found = held.get((c, a, t))
    if found is None:
        seen: dict[str, tuple[int, int, int]] = fight.memo("twin_blocks", dict)
        scenario = fight.scenario(c, a, t)
        parts = (scenario.attacker, scenario.attack, fight.target(t))
        text = json.dumps([part.model_dump(mode="json", exclude={"name"}) for part in parts], sort_keys=True)
        found = held[(c, a, t)] = seen.setdefault(text, (c, a, t))
    return found


def roles(fight: LoadedFight, s: Situation, scenario: Any, target: Any) -> dict[str, Role]:
    """The dice roles of the situation. With codes that override fields of the target or attacker block, such a
    field may change the dice (e.g. a foe the attacker grapples gives brace advantage; an attacker grappled by a
    foe has brace disadvantage), so they are the system's roles for the overridden blocks, cached per codes."""
    if not s.overrides:
        return fight.roles(s.c, s.a, s.t)
    key = (s.c, s.a, s.t, tuple(sorted(s.overrides.items())))
    held = caches(fight).override_roles
    found = held.get(key)
    if found is None:
        found = held[key] = fight.system.roles(scenario, target)
    return found


def _coded(rules: FightRules, prefix: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The overrides of one block among `overrides` ("<block>.<field>": code), decoded to field values."""
    return {
        f[len(prefix) :]: rules.override_value(f[len(prefix) :], int(v))
        for f, v in overrides.items()
        if f.startswith(prefix)
    }


def _scenario(
    fight: LoadedFight, c: int, a: int, t: int, overrides: Mapping[str, Any], attacker_values: Mapping[str, Any]
) -> Any:
    """The scenario of (c, a, t), with attack fields overridden and the attacker's current stats fed in."""
    scenario = fight.scenario(c, a, t)
    renamed = fight.rules.bound.attacker_fields
    if renamed:
        attacker_values = {renamed.get(s, s): v for s, v in attacker_values.items()}
    own_codes = _coded(fight.rules, ATTACKER, overrides)
    if own_codes:
        attacker_values = {**attacker_values, **own_codes}
    plain = {f: v for f, v in overrides.items() if not f.startswith(CODED)}
    if not plain and not attacker_values:
        return scenario
    fields = dict(scenario)
    if plain:
        attack = scenario.attack
        fields["attack"] = type(attack).model_construct(**{**dict(attack), **plain})
    if attacker_values:
        attacker = scenario.attacker
        fields["attacker"] = type(attacker).model_construct(**{**dict(attacker), **attacker_values})
    return type(scenario).model_construct(**fields)


def _target(fight: LoadedFight, t: int, values: Mapping[str, Any]) -> Any:
    """Combatant t's target block with `values` fed in (each stat in the field its binding names)."""
    base = fight.target(t)
    if not values:
        return base
    renamed = fight.rules.bound.target_fields
    named = {renamed.get(s, s): v for s, v in values.items()}
    return type(base).model_construct(**{**dict(base), **named})
