"""Reclaim the Wild fights on a map: one turn (rtw page: ranges, areas, cover; docs/rtw.md#silent-cover).

`map_turn` is `RtwFight`'s turn when the fight has a map: the combatant's policy picks an option (an attack
and one placement of its range, from `FightMap`), then each creature the placement catches gets its own roll,
Hard to Hit as the grid says (cover, the Projectile rule) with the statuses in play folded in (`rtw_status`).
With no foe in reach (after its move, `rtw_fight_move`), the combatant holds its ground. `best` ranks options by
expected damage to foes minus allies, from exact odds, as `tohit aim` does.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.contract import ALL, FightContext, LoadedFight, Rows
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.rows import distinct
from tohit.core.fight.spec import CODES, policy_codes
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.systems.rtw import narrate
from tohit.systems.rtw.fight_map import FightMap
from tohit.systems.rtw.fight_status import StatusPlay, status_play


class MapTurnRules(Protocol):
    """What a map turn asks of the fight rules (`RtwFight`, which calls `map_turn`: typed here, not imported)."""

    def _flags(self, fight: LoadedFight) -> tuple[bool, bool, bool, bool]: ...

    def usable(self, fight: LoadedFight, state: State) -> BoolArray: ...

    @staticmethod
    def name(ctx: FightContext, who: IntArray) -> str: ...

    def _pay(self, ctx: FightContext, acting: BoolArray, actor: IntArray, attack: IntArray) -> None: ...

    @staticmethod
    def _status_note(ctx: FightContext, play: StatusPlay | None, actor: IntArray, target: IntArray) -> str: ...

    def _read(self, fight: LoadedFight, play: StatusPlay | None) -> tuple[str, ...] | None: ...

    def _apply(
        self,
        ctx: FightContext,
        mask: BoolArray,
        actor: IntArray,
        attack: IntArray,
        target: IntArray,
        out: dict[str, Any],
        play: StatusPlay | None = None,
    ) -> None: ...

    def _attacked(self, ctx: FightContext, play: StatusPlay | None, acting: BoolArray, actor: IntArray) -> None: ...


#: The resolve override of the target's Hard to Hit (a code into HARD_TO_HIT_LEVELS) on a map.
HARD_TO_HIT_FIELD = "target.hard_to_hit"


def map_turn(
    rules: MapTurnRules,
    ctx: FightContext,
    acting: BoolArray,
    actor: IntArray,
    grid: FightMap,
    play: StatusPlay | None = None,
    choice: GMChoice | None = None,
) -> None:
    """A turn on the map: an option (an attack and its placement) by policy (or the game master's `choice`), then
    one roll per creature it catches, Hard to Hit as the grid says; with no foe in reach, the combatant holds its
    ground."""
    fight = ctx.fight
    n, size = ctx.n, fight.roster.size
    who = np.maximum(actor, 0)
    valid, caught, adjacent = grid.reachable(actor, ctx.standing())
    attack_of = grid.attack[who]  # (n, O)
    if not rules._flags(fight)[0] and not rules._flags(fight)[1]:
        usable = np.ones_like(valid)
    else:
        per_attack = rules.usable(fight, ctx.state)[np.arange(n), who]  # (n, A)
        usable = np.take_along_axis(per_attack, np.maximum(attack_of, 0), axis=1)
    valid &= usable & acting[:, None]
    idx, option = _choose_on_map(rules, ctx, acting, actor, valid, caught, adjacent, grid, choice)
    actor, acting, caught, adjacent = actor[idx], acting[idx], caught[idx], adjacent[idx]
    n = ctx.n
    ctx.tell("hold", when=lambda: bool(acting[0] and option[0] < 0), combatant=lambda: rules.name(ctx, actor))
    acting = acting & (option >= 0)
    if not acting.any():
        return
    rows = np.arange(n)
    who = np.maximum(actor, 0)
    pick = np.maximum(option, 0)
    attack = np.where(acting, grid.attack[who, pick], -1)
    # (n, C): how many times the chosen placement affects each creature (a Swarm may be more than once)
    times = grid.counts(who, caught)[rows, pick] * acting[:, None]
    rules._pay(ctx, acting, actor, attack)
    for t, k in [(u, k) for u in range(size) for k in range(grid.most[u])]:
        mask = times[:, t] > k
        if not mask.any():
            continue
        tt = np.full(ctx.n, t, dtype=np.int64)
        codes = grid.level_codes(actor, option, t, adjacent)

        def note(
            t: int = t,
            k: int = k,
            tt: IntArray = tt,
            actor: IntArray = actor,
            option: IntArray = option,
            adjacent: BoolArray = adjacent,
        ) -> str:
            c, o = int(actor[0]), int(option[0])
            why = grid.why_hard(c, o, t, bool(adjacent[0]))
            statuses = rules._status_note(ctx, play, actor, tt)[2:-1]
            return narrate.placement_note(grid.options[c][o].text, k + 1 if k else 0, why, statuses)

        # The grid's Hard to Hit, with the attacker's Blinded or Dazzled folded in (the harder;
        # docs/rtw.md#silent-hard-to-hit).
        extra = {HARD_TO_HIT_FIELD: codes} if play is None else play.fields(ctx.state, actor, attack, tt, codes)
        idx2, out = ctx.resolve(mask, actor, attack, tt, extra, note=note, fields=rules._read(ctx.fight, play))
        actor, attack, times, adjacent, option = (
            actor[idx2],
            attack[idx2],
            times[idx2],
            adjacent[idx2],
            option[idx2],
        )
        rules._apply(ctx, mask[idx2], actor, attack, tt[idx2], out, play)
        acting = acting[idx2]
    rules._attacked(ctx, play, acting, actor)


def _placed_option(
    ctx: FightContext, acting: BoolArray, actor: IntArray, valid: BoolArray, grid: FightMap, choice: GMChoice
) -> IntArray:
    """The option a game master chose by its placement in words (one row, narrated), checked against the options
    from where the actor stands and what it may use now, and against the attack chosen."""
    placed = choice.placement
    c = int(actor[0])
    names = ctx.fight.roster.names
    if bool(acting[0]) and c != choice.actor:
        raise InputError(f"{names[choice.actor]} cannot act now: it is {names[c]}'s turn", field="attacker")
    name = names[c]
    texts = [o.text for o in grid.options[c]]
    if placed not in texts:
        raise InputError(
            f"{name} has no placement {short_repr(placed)} that reaches a foe from where it stands;"
            f" placements: {', '.join(texts[:12]) or 'none'}",
            field="placement",
        )
    o = texts.index(str(placed))
    if grid.options[c][o].attack != choice.attack:
        raise InputError(f"{placed} is not a placement of the attack chosen", field="placement")
    if not bool(valid[0, o]):
        raise InputError(
            f"{name} cannot use {placed} now (no AP or cost left, or no foe standing in it)", field="placement"
        )
    return np.asarray([o], dtype=np.int64)


def _choose_on_map(
    rules: MapTurnRules,
    ctx: FightContext,
    acting: BoolArray,
    actor: IntArray,
    valid: BoolArray,
    caught: BoolArray,
    adjacent: BoolArray,
    grid: FightMap,
    choice: GMChoice | None = None,
) -> tuple[Rows, IntArray]:
    """(idx, option) per row (-1: nothing in reach). `first`, `weakest`, `random` pick a foe and the first
    attack reaching it as without a map, then that attack's placement catching it with the fewest standing
    allies, then the most rolls on standing foes (a Swarm may be affected more than once; ties: the grid's
    order); `best` the option with the highest expected damage to foes minus allies, from exact odds (as
    `tohit aim`)."""
    fight = ctx.fight
    if choice is not None and choice.placement is not None:  # a live encounter: the game master placed the attack
        return ALL, _placed_option(ctx, acting, actor, valid, grid, choice)
    n, size = ctx.n, fight.roster.size
    who = np.maximum(actor, 0)
    policy = policy_codes(fight, "policy")[who]
    # A game master's (attack, target) goes through `choose_actions` whatever the policy (a live encounter).
    best = acting & (policy == CODES["best"]) & valid.any(axis=1) & (choice is None)
    others = acting & ~best & valid.any(axis=1)
    option = np.full(n, -1, dtype=np.int64)
    idx: Rows = ALL
    foe = grid.foe[who]  # (n, C)
    if others.any():
        attack_of = grid.attack[who]
        on_foes = caught & (valid & others[:, None])[:, :, None] & foe[:, None, :]  # (n, O, C)
        pairs = np.zeros((n, fight.max_attacks, size), dtype=bool)
        for a in range(fight.max_attacks):
            pairs[:, a, :] = (on_foes & (attack_of == a)[:, :, None]).any(axis=1)
        idx, attack, target = ctx.choose_actions(others, actor, pairs, choice)
        actor, acting, valid, caught, adjacent = actor[idx], acting[idx], valid[idx], caught[idx], adjacent[idx]
        best, others, foe, on_foes = best[idx], others[idx], foe[idx], on_foes[idx]
        n = ctx.n
        who = np.maximum(actor, 0)
        option = np.full(n, -1, dtype=np.int64)
        fits = on_foes[np.arange(n), :, np.maximum(target, 0)] & (grid.attack[who] == attack[:, None])
        allies = (caught & ~foe[:, None, :]).sum(axis=2)
        foes = _foe_rolls(grid, who, caught, foe)
        score = np.where(fits, foes - (size + 1) * allies, np.iinfo(np.int64).min)
        chosen = others & (target >= 0) & fits.any(axis=1)
        option = np.where(chosen, np.argmax(score, axis=1), option)
    if best.any():
        score = _best_scores(rules, ctx, who, valid & best[:, None], caught, adjacent, grid)
        focus = policy_codes(fight, "focus")[who]
        rows = np.flatnonzero(best & (focus >= 0))
        if rows.size:
            on_focus = caught[rows, :, focus[rows]] & valid[rows]
            keep = on_focus.any(axis=1)
            score[rows[keep]] = np.where(on_focus[keep], score[rows[keep]], -np.inf)
        option = np.where(best, np.argmax(score, axis=1), option)
    return idx, option


def _foe_rolls(grid: FightMap, who: IntArray, caught: BoolArray, foe: BoolArray) -> IntArray:
    """(rows, options): the rolls each option makes against foes (a Swarm may count more than once), in place over
    one (n, O, C) array that is gone once they are summed (a map's is some 20 MB a batch)."""
    rolls = grid.counts(who, caught)
    rolls *= foe[:, None, :]
    out: IntArray = rolls.sum(axis=2)
    return out


def _best_scores(
    rules: MapTurnRules,
    ctx: FightContext,
    who: IntArray,
    valid: BoolArray,
    caught: BoolArray,
    adjacent: BoolArray,
    grid: FightMap,
) -> Any:
    """(rows, options): expected damage to the standing foes each option catches minus that to the standing
    allies (exact odds at the Hard to Hit the grid gives), -inf where the option is not open."""
    fight = ctx.fight
    table = _expected_table(ctx, grid)  # (C, O, C, 2)
    sign = np.where(grid.foe, 1.0, -1.0)[who]  # (n, C)
    per = table[who, :, :, adjacent.astype(np.intp)]  # (n, O, C): with a foe adjacent or not, one gather
    play = status_play(fight)
    if play is not None:
        per = _status_expected(ctx, who, valid, caught, adjacent, grid, play, per)
    # counts x per x sign, in place: a map's (n, O, C) array is some 20 MB a batch, and each temporary was one more
    per *= grid.counts(who, caught)
    per *= sign[:, None, :]
    return np.where(valid, per.sum(axis=2), -np.inf)


def _status_expected(
    ctx: FightContext,
    who: IntArray,
    valid: BoolArray,
    caught: BoolArray,
    adjacent: BoolArray,
    grid: FightMap,
    play: StatusPlay,
    per: Any,
) -> Any:
    """`per` (rows, options, combatants) read again at the statuses in play: each roll's expected damage at the
    overrides its resolve would get (the grid's Hard to Hit with the statuses folded in, `StatusPlay.fields`).
    Written in place (the caller's own gather, float already: no copy of a map's (n, O, C) array)."""
    per = np.asarray(per, dtype=float)
    live = valid.any(axis=1)
    for c in np.unique(who[live]).tolist():
        rc = np.flatnonzero(live & (who == c))
        for o, opt in enumerate(grid.options[c]):
            ro = rc[valid[rc, o]]
            for t in opt.members if ro.size else ():
                sel = ro[caught[ro, o, t]]
                m = sel.size
                if m == 0:
                    continue
                codes = grid.level_codes(np.full(m, c), np.full(m, o), t, adjacent[sel])
                fields = play.fields(ctx.state, np.full(m, c), np.full(m, opt.attack), np.full(m, t), codes, rows=sel)
                keys = sorted(fields)
                leads, inverse = distinct([np.asarray(fields[k]) for k in keys])
                uniq = np.stack([np.asarray(fields[k])[leads] for k in keys], axis=1)
                means = np.asarray(
                    [ctx.expected_damage(c, opt.attack, t, {}, dict(zip(keys, map(int, u), strict=True))) for u in uniq]
                )
                per[sel, o, t] = means[inverse]
    return per


def _expected_table(ctx: FightContext, grid: FightMap) -> Any:
    """(combatants, options, combatants, 2): each option's expected damage to each creature it catches, with
    and without the grid's Hard to Hit (built once per fight)."""
    fight = ctx.fight

    def mean(c: int, a: int, t: int, code: int) -> float:
        return ctx.expected_damage(c, a, t, {}, {HARD_TO_HIT_FIELD: code})

    def build() -> Any:
        found = np.zeros((fight.roster.size, grid.width, fight.roster.size, 2))
        for c, opts in enumerate(grid.options):
            for o in range(len(opts)):
                found[c, o] = grid.expected(c, o, mean)
        return found

    if grid.expected_table is None:
        grid.expected_table = build()
    return grid.expected_table
