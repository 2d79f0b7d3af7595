"""Reclaim the Wild fights on a map: movement (the game's other pages, Reclaim the Wild, from
Movement), then the attack from where the move ends.

Movement [Movement, as the game's other pages gives it]: "entering a square costs 1 Movement; Heroes typically
have 6; 1-2-1 diagonals as for ranges; a creature may enter a last square even if it costs more than it has
left; it cannot pass through an enemy's space but may pass through an ally's; Difficult Terrain costs 1 more per
square". Each combatant has its `movement` (default 6); walls and objects (solid squares) block; the path
search is the grid core's (`tohit.core.grid.movement`). A Helpless creature cannot move (it takes no turn).

A turn on a map (`move_and_attack`): a combatant with a foe in reach of an attack it can use now attacks from where
it stands (it does not move: tohit's reading). Otherwise its policy picks a foe (`first`: the first standing foe in
file order, `weakest`: the one with the least Health, `random`: one drawn uniformly, `best`: the nearest, ties in
file order; a `focus` while it stands; in a live encounter the foe the game master names) and it moves toward it:
to the square reached for the least Movement from which one of its attacks reaches that foe (Melee: adjacent;
Projectile X: within X with a path clear of solid squares and of other standing combatants, as the attack checks
it; X Targets or Squares within Y: within Y; an area of size X: within X), else, out of its Movement, to the square
nearest that foe (ties: the least Movement, then the topmost, leftmost square); it stays where it is when no square
is nearer. Ties between squares: the least Movement, then the topmost, leftmost. The move is an event (`move`: the
combatant's `x` and `y`), so replay checks it, and the narration shows the path. Then it attacks as on a map
without movement (`map_turn`), from its new square.

The state holds each combatant's `x` and `y`; the options of every attack are worked out once per set of
positions met (`grid_at`, a `FightMap` each). A live encounter's `adjust` of `x` or `y` is the GM's free move.
Not played (the page's other movement rules): Sprinting, Unnatural movement, a Prone creature's half Movement to
stand up, pushes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tohit.core.fight.contract import FightContext, LoadedFight
from tohit.core.fight.gm_choice import GMChoice
from tohit.core.fight.rows import lowest_rows
from tohit.core.fight.spec import CODES, policy_codes
from tohit.core.fight.state import BoolArray, IntArray, State
from tohit.core.grid.footprint import Footprint
from tohit.core.grid.models import (
    AnyRange,
    MeleeRange,
    ProjectileRange,
    SquaresWithinRange,
    SweepRange,
    TargetsWithinRange,
    WeaponRange,
)
from tohit.core.grid.movement import Move, moves
from tohit.core.grid.reach import path_clear, path_squares
from tohit.systems.rtw.fight_map import FightMap, file_position
from tohit.systems.rtw.fight_map_turn import MapTurnRules, map_turn
from tohit.systems.rtw.fight_status import StatusPlay

Positions = tuple[tuple[int, int], ...]


def grid_at(fight: LoadedFight, positions: Positions) -> FightMap:
    """The map with every combatant at `positions` and every option of its attacks (built once per set)."""
    maps: dict[Positions, FightMap] = fight.memo("rtw_maps", dict)
    found = maps.get(positions)
    if found is None:
        found = maps[positions] = FightMap(fight, positions)
    return found


def file_positions(fight: LoadedFight) -> Positions:
    return tuple(file_position(c) for c in fight.combatants)


def positions_of(state: State) -> IntArray:
    """(fights, combatants, 2): each combatant's [x, y] in each fight."""
    out: IntArray = np.stack([state.per["x"], state.per["y"]], axis=2)
    return out


def reach_distance(rng: AnyRange | None) -> tuple[int, bool]:
    """How far (1-2-1, footprint to footprint) an attack of range `rng` can reach, and whether it is a Projectile
    (whose path must be clear of solid squares)."""
    if rng is None or isinstance(rng, MeleeRange | SweepRange):
        return 1, False
    if isinstance(rng, ProjectileRange):
        return rng.size, True
    if isinstance(rng, TargetsWithinRange | SquaresWithinRange):
        return rng.within, False
    if isinstance(rng, WeaponRange):
        found = [reach_distance(b.range) for b in rng.basic_attacks if rng.use is None or b.name == rng.use]
        return max(found)
    return int(getattr(rng, "size", 1)), False


