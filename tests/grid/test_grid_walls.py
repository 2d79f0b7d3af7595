"""Walls on edges (issue 32): a line that crosses a wall is blocked, a move across one is blocked, and cover
from walls is the page's cover ("a line ... intersects a solid object", decisions.md rtw 7) as with solid
squares."""

from __future__ import annotations

import numpy as np
import pytest

from tohit.core.grid.board import Board
from tohit.core.grid.cover import COVER_RULES, CoverRule, line_blocked, square_cover
from tohit.core.grid.cover_kernel import cover_matrix
from tohit.core.grid.models import MapSpec
from tohit.core.grid.movement import moves
from tohit.core.grid.squares import Square
from tohit.core.grid.walls import wall_array


def walled(width: int, height: int, walls: list[list[float]], rows: list[str] | None = None) -> Board:
    board = Board.from_rows(rows) if rows else Board.from_solid(width, height)
    return board.with_walls(wall_array(walls))


def box_walls(squares: list[Square]) -> list[list[float]]:
    """The four edges of each square, as walls (a solid square drawn with walls)."""
    out: list[list[float]] = []
    for x, y in squares:
        out += [[x, y, x + 1, y], [x + 1, y, x + 1, y + 1], [x, y + 1, x + 1, y + 1], [x, y, x, y + 1]]
    return out


def test_an_edge_wall_blocks_a_move() -> None:
    board = walled(5, 5, [[2, 0, 2, 5]])
    reached = moves(board, (0, 2), 20)
    assert all(x < 2 for x, _ in reached)
    assert board.step_blocked((1, 2), (1, 0)) and board.step_blocked((1, 2), (1, 1))
    assert not board.step_blocked((0, 2), (1, 0))


def test_a_gap_in_the_wall_lets_a_move_through() -> None:
    board = walled(5, 5, [[2, 0, 2, 2], [2, 3, 2, 5]])
    reached = moves(board, (0, 2), 20)
    assert (4, 2) in reached
    assert (2, 2) in reached[(4, 2)].path  # through the gap, square (2, 2)
    # A diagonal step past a wall's end is not across it.
    assert not board.step_blocked((1, 1), (1, 1))


def test_an_edge_wall_blocks_a_line() -> None:
    board = walled(5, 5, [[2, 0, 2, 5]])
    assert line_blocked(board, (1, 1), (4, 2))
    assert not line_blocked(board, (1, 1), (2, 3))  # ends on the wall: touching it
    assert not line_blocked(board, (2, 0), (2, 5))  # along it
    assert square_cover(board, (0, 2), (4, 2)) is not None
    assert square_cover(board, (0, 2), (1, 2)) is None


def test_a_line_grazing_a_walls_end_is_not_blocked() -> None:
    board = walled(6, 6, [[3, 0, 3, 2]])
    assert not line_blocked(board, (1, 4), (5, 0))  # passes through (3, 2), the wall's end
    assert line_blocked(board, (1, 3), (5, 0))


def test_a_line_through_a_bend_of_a_wall_is_blocked() -> None:
    # An L: down x = 3 to (3, 4), then east along y = 4; the line x + y = 7 passes through the bend.
    board = walled(8, 8, [[3, 0, 3, 4], [3, 4, 8, 4]])
    assert line_blocked(board, (1, 6), (5, 2))
    # Grazing the outside of a corner of a walled square is touching it.
    square = walled(8, 8, box_walls([(3, 3)]))
    assert not line_blocked(square, (1, 1), (3, 3))
    assert line_blocked(square, (1, 1), (5, 5))


def test_a_wall_along_a_diagonal() -> None:
    board = walled(6, 6, [[0, 0, 6, 6]])
    reached = moves(board, (4, 1), 30)
    assert not any(y > x for x, y in reached)
    assert board.step_blocked((1, 0), (-1, 1))
    assert square_cover(board, (4, 1), (1, 4)) is not None
    assert square_cover(board, (4, 1), (4, 0)) is None


