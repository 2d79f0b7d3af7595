"""Policies: which attack and which foe a combatant picks on its turn, for a whole batch at once.

- `first`: the first usable attack, on the first foe it can reach (file order);
- `weakest`: the first usable attack, on the reachable foe with the lowest health (ties: file order);
- `random`: the first usable attack, on a reachable foe picked uniformly at random;
- `best`: the attack and foe with the highest expected damage, from the exact odds at the foe's current
  stats and the current groups of the scalar stats (the target's and the attacker's) that the rules bind
  with `odds`, and with the target-block overrides the attack would be resolved with now (the rules'
  `odds_fields`, e.g. statuses) (ties: file order, attack first).
A combatant with a `focus` attacks that foe while it stands and can be reached; the policy then only
picks the attack (`best`: the best attack on the focus).
"""

from __future__ import annotations

import numpy as np

from tohit.core.fight.contract import ALL, FightContext, LoadedFight, Rows
from tohit.core.fight.rows import (
    and_rows,
    any_rows,
    count_rows,
    distinct,
    first_rows,
    lowest_rows,
    take_at,
    take_rows,
)
from tohit.core.fight.spec import CODES, policy_codes
from tohit.core.fight.state import BoolArray, IntArray
from tohit.engine.fight.situation import SituationKey


