"""What an attack reaches: each range type, placed, gives squares and the creatures it affects.

`reach(field, user, range)` reads the placement the scenario gives (a Blast's `at`, a Cone's
`direction`, a Melee `target`...) and returns a `Reach`; a missing or illegal placement is an InputError
naming the range's field (`direction`, `at`, `target`...). `placements(field, user, range)` yields every
legal placement of the range, each as a copy of the range model with the placement filled in (what
`tohit aim` tries).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from tohit.core.errors import InputError, short_repr
from tohit.core.grid import areas
from tohit.core.grid.battlefield import Battlefield, Creature
from tohit.core.grid.board import Board
from tohit.core.grid.footprint import Footprint
from tohit.core.grid.models import (
    AnyRange,
    BlastRange,
    BurstRange,
    ConeRange,
    LineRange,
    MeleeRange,
    ProjectileRange,
    SquaresWithinRange,
    SweepRange,
    TargetsWithinRange,
    WeaponRange,
)
from tohit.core.grid.segments import crosses
from tohit.core.grid.squares import DIRECTIONS, Square

#: Ranges whose every creature in the squares is affected (an area); the others pick their targets.
AREA_TYPES = frozenset({"blast", "burst", "cone", "line", "sweep", "squares_within"})


@dataclass(frozen=True)
class Reach:
    """A placed range: the squares it covers and the creatures it affects (a Swarm may repeat)."""

    range: AnyRange
    squares: tuple[Square, ...]
    hits: tuple[str, ...]
    #: Squares a Projectile's path crosses on its way (empty for other ranges).
    path: tuple[Square, ...] = ()

    @property
    def distinct(self) -> list[str]:
        return list(dict.fromkeys(self.hits))

    def alone(self, name: str) -> bool:
        """The attack is aimed at `name` and only `name` (a Helpless creature can then be harmed)."""
        return self.distinct == [name]

    def describe(self) -> str:
        return describe(self.range)


def describe(rng: AnyRange) -> str:
    """The range in the page's words, with its placement: "Cone 3 east from (2, 3)"."""
    if isinstance(rng, BlastRange):
        return f"Blast {rng.size}" + (f" at ({rng.at[0]}, {rng.at[1]})" if rng.at else "")
    if isinstance(rng, BurstRange):
        return f"Burst {rng.size}"
    if isinstance(rng, ConeRange | LineRange):
        text = f"{rng.type.capitalize()} {rng.size}" + (f" {rng.direction}" if rng.direction else "")
        return text + (f" from ({rng.origin[0]}, {rng.origin[1]})" if rng.origin else "")
    if isinstance(rng, MeleeRange):
        return "Melee" + (f" on {rng.target}" if rng.target else "")
    if isinstance(rng, ProjectileRange):
        return f"Projectile {rng.size}" + (f" at {rng.target}" if rng.target else "")
    if isinstance(rng, SweepRange):
        return f"Sweep {rng.size}" + (" " + " ".join(f"({x}, {y})" for x, y in rng.squares) if rng.squares else "")
    if isinstance(rng, TargetsWithinRange):
        return f"{rng.count} Targets within {rng.within} Squares" + (
            f": {', '.join(rng.targets)}" if rng.targets else ""
        )
    if isinstance(rng, SquaresWithinRange):
        return f"{rng.count} Squares within {rng.within} Squares"
    chosen = rng.chosen()
    return f"Weapon ({chosen.name}: {describe(chosen.range)})"


# Projectile X: a clear path from the centre of the user's square to the centre of the target's.


def path_squares(a: Square, b: Square) -> list[Square]:
    """Squares (other than `a` and `b`) whose interior the centre-to-centre segment a-b crosses, in order."""
    p, q = (2 * a[0] + 1, 2 * a[1] + 1), (2 * b[0] + 1, 2 * b[1] + 1)
    box = [
        (x, y)
        for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1)
        for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1)
        if (x, y) not in (a, b) and crosses(p, q, (x, y), scale=2)
    ]
    return sorted(box, key=lambda s: (s[0] - a[0]) ** 2 + (s[1] - a[1]) ** 2)


def path_clear(board: Board, a: Square, b: Square) -> bool:
    """No solid square on the centre-to-centre path from `a` to `b`, and no wall across it."""
    return not any(board.is_solid(sq) for sq in path_squares(a, b)) and not board.walled(a, b)


@dataclass(frozen=True)
class Shot:
    """A Projectile's path to a target: clear, or what stops it first."""

    path: tuple[Square, ...]
    blocker: str | None  # a creature's name, or "solid square (x, y)"; None when clear


