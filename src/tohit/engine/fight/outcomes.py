"""An attack's exact outcome table in a fight situation, and its mean damage (policy `best`, a live encounter's
preview, the exact chain): built by `joint.build` on the blocks the situation gives (`situation.blocks`), grouped
by the fight's outcome fields, cached per fight."""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.engine import joint
from tohit.engine.fight.caches import caches
from tohit.engine.fight.outcome_table import OutcomeTable, grouped, mean_damage
from tohit.engine.fight.situation import Situation, SituationKey, blocks, situation_values

#: The first row of a batch (a live encounter is one fight).
ONE = np.zeros(1, dtype=np.int64)


def situation(
    c: int,
    a: int,
    t: int,
    stats: dict[str, int] | None = None,
    overrides: dict[str, int] | None = None,
    *,
    own: dict[str, int] | None = None,
    groups: dict[str, int] | None = None,
    own_groups: dict[str, int] | None = None,
) -> Situation:
    """A situation given by its parts (those left out: none)."""
    return Situation(c, a, t, stats or {}, {}, groups or {}, own or {}, overrides or {}, own_groups or {}, ())


def outcome_table(
    fight: LoadedFight,
    s: Situation,
    depth: int | None = None,
    clips: dict[str, int] | None = None,
    fields: tuple[str, ...] | None = None,
) -> OutcomeTable:
    """Exact outcome distribution of attack (c, a) on t in situation `s`, grouped by the fight's fields, at
    `depth` (None: the system's).

    With `clips` (stat -> value), each field the rules clip (a binding's `clip`, e.g. damage at the target's
    LP) is capped at that value before grouping: outcomes the fight cannot tell apart become one row.
    """
    clips = clips or {}
    all_fields = fight.rules.outcome_fields
    fields = fields or all_fields
    key: tuple[Any, ...] = (
        s.c,
        s.a,
        s.t,
        tuple(sorted(s.stats.items())),
        tuple(sorted(s.overrides.items())),
        tuple(sorted(s.own.items())),
        tuple(sorted(s.groups.items())),
        depth,
    )
    if s.own_groups:
        key += (tuple(sorted(s.own_groups.items())),)
    held = caches(fight)
    base = held.tables.get(key)
    if base is None:
        scenario, target = blocks(fight, s.c, s.a, s.t, situation_values(fight.rules, s))
        table = joint.build(fight.system, scenario, target, depth)
        columns = {f: table.outcome[f] for f in all_fields}
        base = grouped(columns, table.weights[table.finite], int(table.total), int(table.remainder))
        held.tables[key] = base
    if not clips and fields == all_fields:
        return base
    ckey = (key, tuple(sorted(clips.items())), fields)
    found = held.clipped.get(ckey)
    if found is None:
        columns = {f: base.columns[f] for f in fields}
        for f, stat in fight.rules.bound.clip.items():
            if f in columns:
                columns[f] = np.minimum(columns[f], clips[stat])
        found = grouped(columns, np.asarray(base.weights, dtype=object), base.total, base.remainder)
        held.clipped[ckey] = found
    return found


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
    """Mean damage of combatant c's attack a on t (`mean_damage` of its exact table at the system's depth, as a
    float for ranking; policy `best`), with `overrides` of the attack or target block as in a resolve's
    `attack_fields`, and the groups of the target's and the attacker's scalar stats (those bound with `odds`)."""
    overrides = overrides or {}
    key: tuple[Any, ...] = (c, a, t, tuple(sorted(stats.items())), tuple(sorted(overrides.items())))
    if groups or attacker_groups:
        key += (tuple(sorted((groups or {}).items())), tuple(sorted((attacker_groups or {}).items())))
    means = caches(fight).means
    found = means.get(key)
    if found is None:
        s = situation(c, a, t, stats, overrides, groups=groups, own_groups=attacker_groups)
        found = means[key] = float(mean_damage(outcome_table(fight, s)))
    return found


def now(ctx: FightContext, c: int, a: int, t: int) -> Situation:
    """The situation of combatant c's attack a on t in the first fight of `ctx` as it stands: every stat the
    rules feed (the target's and the attacker's, scalar ones by their groups) at its current value, and the
    target-block codes the attack would be resolved with now (the rules' `odds_fields`, e.g. statuses)."""
    rules = ctx.fight.rules
    codes = {f: np.asarray(v, dtype=np.int64).reshape(-1)[:1] for f, v in rules.odds_fields(ctx, ONE, c, a, t).items()}
    key = SituationKey(rules, stats=rules.bound.target, overrides=sorted(codes))
    one = np.asarray([0], dtype=np.int64)
    cols = key.columns(ctx.state.per, ONE, one + c, one + a, one + t, codes)
    return key.decode([int(col[0]) for col in cols])
