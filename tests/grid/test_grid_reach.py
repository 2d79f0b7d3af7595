"""Every range type placed on a battlefield: the squares and the creatures it affects
(rtw: Attack Ranges), with its errors naming the range's field."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter

from tohit.core.errors import InputError
from tohit.core.grid.battlefield import Battlefield
from tohit.core.grid.models import AnyRange, CombatantSpec, MapSpec, Range
from tohit.core.grid.reach import describe, placements, projectile_shot, reach

RANGE: TypeAdapter[Any] = TypeAdapter(Range)


def field(rows: list[str], **extra: dict[str, Any]) -> Battlefield:
    """Creatures from letters: `@` the user (Hero, side heroes), upper case foes, lower case allies."""
    combatants = []
    seen = set()
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c in ".#" or c in seen:
                continue
            seen.add(c)
            name = "Hero" if c == "@" else c
            side = "heroes" if c == "@" or c.islower() else "monsters"
            spec: dict[str, Any] = {"name": name, "side": side, "position": [x, y], **extra.get(name, {})}
            combatants.append(CombatantSpec.model_validate(spec))
    board_rows = ["".join("#" if c == "#" else "." for c in row) for row in rows]
    return Battlefield.build(MapSpec(rows=board_rows), combatants)


def rng(data: dict[str, Any]) -> AnyRange:
    return RANGE.validate_python(data)  # type: ignore[no-any-return]


def test_grid_line_passes_through_creatures() -> None:
    """Line X affects all targets in the line, passing through combatants (rtw: Line X)."""
    bf = field(["@AbC#D"])
    got = reach(bf, "Hero", rng({"type": "line", "size": 6, "direction": "east"}))
    assert got.squares == ((1, 0), (2, 0), (3, 0))
    assert got.hits == ("A", "b", "C")  # stops at the wall: D is safe


def test_grid_projectile_stopped_by_a_creature() -> None:
    """Projectile X: cannot pass through other combatants; one target, the first reached."""
    bf = field(["@.A.B...", "........", "...#..C."])
    assert projectile_shot(bf, "Hero", "B").blocker == "A"
    with pytest.raises(InputError, match="blocked by A") as exc:
        reach(bf, "Hero", rng({"type": "projectile", "size": 8, "target": "B"}))
    assert exc.value.field == "target"
    got = reach(bf, "Hero", rng({"type": "projectile", "size": 8, "target": "A"}))
    assert got.hits == ("A",) and got.path == ((1, 0),)


def test_grid_projectile_stopped_by_a_solid_square_and_range() -> None:
    """The page's picture: one foe behind a block, one behind its friend; beyond X is out of range."""
    bf = field(["@...#A", "......", "..B..C"])
    assert projectile_shot(bf, "Hero", "A").blocker == "solid square (4, 0)"
    options = [p.target for p in placements(bf, "Hero", rng({"type": "projectile", "size": 8}))]  # type: ignore[union-attr]
    assert options == ["B", "C"]
    with pytest.raises(InputError, match="beyond Projectile 3"):
        reach(bf, "Hero", rng({"type": "projectile", "size": 3, "target": "C"}))


def test_grid_projectile_grazing_a_corner_is_not_blocked() -> None:
    """The centre-to-centre path past one solid square's corner only touches it; through the corner where two solid
    squares meet, one on each side, it goes through that solid object (issue 36: as the same squares drawn as
    walls, docs/maps.md)."""
    assert projectile_shot(field(["@#..", "....", "..A."]), "Hero", "A").blocker is None
    bf = field(["@#..", "#...", "..A."])
    assert projectile_shot(bf, "Hero", "A").blocker == "solid squares (1, 0) and (0, 1), meeting at corner (1, 1)"


def test_grid_foe_adjacent_makes_projectile_foes_hard_to_hit() -> None:
    """If any foe is adjacent, all foes are Hard to Hit with Projectile attacks (geometry part)."""
    assert field(["@A..B"]).foe_adjacent("Hero")
    assert field([".....", "...A.", "@....", "..B.."]).foe_adjacent("Hero") is False
    assert field(["@a..B"]).foe_adjacent("Hero") is False  # an ally does not count


def test_grid_melee_one_adjacent_target() -> None:
    bf = field(["....", ".@A.", "B..."])
    assert reach(bf, "Hero", rng({"type": "melee", "target": "B"})).hits == ("B",)
    with pytest.raises(InputError, match="several creatures are adjacent to Hero") as exc:
        reach(bf, "Hero", rng({"type": "melee"}))
    assert exc.value.field == "target"
    far = field(["@..A"])
    with pytest.raises(InputError, match="A is not adjacent to Hero"):
        reach(far, "Hero", rng({"type": "melee", "target": "A"}))