def projectile_shot(field: Battlefield, user: str, target: str) -> Shot:
    """The clearest centre-to-centre path from the user's nearest square to the target's nearest square."""
    me, it = field.creature(user).footprint, field.creature(target).footprint
    first: Shot | None = None
    for a in me.nearest_squares(it):
        for b in it.nearest_squares(me):
            path = path_squares(a, b)
            board = field.board
            blocker = "a wall" if board.walls_only_between(a, b) else _first_blocker(field, path, user, target)
            if blocker is None and board.walled(a, b):
                blocker = _pinch(board, a, b)
            shot = Shot(tuple(path), blocker)
            if blocker is None:
                return shot
            first = first or shot
    assert first is not None
    return first


def _pinch(board: Board, a: Square, b: Square) -> str:
    """The solid squares meeting at a corner that the centre-to-centre path from `a` to `b` passes through, one
    on each side of it (the path squeezes through no gap: they are one solid object)."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    corners = [
        (cx, cy)
        for cy in range(min(ay, by) + 1, max(ay, by) + 1)
        for cx in range(min(ax, bx) + 1, max(ax, bx) + 1)
        if (2 * cx - 2 * ax - 1) * dy == (2 * cy - 2 * ay - 1) * dx  # on the line through both centres
    ]
    for cx, cy in sorted(corners, key=lambda c: abs(c[0] - ax) + abs(c[1] - ay)):
        solid = [sq for sq in ((cx - 1, cy - 1), (cx, cy - 1), (cx - 1, cy), (cx, cy)) if board.is_solid(sq)]
        if len(solid) >= 2:
            return f"solid squares {' and '.join(f'({x}, {y})' for x, y in solid)}, meeting at corner ({cx}, {cy})"
    return "a solid object"


def _first_blocker(field: Battlefield, path: list[Square], user: str, target: str) -> str | None:
    for sq in path:
        if field.board.is_solid(sq):
            return f"solid square ({sq[0]}, {sq[1]})"
        for name in field.occupants.get(sq, ()):
            if name not in (user, target):
                return name
    return None


def projectile_targets(field: Battlefield, user: str, size: int) -> list[str]:
    """Creatures within X squares with a clear path: those a Projectile X can hit."""
    me = field.creature(user).footprint
    return [
        c.name
        for c in field.creatures
        if c.name != user and me.distance(c.footprint) <= size and projectile_shot(field, user, c.name).blocker is None
    ]


def adjacent_targets(field: Battlefield, user: str) -> list[str]:
    """Creatures cardinally or diagonally adjacent to the user (or sharing its square), walls or not."""
    me = field.creature(user).footprint
    return [c.name for c in field.creatures if c.name != user and me.distance(c.footprint) <= 1]


def melee_targets(field: Battlefield, user: str) -> list[str]:
    """Creatures cardinally or diagonally adjacent to the user (or sharing its square), and not behind a wall:
    the user must be able to physically reach out and touch the target (some pair of their nearest squares
    has no wall between their centres)."""
    me = field.creature(user).footprint
    board = field.board
    return [
        c.name
        for c in field.creatures
        if c.name != user
        and me.distance(c.footprint) <= 1
        and (
            not board.has_blockers
            or any(
                not board.walled(a, b) for a in me.nearest_squares(c.footprint) for b in c.footprint.nearest_squares(me)
            )
        )
    ]


def within_targets(field: Battlefield, user: str, distance: int) -> list[str]:
    """Creatures with a square within Y squares (1-2-1) of the user; no line of sight needed."""
    me = field.creature(user).footprint
    return [c.name for c in field.creatures if c.name != user and me.distance(c.footprint) <= distance]


def swarm_squares_within(me: Footprint, creature: Creature, distance: int) -> int:
    """How many of a creature's squares are within Y of the user (the times a Swarm can be picked)."""
    return sum(1 for sq in creature.footprint.squares() if me.distance_to(sq) <= distance)


# Placing a range.