class Mover:
    """Where each combatant would move toward a foe, from a set of positions and who is standing (memoised)."""

    def __init__(self, fight: LoadedFight) -> None:
        self.fight = fight
        base = grid_at(fight, file_positions(fight))
        self.board = base.field.board
        self.sides = [base.field.creature(n).footprint.side for n in base.names]
        self.movement = [int(c.movement) for c in fight.combatants]
        self.reach = [[reach_distance(e.grid_range) for e in c.attacks] for c in fight.combatants]
        self.foe = fight.roster.foe_matrix
        self.memo: dict[tuple[Positions, tuple[bool, ...], int, int], Move | None] = {}

    def footprint(self, c: int, at: tuple[int, int]) -> Footprint:
        return Footprint(at[0], at[1], self.sides[c])

    def in_reach(
        self, c: int, at: tuple[int, int], target: Footprint, others: frozenset[tuple[int, int]] = frozenset()
    ) -> bool:
        """One of c's attacks reaches `target` from `at` (see the module docstring); a Projectile's path must be
        clear of solid squares and of `others`, the squares of the other standing combatants (a Projectile
        "cannot go through solid objects or other combatants", as the attack itself checks)."""
        me = self.footprint(c, at)
        gap = me.distance(target)
        for far, projectile in self.reach[c]:
            if gap > far:
                continue
            if not projectile:
                return True
            for a in me.nearest_squares(target):
                for b in target.nearest_squares(me):
                    if path_clear(self.board, a, b) and not any(sq in others for sq in path_squares(a, b)):
                        return True
        return False

    def move(self, positions: Positions, standing: tuple[bool, ...], c: int, t: int) -> Move | None:
        """c's move toward t (None: it stays where it is)."""
        key = (positions, standing, c, t)
        if key in self.memo:
            return self.memo[key]
        blocked: set[tuple[int, int]] = set()
        occupied: set[tuple[int, int]] = set()
        in_the_way: set[tuple[int, int]] = set()  # standing combatants a Projectile cannot pass through
        for o, at in enumerate(positions):
            if o == c:
                continue
            squares = set(self.footprint(o, at).squares())
            occupied |= squares
            if self.foe[c, o] and standing[o]:  # an enemy's space cannot be passed through; a fallen one can
                blocked |= squares
            if o != t and standing[o]:
                in_the_way |= squares
        others = frozenset(in_the_way)
        found = moves(
            self.board, positions[c], self.movement[c], side=self.sides[c], blocked=blocked, occupied=occupied
        )
        target = self.footprint(t, positions[t])
        reaching = [m for m in found.values() if self.in_reach(c, m.end, target, others)]
        best: Move | None
        if reaching:
            best = min(reaching, key=lambda m: (m.cost, m.end[1], m.end[0]))
        else:
            now = self.footprint(c, positions[c]).distance(target)
            best = min(
                found.values(), key=lambda m: (self.footprint(c, m.end).distance(target), m.cost, m.end[1], m.end[0])
            )
            if self.footprint(c, best.end).distance(target) >= now:
                best = None
        if best is not None and best.end == positions[c]:
            best = None
        self.memo[key] = best
        return best


def _mover(fight: LoadedFight) -> Mover:
    return fight.memo("rtw_mover", lambda: Mover(fight))


#: Odd multipliers of a row's coordinates for a 64-bit key of its positions (`_groups`; collisions are checked).
_MIX = np.asarray([(0x9E3779B97F4A7C15 * (2 * k + 1)) % (1 << 63) | 1 for k in range(512)], dtype=np.int64)