def test_grid_blast_placement_must_touch_the_user() -> None:
    """A Blast placement that does not touch the user is refused, naming `at`."""
    bf = field(["@.....", "......", "......"])
    with pytest.raises(InputError, match="does not touch the user") as exc:
        reach(bf, "Hero", rng({"type": "blast", "size": 2, "at": [2, 0]}))
    assert exc.value.field == "at"
    with pytest.raises(InputError, match="needs its placement"):
        reach(bf, "Hero", rng({"type": "blast", "size": 2}))


def test_grid_blast_hits_every_creature_in_its_squares_once() -> None:
    bf = field(["@A..", ".b..", "...."])
    got = reach(bf, "Hero", rng({"type": "blast", "size": 2, "at": [1, 0]}))
    assert got.hits == ("A", "b")
    assert describe(got.range) == "Blast 2 at (1, 0)"


def test_grid_cone_needs_a_direction_and_a_facing_origin() -> None:
    bf = field(["@@..", "@@..", "...."], Hero={"size": "large"})
    with pytest.raises(InputError, match="needs a direction") as exc:
        reach(bf, "Hero", rng({"type": "cone", "size": 2}))
    assert exc.value.field == "direction"
    with pytest.raises(InputError, match="starts from a square") as exc:
        reach(bf, "Hero", rng({"type": "cone", "size": 2, "direction": "east", "origin": [0, 0]}))
    assert exc.value.field == "origin"
    got = reach(bf, "Hero", rng({"type": "cone", "size": 2, "direction": "e"}))
    assert got.range.origin == (1, 0)  # type: ignore[union-attr]


def test_grid_targets_within_counts_a_creature_once_unless_a_swarm() -> None:
    """X Targets within Y: a target is affected once however many squares it fills, unless a Swarm."""
    bf = field(["@.AA.", "..AA.", "..SS.", "..SS."], A={"size": "large"}, S={"size": "large", "swarm": True})
    within = {"type": "targets_within", "count": 3, "within": 4}
    with pytest.raises(InputError, match="chosen 2 times; it is not a Swarm"):
        reach(bf, "Hero", rng({**within, "targets": ["A", "A"]}))
    got = reach(bf, "Hero", rng({**within, "targets": ["A", "S", "S"]}))
    assert got.hits == ("A", "S", "S")
    assert got.distinct == ["A", "S"]
    chosen = [[2, 0], [3, 0], [2, 2]]
    squares = reach(bf, "Hero", rng({"type": "squares_within", "count": 3, "within": 3, "squares": chosen}))
    assert squares.hits == ("A", "S")
    both = reach(bf, "Hero", rng({"type": "squares_within", "count": 2, "within": 4, "squares": [[2, 2], [3, 2]]}))
    assert both.hits == ("S", "S")


def test_grid_targets_within_defaults_to_every_foe_when_few_enough() -> None:
    bf = field(["@.A.....B"])
    got = reach(bf, "Hero", rng({"type": "targets_within", "count": 2, "within": 3}))
    assert got.hits == ("A",)
    with pytest.raises(InputError, match="not within 3 squares"):
        reach(bf, "Hero", rng({"type": "targets_within", "count": 2, "within": 3, "targets": ["B"]}))


def test_grid_weapon_uses_the_chosen_basic_attack_range() -> None:
    """Weapon: the range of the weapon's Basic Attack; the attacker picks one when there are several."""
    bf = field(["@A.B"])
    weapon = {
        "type": "weapon",
        "basic_attacks": [
            {"name": "stab", "range": {"type": "line", "size": 2, "direction": "east"}},
            {"name": "strike", "range": {"type": "melee"}},
        ],
    }
    assert reach(bf, "Hero", rng(weapon)).hits == ("A",)
    assert reach(bf, "Hero", rng({**weapon, "use": "stab"})).squares == ((1, 0), (2, 0))
    kinds = {describe(p) for p in placements(bf, "Hero", rng(weapon))}
    assert "Weapon (strike: Melee on A)" in kinds and len(kinds) == 9  # 8 Line directions + 1 Melee


def test_grid_placements_of_each_range() -> None:
    bf = field(["......", "..@...", "......", "....A."])
    count = {
        "blast": ({"type": "blast", "size": 2}, 12),
        "burst": ({"type": "burst", "size": 1}, 1),
        "cone": ({"type": "cone", "size": 2}, 8),
        "sweep": ({"type": "sweep", "size": 2}, 8),
        "melee": ({"type": "melee"}, 0),
        "within": ({"type": "targets_within", "count": 2, "within": 3}, 1),
    }
    for name, (spec, n) in count.items():
        assert len(list(placements(bf, "Hero", rng(spec)))) == n, name


def test_grid_unknown_range_type_and_direction_are_refused() -> None:
    with pytest.raises(Exception, match="does not match any of the expected tags"):
        rng({"type": "cube", "size": 3})
    with pytest.raises(Exception, match="unknown direction 'up'"):
        rng({"type": "cone", "size": 3, "direction": "up"})
