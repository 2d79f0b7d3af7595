"""Rules at the seams of the map (issue 36, item 5): walls through a square's centre, solid squares against the
same squares drawn as walls, and the templates that stop at walls (rtw: Attack Ranges; Attacking Foes behind
Cover; docs/maps.md, "Walls as the rules see them")."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pydantic import TypeAdapter

from tohit.core.errors import InputError
from tohit.core.grid.battlefield import Battlefield
from tohit.core.grid.board import STEPS, Board
from tohit.core.grid.cover import COVER_RULES, square_cover
from tohit.core.grid.cover_kernel import cover_matrix
from tohit.core.grid.models import CombatantSpec, MapSpec, Range
from tohit.core.grid.movement import moves
from tohit.core.grid.reach import path_clear, placements, projectile_shot, projectile_targets, reach
from tohit.core.grid.walls import wall_array

RANGE: TypeAdapter[Any] = TypeAdapter(Range)


def battlefield(width: int, height: int, where: dict[str, tuple[int, int]], **map_extra: Any) -> Battlefield:
    """`where`: name -> square; "Hero" is on side heroes, every other name a foe."""
    combatants = [
        CombatantSpec.model_validate({"name": n, "side": "heroes" if n == "Hero" else "monsters", "position": list(sq)})
        for n, sq in where.items()
    ]
    return Battlefield.build(MapSpec.model_validate({"width": width, "height": height, **map_extra}), combatants)


def test_rtw_projectile_cannot_go_through_solid_objects_alike_for_every_target_beyond_a_wall_through_the_square() -> (
    None
):
    """rtw: Attack Ranges, Projectile X ("it cannot go through solid objects"): a wall through the centre of the
    shooter's square stands between it and every square beyond that wall, so shots at (2, 2) and (3, 2) from
    (3, 4) under the wall y = 4.5 are blocked alike (the square counts as standing on one side of the wall)."""
    walls = [[0, 4.5, 7, 4.5]]
    for target in [(2, 2), (3, 2), (4, 2), (1, 3), (5, 0), (0, 0)]:
        bf = battlefield(7, 7, {"Hero": (3, 4), "A": target}, walls=walls)
        assert projectile_shot(bf, "Hero", "A").blocker == "a wall", target
        assert projectile_targets(bf, "Hero", 8) == [], target
    # The target's square on the wall, the shooter beyond it: the same from the other end.
    for shooter in [(2, 2), (3, 2)]:
        bf = battlefield(7, 7, {"Hero": shooter, "A": (3, 4)}, walls=walls)
        assert projectile_shot(bf, "Hero", "A").blocker == "a wall", shooter
    # On the side the square stands on (below the wall), the shots are clear.
    for target in [(4, 6), (2, 6), (3, 6)]:
        bf = battlefield(7, 7, {"Hero": (3, 4), "A": target}, walls=walls)
        assert projectile_shot(bf, "Hero", "A").blocker is None, target


def _wall_at_x2(where: dict[str, tuple[int, int]]) -> Battlefield:
    """A 6 x 5 map with a wall down x = 2 (between columns 1 and 2), the Hero at (1, 2)."""
    return battlefield(6, 5, {"Hero": (1, 2), **where}, walls=[[2, 0, 2, 5]])


def test_rtw_melee_must_physically_reach_the_target_and_a_refusal_names_the_wall() -> None:
    """rtw: Attack Ranges, Melee ("the user must be able to physically reach out and touch the target"): a foe
    adjacent across a wall cannot be reached, and the refusal says the wall stands between them, not that the
    foe is not adjacent."""
    bf = _wall_at_x2({"A": (2, 2)})
    with pytest.raises(InputError, match="a wall stands between Hero and A") as exc:
        reach(bf, "Hero", RANGE.validate_python({"type": "melee", "target": "A"}))
    assert exc.value.field == "target"
    assert "not adjacent" not in str(exc.value)
    with pytest.raises(InputError, match="a wall stands between Hero and A"):
        reach(bf, "Hero", RANGE.validate_python({"type": "melee"}))


def test_rtw_sweep_cuts_only_squares_the_user_reaches_not_across_a_wall() -> None:
    """rtw: Attack Ranges, Sweep X ("cuts through X many squares immediately adjacent to the user"), as Melee: a
    square adjacent across a wall is out of its reach; a Sweep naming it is refused, naming the wall, and no
    placement of it cuts across the wall."""
    bf = _wall_at_x2({"A": (2, 2)})
    with pytest.raises(InputError, match="a wall stands between Hero and square \\[2, 1\\]") as exc:
        reach(bf, "Hero", RANGE.validate_python({"type": "sweep", "size": 2, "squares": [[2, 1], [2, 2]]}))
    assert exc.value.field == "squares"
    swept = [p.squares for p in placements(bf, "Hero", RANGE.validate_python({"type": "sweep", "size": 3}))]
    assert swept and all(x < 2 for squares in swept for x, _ in squares)  # type: ignore[union-attr]


def test_rtw_cone_and_burst_stop_at_walls_as_melee_does() -> None:
    """rtw: Attack Ranges, Burst X and Cone X: a template reaches the squares the user reaches, so walls stop it
    as they stop a Melee attack: nothing beyond the wall is caught (the Line, "not through solid objects",
    stops there too)."""
    bf = _wall_at_x2({"A": (2, 2), "B": (3, 2)})
    burst = reach(bf, "Hero", RANGE.validate_python({"type": "burst", "size": 2}))
    assert burst.hits == () and all(x < 2 for x, _ in burst.squares)
    for direction in ("east", "northeast", "southeast"):
        cone = reach(bf, "Hero", RANGE.validate_python({"type": "cone", "size": 3, "direction": direction}))
        assert cone.hits == () and all(x < 2 for x, _ in cone.squares), direction
    line = reach(bf, "Hero", RANGE.validate_python({"type": "line", "size": 4, "direction": "east"}))
    assert line.hits == () and line.squares == ()
    # Without the wall each of them catches A.
    open_field = battlefield(6, 5, {"Hero": (1, 2), "A": (2, 2), "B": (3, 2)})
    assert "A" in reach(open_field, "Hero", RANGE.validate_python({"type": "burst", "size": 2})).hits
    assert (
        "A" in reach(open_field, "Hero", RANGE.validate_python({"type": "cone", "size": 3, "direction": "east"})).hits
    )


def _box_walls(squares: list[tuple[int, int]]) -> list[list[float]]:
    """The four edges of each square, as walls (a solid square drawn with walls)."""
    out: list[list[float]] = []
    for x, y in squares:
        out += [[x, y, x + 1, y], [x + 1, y, x + 1, y + 1], [x, y + 1, x + 1, y + 1], [x, y, x, y + 1]]
    return out


@pytest.mark.parametrize(
    "rows",
    [
        [".#...", "#....", ".....", ".....", "....."],  # two solid squares touching at a corner
        ["......", "..#...", "...#..", "..#.#.", "......", "#....."],  # a zigzag of corner-touching squares
        [
            ".#.#..#.",
            "#.##..##",
            ".....#.#",
            "##..#...",
            ".###....",
            ".#..#...",
            ".#.#..#.",
            "#.......",
        ],  # a cluttered map
    ],
)
def test_rtw_solid_objects_drawn_as_squares_or_as_walls_answer_alike(rows: list[str]) -> None:
    """rtw: Attack Ranges (Projectile X "cannot go through solid objects") and Attacking Foes behind Cover ("a line
    ... intersects a solid object"): solid squares and the same squares drawn as walls are one solid object, so
    they give the same answers for Projectile paths, moves (a diagonal step between two squares touching at a
    corner squeezes through neither) and cover under both rules (docs/maps.md)."""
    solid = Board.from_rows(rows)
    drawn = Board.from_solid(solid.width, solid.height).with_walls(wall_array(_box_walls(solid.solid_squares())))
    free = [(x, y) for y in range(solid.height) for x in range(solid.width) if not solid.solid[y, x]]
    for a in free:
        for b in free:
            assert path_clear(solid, a, b) == path_clear(drawn, a, b), ("projectile", a, b)
            for rule in COVER_RULES:
                want = square_cover(drawn, a, b, rule) is not None
                assert (square_cover(solid, a, b, rule) is not None) == want, (rule, a, b)
        for step in STEPS:
            assert solid.step_blocked(a, step) == drawn.step_blocked(a, step), ("step", a, step)
        assert set(moves(solid, a, 8)) == set(moves(drawn, a, 8)), ("moves", a)
    xy = np.array(free, dtype=np.int64)
    ones = np.ones(len(xy), dtype=np.int64)
    for rule in COVER_RULES:
        assert (cover_matrix(solid, xy, ones, xy, ones, rule) == cover_matrix(drawn, xy, ones, xy, ones, rule)).all()


def test_rtw_melee_does_not_reach_between_two_solid_squares_meeting_at_a_corner() -> None:
    """rtw: Attack Ranges, Melee ("physically reach out and touch the target"): a foe diagonally adjacent through
    the corner where two solid squares meet is out of reach, as across the same squares drawn as walls."""
    combatants = [
        CombatantSpec.model_validate({"name": "Hero", "side": "heroes", "position": [0, 0]}),
        CombatantSpec.model_validate({"name": "A", "side": "monsters", "position": [1, 1]}),
    ]
    bf = Battlefield.build(MapSpec(rows=[".#.", "#..", "..."]), combatants)
    with pytest.raises(InputError, match="solid squares meeting at a corner stand between Hero and A"):
        reach(bf, "Hero", RANGE.validate_python({"type": "melee", "target": "A"}))
    open_corner = Battlefield.build(MapSpec(rows=[".#.", "...", "..."]), combatants)
    assert reach(open_corner, "Hero", RANGE.validate_python({"type": "melee", "target": "A"})).hits == ("A",)
