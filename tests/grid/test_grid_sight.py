"""Line of sight on the grid (issue 37, item 5; core/grid/sight.py): a square is seen when the centre-to-centre path
from the viewer's square to it crosses no wall, closed door or solid square (the Projectile path rule,
`reach.path_clear`, our reading for sight: docs/maps.md, "Vision")."""

from __future__ import annotations

import numpy as np

from tohit.core.grid.board import Board
from tohit.core.grid.models import MapSpec
from tohit.core.grid.reach import path_clear
from tohit.core.grid.sight import Sight, seen_from
from tohit.core.grid.walls import wall_array


def drawn(seen: np.ndarray) -> list[str]:
    """The sight as rows of text: `o` seen, `.` not."""
    return ["".join("o" if s else "." for s in row) for row in seen.tolist()]


def test_sight_a_wall_hides_the_squares_behind_it() -> None:
    board = Board.from_solid(6, 3).with_walls(wall_array([[3, 0, 3, 3]]))
    assert drawn(seen_from(board, (0, 1))) == ["ooo...", "ooo...", "ooo..."]


def test_sight_a_closed_door_blocks_and_an_open_one_does_not() -> None:
    walls = [[3, 0, 3, 1], [3, 2, 3, 3]]
    shut = MapSpec(width=6, height=3, walls=walls, doors=[{"segment": [3, 1, 3, 2], "closed": True}]).board()
    assert drawn(seen_from(shut, (0, 1))) == ["ooo...", "ooo...", "ooo..."]
    opened = MapSpec(width=6, height=3, walls=walls, doors=[{"segment": [3, 1, 3, 2], "closed": False}]).board()
    # Through the open door: (4, 0) stays behind the wall above it, (5, 0) is seen past that wall's end.
    assert drawn(seen_from(opened, (0, 1))) == ["ooo..o", "oooooo", "ooo..o"]


def test_sight_a_solid_square_hides_what_is_behind_it_and_shows_its_face() -> None:
    board = Board.from_rows(["......", "..#...", "......"])
    # The rock itself is drawn as seen (its face); the squares whose paths run into it are not; (3, 0)'s path only
    # touches the rock's corner.
    assert drawn(seen_from(board, (0, 1))) == ["oooo..", "ooo...", "oooo.."]


def test_sight_two_solid_squares_meeting_at_a_corner_block_the_diagonal_between_them() -> None:
    board = Board.from_rows(["....", ".#..", "..#.", "...."])
    seen = seen_from(board, (0, 0))
    assert not seen[3, 3]  # the path from (0, 0) to (3, 3) runs through the corner where the two rocks meet
    assert path_clear(board, (0, 0), (3, 3)) is False


def test_sight_a_line_grazing_a_walls_end_is_not_blocked() -> None:
    # The path from (0, 0) to (2, 2) runs through the point (1.5, 1.5), the end of a wall: touching is not crossing.
    board = Board.from_solid(3, 3).with_walls(wall_array([[1.5, 1.5, 1.5, 3]]))
    assert seen_from(board, (0, 0))[2, 2]
    assert not seen_from(board, (0, 2))[2, 2]  # across the wall


def test_sight_is_the_projectile_path_rule_on_random_maps() -> None:
    rng = np.random.default_rng(37)
    for trial in range(4):
        width, height = (int(v) for v in rng.integers(3, 7, size=2))
        solid = {(int(rng.integers(0, width)), int(rng.integers(0, height))) for _ in range(3)}
        board = Board.from_solid(width, height, sorted(solid))
        walls = [
            [float(rng.integers(0, width + 1)) + 0.5 * (trial % 2), float(rng.integers(0, height + 1)),
             float(rng.integers(0, width + 1)), float(rng.integers(0, height + 1))]
            for _ in range(3)
        ]  # fmt: skip
        board = board.with_walls(wall_array([[min(w[0], width), w[1], w[2], w[3]] for w in walls]))
        for a in [(x, y) for y in range(height) for x in range(width) if board.is_open((x, y))]:
            seen = seen_from(board, a)
            for t in [(x, y) for y in range(height) for x in range(width) if board.is_open((x, y)) and (x, y) != a]:
                assert seen[t[1], t[0]] == path_clear(board, a, t), (trial, a, t)


def test_sight_each_squares_sight_is_worked_out_once() -> None:
    sight = Sight(Board.from_solid(20, 10).with_walls(wall_array([[5, 0, 5, 10]])))
    first = sight.of((1, 1))
    assert (sight.squares, sight.lines) == (1, 200)  # one line to each square of the map
    assert (sight.of((1, 1)) == first).all() and sight.of_all([(1, 1), (30, 30)]).sum() == first.sum()
    assert (sight.squares, sight.lines) == (1, 200)  # read back, and a square off the map sees nothing
    sight.of((8, 8))
    assert (sight.squares, sight.lines) == (2, 400)