def _groups(positions: IntArray) -> tuple[IntArray, IntArray]:
    """The distinct sets of positions (k, combatants, 2) among the rows, and each row's set (a 64-bit key per row,
    sorted in one dimension: far faster than `np.unique(axis=0)`; a collision falls back to it)."""
    n = positions.shape[0]
    flat = positions.reshape(n, -1)
    width = flat.shape[1]
    if n == 0 or width > _MIX.size:
        uniq, inverse = np.unique(flat, axis=0, return_inverse=True)
        return uniq.reshape(-1, *positions.shape[1:]), np.asarray(inverse).reshape(-1)
    with np.errstate(over="ignore"):
        key = (flat * _MIX[:width]).sum(axis=1)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    sets = flat[first]
    if not (sets[inverse] == flat).all():  # pragma: no cover - a 64-bit collision
        uniq, inverse = np.unique(flat, axis=0, return_inverse=True)
        return uniq.reshape(-1, *positions.shape[1:]), np.asarray(inverse).reshape(-1)
    return sets.reshape(-1, *positions.shape[1:]), np.asarray(inverse).reshape(-1)


def _index_of(sets: IntArray, block: IntArray) -> int:
    """The index of `block` among `sets` (it is one of them)."""
    return int(np.flatnonzero((sets == block[None]).all(axis=(1, 2)))[0])


def _as_positions(block: IntArray) -> Positions:
    return tuple((int(x), int(y)) for x, y in block.tolist())


def _in_reach(rules: MapTurnRules, ctx: FightContext, acting: BoolArray, actor: IntArray) -> BoolArray:
    """(rows,): the actor has a foe in reach of an attack it can use now, from where it stands."""
    fight = ctx.fight
    out = np.zeros(ctx.n, dtype=bool)
    sets, which = _groups(positions_of(ctx.state))
    standing = ctx.standing()
    flags = rules._flags(fight)
    for k in range(sets.shape[0]):
        rows = np.flatnonzero(acting & (which == k))
        if rows.size == 0:
            continue
        grid = grid_at(fight, _as_positions(sets[k]))
        who = np.maximum(actor[rows], 0)
        valid, _, _ = grid.reachable(actor[rows], standing[rows])
        if flags[0] or flags[1]:
            per_attack = rules.usable(fight, ctx.state.take(rows))[np.arange(rows.size), who]  # (r, A)
            valid &= np.take_along_axis(per_attack, np.maximum(grid.attack[who], 0), axis=1)
        out[rows] = valid.any(axis=1)
    return out


def _targets(
    ctx: FightContext, movers: BoolArray, actor: IntArray, choice: GMChoice | None = None
) -> tuple[Any, IntArray]:
    """(idx, target) of each mover by its policy (see the module docstring), or toward the foe the game
    master's `choice` names; -1 where it has no foe."""
    fight = ctx.fight
    n, size = ctx.n, fight.roster.size
    who = np.maximum(actor, 0)
    foes = fight.roster.foe_matrix[who] & ctx.standing() & movers[:, None]  # (n, C)
    policy = policy_codes(fight, "policy")[who]
    focus = policy_codes(fight, "focus")[who]
    target = np.where(foes.any(axis=1), np.argmax(foes, axis=1), -1)  # first: the first in file order
    weakest = movers & (policy == CODES["weakest"])
    if weakest.any():
        # The weakest foe in int64 (`lowest_rows`), whatever a batch holds health in: a narrow stat's int32 would
        # turn the "no foe" value into -1 in a `where`, and the mover would head for a friend.
        target = np.where(weakest & foes.any(axis=1), lowest_rows(foes, ctx.state.per["health"]), target)
    best = movers & (policy == CODES["best"])
    if best.any():
        mover = _mover(fight)
        pos = positions_of(ctx.state)
        for r in np.flatnonzero(best & foes.any(axis=1)).tolist():
            c = int(who[r])
            me = mover.footprint(c, (int(pos[r, c, 0]), int(pos[r, c, 1])))
            dist = [
                me.distance(mover.footprint(t, (int(pos[r, t, 0]), int(pos[r, t, 1])))) if foes[r, t] else 10**9
                for t in range(size)
            ]
            target[r] = int(np.argmin(dist))
    has_focus = movers & (focus >= 0)
    if has_focus.any():
        on = foes[np.arange(n), np.maximum(focus, 0)] & has_focus
        target = np.where(on, focus, target)
    if choice is not None:  # a live encounter's game master names the foe: the move goes toward it
        named = choice.target
        return slice(None), np.where(movers & foes[:, named], named, target)
    idx: Any = slice(None)
    random = movers & (policy == CODES["random"]) & foes.any(axis=1) & ~(has_focus & (target == focus))
    if random.any():
        idx, drawn = ctx.choose(foes & random[:, None])
        target = np.where(random[idx], drawn, target[idx])
    return idx, target