def choose_actions(
    ctx: FightContext, acting: BoolArray, actor: IntArray, options: BoolArray
) -> tuple[Rows, IntArray, IntArray]:
    """(idx, attack, target) per row; `options` is (rows, attacks, combatants): allowed pairs.

    Rows not acting, or with no allowed pair, get -1. `idx` re-indexes the caller's arrays (the random
    policy expands rows in exact mode).
    """
    fight = ctx.fight
    n, na, size = options.shape
    flat_opts = and_rows(np.ascontiguousarray(options).reshape(n, -1), acting)
    opts = flat_opts.reshape(options.shape)
    if _plain(fight) or _one_pair(fight):
        return ALL, *_first_or_weakest(ctx, actor, opts)
    attack = np.full(n, -1, dtype=np.int64)
    target = np.full(n, -1, dtype=np.int64)
    # One allowed pair: every policy agrees (a duel with one attack each, a last foe standing).
    count = count_rows(flat_opts)
    single = count == 1
    if single.any():
        flat = first_rows(flat_opts)
        if size == 1 or na == 1:
            pair_attack, pair_target = (flat, np.zeros(n, np.int64)) if size == 1 else (np.zeros(n, np.int64), flat)
        else:
            pair_attack, pair_target = np.divmod(flat, size)
        attack = np.where(single, pair_attack, attack)
        target = np.where(single, pair_target, target)
    some = count > 1
    if not some.any():
        return ALL, attack, target
    opts = opts & some[:, None, None]
    who = np.maximum(actor, 0)
    focus = policy_codes(fight, "focus")[who]
    focused = some & (focus >= 0)
    if focused.any():
        fmask = np.zeros((n, size), dtype=bool)
        rows = np.flatnonzero(focused)
        fmask[rows, focus[rows]] = True
        reachable = (opts & fmask[:, None, :]).any(axis=(1, 2))
        opts = np.where((focused & reachable)[:, None, None], opts & fmask[:, None, :], opts)
    policy = policy_codes(fight, "policy")[who]
    by_attack = opts.any(axis=2)
    first_attack = np.argmax(by_attack, axis=1).astype(np.int64)
    first_pairs = opts[np.arange(n), first_attack]  # (n, size)

    m = some & (policy == CODES["first"])
    attack[m] = first_attack[m]
    target[m] = np.argmax(first_pairs[m], axis=1)

    m = some & (policy == CODES["weakest"])
    if m.any():
        attack[m] = first_attack[m]
        target[m] = lowest_rows(first_pairs, fight.rules.health_of(ctx.state))[m]

    m = some & (policy == CODES["best"])
    if m.any():
        score = _expected(ctx, actor, opts, m)
        flat = np.argmax(score.reshape(n, -1), axis=1)
        attack[m] = (flat // size)[m]
        target[m] = (flat % size)[m]

    m = some & (policy == CODES["random"])
    idx: Rows = ALL
    if m.any():
        allowed = first_pairs & m[:, None]
        idx, pick = ctx.choose(allowed)
        attack, target, m = attack[idx], target[idx], m[idx]
        attack = np.where(m, first_attack[idx], attack)
        target = np.where(m, pick, target)
    return idx, attack, target


def _plain(fight: LoadedFight) -> bool:
    """Every combatant's policy is `first` or `weakest`, none with a focus: no dice and no odds choose, and a row's
    pick is its first usable attack on its first or weakest foe, however many pairs it may choose from."""

    def build() -> bool:
        codes = set(policy_codes(fight, "policy").tolist())
        return codes <= {CODES["first"], CODES["weakest"]} and not (policy_codes(fight, "focus") >= 0).any()

    return bool(fight.memo("policy_plain", build))


def _one_pair(fight: LoadedFight) -> bool:
    """Every combatant has one attack and at most one foe (a duel of one attack each): a row has one pair to pick
    at most, on which every policy agrees, so the first pair is the pick (`_first_or_weakest`)."""

    def build() -> bool:
        return fight.max_attacks == 1 and bool((fight.roster.foe_matrix.sum(axis=1) <= 1).all())

    return bool(fight.memo("policy_one_pair", build))


def _first_or_weakest(ctx: FightContext, actor: IntArray, opts: BoolArray) -> tuple[IntArray, IntArray]:
    """(attack, target) per row where every policy is `first` or `weakest` (`_plain`), or where a row has one pair
    at most (`_one_pair`): the first attack with a foe to use it on, and on it the first foe (`first`, and any
    other policy) or the one with the lowest health (`weakest`; ties: file order, read only where there is a choice:
    `_weakest`); -1 where there is no pair. The same picks as the general path."""
    fight = ctx.fight
    n, na, size = opts.shape
    if na == 1:
        first_attack = np.zeros(n, dtype=np.int64)
        pairs = opts.reshape(n, size)
    else:
        first_attack = first_rows(any_rows(opts.reshape(n * na, size)).reshape(n, na))
        pairs = take_rows(opts, first_attack)
    found = any_rows(pairs)
    policy = policy_codes(fight, "policy")
    weakest = policy == CODES["weakest"]
    target = first_rows(pairs)
    if weakest.any():
        target = _weakest(ctx, actor, pairs, target, weakest)
    if found.all():  # every row has a pair (a duel's every step): nothing to mark -1
        return (np.zeros(n, dtype=np.int64) if na == 1 else first_attack), target
    none = ~found
    np.copyto(target, -1, where=none)  # a fresh array of this call's: written in place, no third array
    if na == 1:  # the one attack where there is a pair
        attack = found.astype(np.int64)
        attack -= 1
        return attack, target
    np.copyto(first_attack, -1, where=none)
    return first_attack, target


def _weakest(ctx: FightContext, actor: IntArray, pairs: BoolArray, first: IntArray, weakest: BoolArray) -> IntArray:
    """`first` (each row's first foe, a fresh array: written in place) where, on the rows whose actor picks the
    weakest foe (`weakest`, per combatant) and that have two foes or more to pick from, the foe with the lowest health
    is written (`lowest_rows`; ties: file order). A row with one foe to pick picks it either way, so only the others
    read the health."""
    pick = count_rows(pairs) > 1
    if not weakest.all():
        pick &= take_at(weakest, np.maximum(actor, 0))
    health = ctx.fight.rules.health_of(ctx.state)
    if pick.all():
        return lowest_rows(pairs, health)
    rows = np.flatnonzero(pick)
    if rows.size:
        first[rows] = lowest_rows(take_at(pairs, rows, axis=0), take_at(health, rows, axis=0))
    return first


def _expected(ctx: FightContext, actor: IntArray, opts: BoolArray, rows_mask: BoolArray) -> np.ndarray:
    """(rows, attacks, combatants) expected damage where allowed, -1 elsewhere: at the target's current plain
    stats bound with `odds`, and at the current groups of the target's and the attacker's scalar stats bound
    with `odds` (none by default: the file's blocks), each row's situation keyed by `SituationKey` as every
    resolve keys its rows."""
    fight = ctx.fight
    rules = fight.rules
    bound = rules.bound
    stats, scalar, own = bound.odds, bound.odds_scalar, bound.odds_attacker_scalar
    n, na, size = opts.shape
    score = np.full((n, na, size), -1.0)
    rows = np.flatnonzero(rows_mask)
    for c in np.unique(actor[rows]):
        rc = rows[actor[rows] == c]
        for a in range(na):
            for t in range(size):
                allowed = rc[opts[rc, a, t]]
                if allowed.size == 0:
                    continue
                extra = rules.odds_fields(ctx, allowed, int(c), a, t)
                if not (stats or scalar or own or extra):
                    score[allowed, a, t] = ctx.expected_damage(int(c), a, t, {})
                    continue
                coded = sorted(extra)
                key = SituationKey(rules, stats=stats, overrides=coded, own=(), scalar=scalar, own_scalar=own)
                every = np.ones(allowed.size, dtype=np.int64)
                cols = key.columns(
                    ctx.state.per,
                    allowed,
                    every * c,
                    every * a,
                    every * t,
                    {f: np.broadcast_to(np.asarray(extra[f], dtype=np.int64), allowed.shape) for f in coded},
                )
                leads, inverse = distinct(cols)
                found = [key.decode([col[lead] for col in cols]) for lead in leads.tolist()]
                means = [
                    ctx.expected_damage(
                        s.c, s.a, s.t, s.stats, s.overrides, groups=s.groups, attacker_groups=s.own_groups
                    )
                    for s in found
                ]
                score[allowed, a, t] = np.asarray(means)[inverse]
    return score