def reach(field: Battlefield, user: str, rng: AnyRange) -> Reach:
    """The squares and creatures of `rng` as placed; InputError (field relative to the range) if it cannot be."""
    me = field.creature(user).footprint
    board = field.board
    if isinstance(rng, WeaponRange):
        chosen = rng.chosen()
        index = rng.basic_attacks.index(chosen)
        try:
            inner = reach(field, user, chosen.range)
        except InputError as exc:
            raise exc.located(field_prefix=f"basic_attacks[{index}].range") from None
        return Reach(rng, inner.squares, inner.hits, inner.path)
    if isinstance(rng, BlastRange):
        if rng.at is None:
            raise InputError("a Blast needs its placement: the top-left square [x, y] (or run tohit aim)", field="at")
        if not areas.blast_touches(me, rng.at, rng.size):
            raise InputError(
                f"a Blast {rng.size} at {list(rng.at)} does not touch the user at {[me.x, me.y]}:"
                " one side or corner of it must touch the user's footprint",
                field="at",
            )
        squares = areas.blast(board, me, rng.at, rng.size)
        return Reach(rng, tuple(squares), tuple(field.creatures_on(squares, besides=user)))
    if isinstance(rng, BurstRange):
        squares = areas.burst(board, me, rng.size)
        return Reach(rng, tuple(squares), tuple(field.creatures_on(squares, besides=user)))
    if isinstance(rng, ConeRange | LineRange):
        if rng.direction is None:
            raise InputError(f"a {rng.type.capitalize()} needs a direction (or run tohit aim)", field="direction")
        facing = areas.facing_squares(me, rng.direction)
        origin = rng.origin if rng.origin is not None else areas.default_origin(me, rng.direction)
        if origin not in facing:
            raise InputError(
                f"a {rng.type.capitalize()} {rng.direction} starts from a square of the user's footprint on its"
                f" {rng.direction} side: one of {', '.join(str(list(s)) for s in facing)}",
                field="origin",
            )
        placed = rng.model_copy(update={"origin": origin})
        make = areas.cone if isinstance(rng, ConeRange) else areas.line
        squares = make(board, me, origin, rng.direction, rng.size)
        return Reach(placed, tuple(squares), tuple(field.creatures_on(squares, besides=user)))
    if isinstance(rng, MeleeRange):
        walled_off = [n for n in adjacent_targets(field, user) if n not in melee_targets(field, user)]
        if rng.target in walled_off or (rng.target is None and walled_off and not melee_targets(field, user)):
            name = rng.target or walled_off[0]  # adjacent, but a wall (or a solid object) between them
            what = "a wall stands" if board.has_walls else "solid squares meeting at a corner stand"
            raise InputError(
                f"{what} between {user} and {name}: a Melee must reach out and touch its target", field="target"
            )
        target = _single_target(field, user, rng.target, melee_targets(field, user), "adjacent to")
        return Reach(rng.model_copy(update={"target": target}), tuple(areas.ring(board, me)), (target,))
    if isinstance(rng, ProjectileRange):
        if rng.target is not None and field.has(rng.target):
            distance = me.distance(field.creature(rng.target).footprint)
            if distance > rng.size:
                raise InputError(
                    f"{rng.target} is {distance} squares away, beyond Projectile {rng.size}", field="target"
                )
            shot = projectile_shot(field, user, rng.target)
            if shot.blocker is not None:
                raise InputError(
                    f"the path to {rng.target} is blocked by {shot.blocker}: a Projectile cannot pass through"
                    " solid objects or other combatants",
                    field="target",
                )
        target = _single_target(
            field, user, rng.target, projectile_targets(field, user, rng.size), f"within Projectile {rng.size} of"
        )
        shot = projectile_shot(field, user, target)
        return Reach(rng.model_copy(update={"target": target}), shot.path, (target,), shot.path)
    if isinstance(rng, SweepRange):
        if rng.squares is None:
            raise InputError("a Sweep needs its squares, in order (or run tohit aim)", field="squares")
        problem = areas.sweep_problem(board, me, list(rng.squares), rng.size, user)
        if problem:
            raise InputError(problem, field="squares")
        return Reach(rng, tuple(rng.squares), tuple(field.creatures_on(rng.squares, besides=user)))
    if isinstance(rng, TargetsWithinRange):
        return _targets_within(field, user, rng)
    assert isinstance(rng, SquaresWithinRange)
    if rng.squares is None:
        raise InputError("X Squares within Y needs its squares (or run tohit aim)", field="squares")
    if len(rng.squares) > rng.count:
        raise InputError(f"{len(rng.squares)} squares chosen, the attack affects {rng.count}", field="squares")
    allowed = set(areas.within(board, me, rng.within))
    for i, sq in enumerate(rng.squares):
        if sq not in allowed:
            raise InputError(
                f"square {list(sq)} is not an open square within {rng.within} of the user", field=f"squares[{i}]"
            )
        if sq in rng.squares[:i]:
            raise InputError(f"square {list(sq)} is chosen twice", field=f"squares[{i}]")
    hits: list[str] = []
    for c in field.creatures:
        if c.name == user:
            continue
        inside = sum(1 for sq in rng.squares if c.footprint.contains(sq))
        hits += [c.name] * (inside if c.swarm else min(inside, 1))
    return Reach(rng, tuple(rng.squares), tuple(hits))