def test_a_closed_door_is_a_wall_an_open_one_is_not() -> None:
    spec = {"width": 5, "height": 5, "walls": [[2, 0, 2, 2], [2, 3, 2, 5]]}
    closed = MapSpec.model_validate({**spec, "doors": [{"segment": [2, 2, 2, 3], "closed": True}]}).board()
    opened = MapSpec.model_validate({**spec, "doors": [{"segment": [2, 2, 2, 3], "closed": False}]}).board()
    assert all(x < 2 for x in (s[0] for s in moves(closed, (0, 2), 20)))
    assert (4, 2) in moves(opened, (0, 2), 20)
    assert square_cover(closed, (1, 2), (3, 2)) is not None
    assert square_cover(opened, (1, 2), (3, 2)) is None


def test_walls_off_the_map_are_refused() -> None:
    with pytest.raises(ValueError, match=r"walls\[0\]"):
        MapSpec.model_validate({"width": 5, "height": 5, "walls": [[0, 0, 6, 0]]})


@pytest.mark.parametrize("rule", COVER_RULES)
def test_cover_from_walls_matches_the_same_solid_squares(rule: CoverRule) -> None:
    """A block of solid squares and the same squares drawn as walls give the same cover, pair by pair."""
    rows = ["........", "...#....", "...##...", "........", "......#.", "........"]
    solid = Board.from_rows(rows)
    drawn = walled(8, 6, box_walls(solid.solid_squares()))
    open_squares = [(x, y) for y in range(6) for x in range(8) if not solid.solid[y, x]]
    for a in open_squares:
        for t in open_squares:
            want = square_cover(solid, a, t, rule) is not None
            assert (square_cover(drawn, a, t, rule) is not None) == want, (a, t)
    xy = np.array(open_squares, dtype=np.int64)
    ones = np.ones(len(xy), dtype=np.int64)
    assert (cover_matrix(drawn, xy, ones, xy, ones, rule) == cover_matrix(solid, xy, ones, xy, ones, rule)).all()


def test_the_kernel_agrees_with_the_scalar_cover_on_odd_walls() -> None:
    walls = [[0.5, 0.5, 3.25, 2.75], [4, 0, 4, 3], [4, 3, 6, 3], [1, 5, 1, 6], [2.5, 4, 5.5, 4]]
    board = walled(7, 7, walls)
    squares = [(x, y) for y in range(7) for x in range(7)]
    xy = np.array(squares, dtype=np.int64)
    ones = np.ones(len(xy), dtype=np.int64)
    for rule in COVER_RULES:
        got = cover_matrix(board, xy, ones, xy, ones, rule)
        want = np.array([[square_cover(board, a, t, rule) is not None for t in squares] for a in squares])
        assert (got == want).all()


def test_the_step_table_agrees_with_each_step_tried_alone() -> None:
    """`Board.step_blocked` (walls tried only near their squares) is the walls test of each step's segment."""
    from tohit.core.grid.board import STEPS
    from tohit.core.grid.walls import STAND, WALL_SCALE, lines_cross_walls

    rng = np.random.default_rng(5)
    walls = [list(rng.integers(0, 24, 4) / 2) for _ in range(60)] + [[0, 0, 12, 12], [3, 0, 3, 5], [3, 5, 8, 5]]
    board = walled(12, 12, walls)
    stand = np.array([STAND], dtype=np.int64)
    for y in range(12):
        for x in range(12):
            p = np.array([[x * WALL_SCALE + WALL_SCALE // 2, y * WALL_SCALE + WALL_SCALE // 2]], dtype=np.int64)
            for dx, dy in STEPS:
                q = p + np.array([[dx * WALL_SCALE, dy * WALL_SCALE]], dtype=np.int64)
                alone = bool(lines_cross_walls(board.walls, p, q, stand, stand)[0])
                assert board.step_blocked((x, y), (dx, dy)) == alone, ((x, y), (dx, dy))
