"""The battlefield: a board with creatures on it, checked square by square.

`Battlefield.build` turns the `map` and `combatants` models into footprints and refuses, with the field
named, a creature off the map, in a solid square, astride a wall, or overlapping another (Diminutive, Tiny and Small
creatures share a square: 8, 4 and 2 to a square, so the shares of a square may add up to one whole).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from tohit.core.errors import InputError, short_repr
from tohit.core.grid.board import Board
from tohit.core.grid.cover import Cover, CoverRule, behind_cover
from tohit.core.grid.footprint import Footprint, adjacent
from tohit.core.grid.models import CombatantSpec, MapSpec
from tohit.core.grid.movement import footprint_split
from tohit.core.grid.sizes import EIGHTHS, FOOTPRINT_SIDE, FULL_SQUARE, SizeCategory, category_from_feet
from tohit.core.grid.squares import Square


@dataclass(frozen=True)
class Creature:
    """A combatant on the map."""

    name: str
    side: str
    footprint: Footprint
    size: SizeCategory
    swarm: bool = False


def creature_from(spec: CombatantSpec) -> Creature:
    size = spec.size if isinstance(spec.size, str) else category_from_feet(spec.size)
    side = FOOTPRINT_SIDE[size]
    if spec.squares is not None:
        if size != "colossal":
            raise InputError(
                f"only a Colossal creature takes a given number of squares, not a {size} one", field="squares"
            )
        side = spec.squares
    x, y = spec.position
    return Creature(spec.name, spec.side, Footprint(x, y, side, EIGHTHS[size]), size, spec.swarm)


@dataclass(eq=False)
class Battlefield:
    """A board and the creatures on it, by name."""

    board: Board
    creatures: tuple[Creature, ...]
    _by_name: dict[str, Creature] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._by_name = {c.name: c for c in self.creatures}

    @classmethod
    def build(cls, map_spec: MapSpec, combatants: Sequence[CombatantSpec]) -> Battlefield:
        """Check and place every combatant; an InputError names `combatants[i].field`."""
        board = map_spec.board()
        creatures: list[Creature] = []
        seen: dict[str, int] = {}
        share: dict[Square, int] = {}
        owner: dict[Square, int] = {}
        for i, spec in enumerate(combatants):
            where = f"combatants[{i}]"
            if spec.name in seen:
                raise InputError(f"another combatant is also named {short_repr(spec.name)}", field=f"{where}.name")
            seen[spec.name] = i
            try:
                creature = creature_from(spec)
            except InputError as exc:
                raise exc.located(field_prefix=where) from None
            fp = creature.footprint
            for sq in fp.squares():
                if not board.on_map(sq):
                    raise InputError(
                        f"{spec.name} at {list(spec.position)} ({creature.size}, {fp.side}x{fp.side}) runs off the"
                        f" {board.width} x {board.height} map at square {list(sq)}",
                        field=f"{where}.position",
                    )
                if board.is_solid(sq):
                    raise InputError(f"{spec.name} would stand in solid square {list(sq)}", field=f"{where}.position")
                taken = share.get(sq, 0) + fp.eighths
                if taken > FULL_SQUARE:
                    other = combatants[owner[sq]].name
                    raise InputError(
                        f"{spec.name}'s footprint overlaps {other}'s at square {list(sq)}",
                        field=f"{where}.position",
                    )
                share[sq] = taken
                owner.setdefault(sq, i)
            if footprint_split(board, fp.origin, fp.side):
                raise InputError(f"{spec.name} would stand astride a wall", field=f"{where}.position")
            creatures.append(creature)
        return cls(board, tuple(creatures))

    def creature(self, name: str) -> Creature:
        try:
            return self._by_name[name]
        except KeyError:
            known = ", ".join(self._by_name) or "none"
            raise InputError(f"no combatant named {short_repr(name)}; the combatants are {known}") from None

    def has(self, name: str) -> bool:
        return name in self._by_name

    @cached_property
    def occupants(self) -> dict[Square, tuple[str, ...]]:
        """Square -> names of the creatures standing in it (several for sub-square creatures)."""
        out: dict[Square, list[str]] = {}
        for c in self.creatures:
            for sq in c.footprint.squares():
                out.setdefault(sq, []).append(c.name)
        return {sq: tuple(names) for sq, names in out.items()}

    def creatures_on(self, squares: Iterable[Square], *, besides: str) -> list[str]:
        """Names of the creatures (other than `besides`) with a square among `squares`, each once, in
        the order of the combatants list."""
        wanted = set(squares)
        return [
            c.name for c in self.creatures if c.name != besides and any(sq in wanted for sq in c.footprint.squares())
        ]

    def foes(self, of: str) -> list[Creature]:
        side = self.creature(of).side
        return [c for c in self.creatures if c.side != side]

    def is_foe(self, of: str, name: str) -> bool:
        return self.creature(of).side != self.creature(name).side

    def foe_adjacent(self, of: str) -> bool:
        """Some foe is adjacent to `of`."""
        me = self.creature(of).footprint
        return any(adjacent(me, c.footprint) or me.distance(c.footprint) == 0 for c in self.foes(of))

    def cover(self, attacker: str, target: str, rule: CoverRule = "any_line") -> Cover | None:
        """Cover of `target` from `attacker` under `rule`, with the blocked line and square."""
        return behind_cover(self.board, self.creature(attacker).footprint, self.creature(target).footprint, rule)