def _single_target(field: Battlefield, user: str, chosen: str | None, candidates: list[str], how: str) -> str:
    if chosen is not None:
        field.creature(chosen) if field.has(chosen) else _unknown(field, chosen)
        if chosen not in candidates:
            raise InputError(f"{chosen} is not {how} {user}", field="target")
        return chosen
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise InputError(f"no creature is {how} {user}", field="target")
    raise InputError(f"several creatures are {how} {user} ({', '.join(candidates)}): name one", field="target")


def _unknown(field: Battlefield, name: str, where: str = "target") -> None:
    known = ", ".join(c.name for c in field.creatures)
    raise InputError(f"no combatant named {short_repr(name)}; the combatants are {known}", field=where)


def _targets_within(field: Battlefield, user: str, rng: TargetsWithinRange) -> Reach:
    me = field.creature(user).footprint
    candidates = within_targets(field, user, rng.within)
    squares = tuple(areas.within(field.board, me, rng.within))
    if rng.targets is None:
        foes = [n for n in candidates if field.is_foe(user, n)]
        if len(foes) > rng.count:
            raise InputError(
                f"{len(foes)} foes are within {rng.within} squares ({', '.join(foes)}): choose {rng.count}"
                " (or run tohit aim)",
                field="targets",
            )
        return Reach(rng.model_copy(update={"targets": foes}), squares, tuple(foes))
    if len(rng.targets) > rng.count:
        raise InputError(f"{len(rng.targets)} targets chosen, the attack affects {rng.count}", field="targets")
    for i, name in enumerate(rng.targets):
        if not field.has(name):
            _unknown(field, name, f"targets[{i}]")
        if name not in candidates:
            raise InputError(f"{name} is not within {rng.within} squares of {user}", field=f"targets[{i}]")
        creature = field.creature(name)
        times = rng.targets[: i + 1].count(name)
        allowed = swarm_squares_within(me, creature, rng.within) if creature.swarm else 1
        if times > allowed:
            why = f"a Swarm with {allowed} squares in range" if creature.swarm else "not a Swarm"
            raise InputError(f"{name} is chosen {times} times; it is {why}", field=f"targets[{i}]")
    return Reach(rng, squares, tuple(rng.targets))


def placements(field: Battlefield, user: str, rng: AnyRange) -> Iterator[AnyRange]:
    """Every legal placement of `rng` for `user` (X Targets / Squares within Y: every choice of up to X
    foes / squares holding a creature; the other ranges: every position, direction and target)."""
    me = field.creature(user).footprint
    board = field.board
    if isinstance(rng, WeaponRange):
        for b in rng.basic_attacks:
            for inner in placements(field, user, b.range):
                attacks = [x.model_copy(update={"range": inner}) if x.name == b.name else x for x in rng.basic_attacks]
                yield rng.model_copy(update={"use": b.name, "basic_attacks": attacks})
    elif isinstance(rng, BlastRange):
        for at in areas.blast_placements(me, rng.size):
            if areas.blast(board, me, at, rng.size):
                yield rng.model_copy(update={"at": at})
    elif isinstance(rng, BurstRange):
        yield rng
    elif isinstance(rng, ConeRange | LineRange):
        for direction in DIRECTIONS:
            for origin in areas.facing_squares(me, direction):
                yield rng.model_copy(update={"direction": direction, "origin": origin})
    elif isinstance(rng, MeleeRange):
        for name in melee_targets(field, user):
            yield rng.model_copy(update={"target": name})
    elif isinstance(rng, ProjectileRange):
        for name in projectile_targets(field, user, rng.size):
            yield rng.model_copy(update={"target": name})
    elif isinstance(rng, SweepRange):
        for path in areas.sweeps(board, me, rng.size):
            yield rng.model_copy(update={"squares": list(path)})
    elif isinstance(rng, TargetsWithinRange):
        names = within_targets(field, user, rng.within)
        for k in range(1, min(rng.count, len(names)) + 1):
            for combo in combinations(names, k):
                yield rng.model_copy(update={"targets": list(combo)})
    else:
        occupied = [sq for sq in areas.within(board, me, rng.within) if sq in field.occupants]
        for k in range(1, min(rng.count, len(occupied)) + 1):
            for chosen in combinations(occupied, k):
                yield rng.model_copy(update={"squares": list(chosen)})