def move_phase(
    rules: MapTurnRules, ctx: FightContext, acting: BoolArray, actor: IntArray, choice: GMChoice | None = None
) -> None:
    """Each acting combatant with no foe in reach moves toward the foe its policy picks (an event `move`)."""
    fight = ctx.fight
    movers = acting & ~_in_reach(rules, ctx, acting, actor)
    if not movers.any():
        return
    idx, target = _targets(ctx, movers, actor, choice)
    movers, actor = movers[idx], actor[idx]
    mover = _mover(fight)
    pos = positions_of(ctx.state)
    standing = ctx.standing()
    rows, whos, xs, ys = [], [], [], []
    first: tuple[int, int, Move] | None = None
    for r in np.flatnonzero(movers & (target >= 0)).tolist():
        c, t = int(actor[r]), int(target[r])
        got = mover.move(_as_positions(pos[r]), tuple(bool(s) for s in standing[r].tolist()), c, t)
        if got is None:
            continue
        rows.append(r)
        whos.append(c)
        xs.append(got.end[0])
        ys.append(got.end[1])
        if first is None:
            first = (c, t, got)
    if not rows:
        return
    r_arr = np.asarray(rows, dtype=np.int64)
    c_arr = np.asarray(whos, dtype=np.int64)

    assert first is not None  # a row moved: the first mover is known
    c, t, got = first
    names = fight.roster.names
    ctx.emit(
        "move",
        [
            ctx.set("x", r_arr, np.asarray(xs, dtype=np.int64), c_arr),
            ctx.set("y", r_arr, np.asarray(ys, dtype=np.int64), c_arr),
        ],
        combatant=lambda: names[c],
        toward=lambda: names[t],
        path=lambda: [[int(x), int(y)] for x, y in got.path],
        cost=lambda: int(got.cost),
        movement=lambda: int(mover.movement[c]),
    )


def move_and_attack(
    rules: MapTurnRules,
    ctx: FightContext,
    acting: BoolArray,
    actor: IntArray,
    play: StatusPlay | None,
    choice: GMChoice | None = None,
) -> None:
    """A turn on a map: the move (`move_phase`), then the attack from each row's positions (`map_turn` with the
    `FightMap` of those positions). The rows are followed through the turn's expansions by `ctx.parent` (a turn
    starts on its step's own rows)."""
    fight = ctx.fight
    start = np.asarray(ctx.parent)
    if not np.array_equal(start, np.arange(start.size)):  # pragma: no cover - a turn starts a step's rows
        raise RuntimeError("a Reclaim the Wild turn on a map must start on the step's own rows")
    acting0, actor0 = acting.copy(), actor.copy()
    move_phase(rules, ctx, acting, actor, choice)
    sets, which = _groups(positions_of(ctx.state))
    for k in range(sets.shape[0]):
        parent = np.asarray(ctx.parent)
        if which.size != parent.size:  # the rows expanded (exact mode): find each row's set again (no attack
            now_sets, now_which = _groups(positions_of(ctx.state))  # moves anyone: each is one of `sets`)
            which = np.asarray([_index_of(sets, block) for block in now_sets], dtype=np.int64)[now_which]
        mask = acting0[parent] & (which == k)
        if mask.any():
            map_turn(rules, ctx, mask, actor0[parent], grid_at(fight, _as_positions(sets[k])), play, choice)
