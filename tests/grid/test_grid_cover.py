"""Cover (rtw: Attacking Foes behind Cover; decisions.md §rtw 7): lines from corner to corner, blocked
only by crossing a solid square's interior; the vectorised kernel agrees with the predicates."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.grid.art import parse
from tohit.core.grid.board import Board
from tohit.core.grid.cover import behind_cover, first_solid_crossed, line_blocked, square_cover
from tohit.core.grid.cover_kernel import cover_arrays, cover_matrix, lines_blocked
from tohit.core.grid.footprint import Footprint
from tohit.core.grid.segments import crosses, squares_crossed


def test_grid_cover_blocked_by_a_solid_square_between() -> None:
    """A solid square straight between attacker and foe: every line crosses it; Hard to Hit."""
    art = parse("@.#.T")
    cover = behind_cover(art.board, art.user, art.creatures["T"])
    assert cover is not None
    assert cover.square == (2, 0)
    assert cover.segment == ((0, 0), (4, 1))  # top-left corner to the foe's bottom-left corner
    assert "crosses solid square (2,0)" in cover.describe()
    assert cover.to_json()["square"] == [2, 0]


def test_grid_cover_unblocked_in_the_open() -> None:
    art = parse(
        """
        @....
        .....
        ....T
        """
    )
    assert behind_cover(art.board, art.user, art.creatures["T"]) is None


def test_grid_cover_line_along_a_solid_edge_does_not_count() -> None:
    """Lines that only touch an object's edge do not cross it (decisions 7): the wall row below the
    shared edge is touched by the lines along y = 1, never crossed."""
    art = parse(
        """
        @...T
        #####
        """.replace("#####", ".###.")
    )
    assert behind_cover(art.board, art.user, art.creatures["T"]) is None
    assert not line_blocked(art.board, (1, 1), (4, 1))


def test_grid_cover_touching_a_solid_corner_does_not_count() -> None:
    """Touching one solid square's corner is not crossing it; but the diagonal line from (1,1) to (3,3) through the
    corner (2,2) where solid squares (2,1) and (1,2) meet passes from one side of that solid object to the other
    (issue 36: as the same squares drawn as walls, docs/maps.md)."""
    board = Board.from_rows(
        [
            ".....",
            "..#..",
            ".#...",
            ".....",
        ]
    )
    assert list(squares_crossed((1, 1), (3, 3))) == [(1, 1), (2, 2)]
    assert line_blocked(board, (1, 1), (3, 3))
    assert line_blocked(board, (1, 1), (3, 2))  # a shallower line enters (2, 1)
    one = Board.from_rows([".....", "..#..", ".....", "....."])
    assert not line_blocked(one, (1, 1), (3, 3))  # touches (2, 1)'s corner only


def test_grid_cover_any_line_vs_best_corner() -> None:
    """A pillar beside the line of fire: the line from the attacker's top-right corner crosses it
    (any_line: cover), but its bottom-left corner sees every corner of the foe (best_corner: no cover)."""
    art = parse(
        """
        @.#..
        .....
        ....T
        """
    )
    foe = art.creatures["T"]
    assert behind_cover(art.board, art.user, foe, "any_line") is not None
    assert behind_cover(art.board, art.user, foe, "best_corner") is None
    walled = parse(
        """
        @.#..
        ..#..
        ..#.T
        """
    )
    assert behind_cover(walled.board, walled.user, walled.creatures["T"], "best_corner") is not None


def test_grid_cover_uses_the_nearest_squares_of_large_creatures() -> None:
    """A Large attacker: its squares nearest the foe are used, the attacker picking the clearer pair."""
    art = parse(
        """
        @@...#.
        @@.....
        .....T.
        """
    )
    foe = art.creatures["T"]
    assert art.user.nearest_squares(foe) == [(1, 1)]
    assert behind_cover(art.board, art.user, foe) is None


def test_grid_cover_squares_crossed_agree_with_the_separating_axis_test() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        p = (rng.randint(0, 9), rng.randint(0, 9))
        q = (rng.randint(0, 9), rng.randint(0, 9))
        walk = list(squares_crossed(p, q))
        brute = {(x, y) for x in range(-1, 11) for y in range(-1, 11) if crosses(p, q, (x, y))}
        assert len(walk) == len(set(walk))
        assert set(walk) == brute


def random_board(rng: random.Random, width: int, height: int, solid: int) -> Board:
    squares = {(rng.randrange(width), rng.randrange(height)) for _ in range(solid)}
    return Board.from_solid(width, height, squares)


@pytest.mark.parametrize("rule", ["any_line", "best_corner"])
def test_grid_cover_kernel_agrees_with_the_predicates(rule: str) -> None:
    rng = random.Random(3)
    for _ in range(6):
        board = random_board(rng, 30, 24, 60)
        feet = []
        while len(feet) < 24:
            side = rng.choice([1, 1, 1, 2, 3])
            f = Footprint(rng.randrange(30 - side + 1), rng.randrange(24 - side + 1), side)
            if not any(board.is_solid(s) for s in f.squares()):
                feet.append(f)
        a, t = feet[:12], feet[12:]
        got = cover_matrix(
            board,
            np.array([(f.x, f.y) for f in a]),
            np.array([f.side for f in a]),
            np.array([(f.x, f.y) for f in t]),
            np.array([f.side for f in t]),
            rule,  # type: ignore[arg-type]
        )
        want = np.array([[behind_cover(board, fa, ft, rule) is not None for ft in t] for fa in a])  # type: ignore[arg-type]
        assert (got == want).all()


def test_grid_cover_kernel_lines_agree_with_the_walk() -> None:
    rng = random.Random(5)
    board = random_board(rng, 40, 40, 200)
    p = np.array([(rng.randint(0, 40), rng.randint(0, 40)) for _ in range(3000)])
    q = np.array([(rng.randint(0, 40), rng.randint(0, 40)) for _ in range(3000)])
    got = lines_blocked(board.solid, p, q)
    want = [
        first_solid_crossed(board, tuple(a), tuple(b)) is not None for a, b in zip(p.tolist(), q.tolist(), strict=True)
    ]
    assert got.tolist() == want


def test_grid_cover_kernel_empty_and_square_cover() -> None:
    board = Board.from_rows(["..", ".."])
    empty = np.zeros((0, 2), dtype=np.int64)
    assert cover_arrays(board, empty, np.zeros(0, dtype=np.int64), empty, np.zeros(0, dtype=np.int64)).size == 0
    assert square_cover(board, (0, 0), (1, 1)) is None
