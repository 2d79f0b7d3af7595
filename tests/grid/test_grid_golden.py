"""Golden grids: each range type drawn as text art, for Medium, Large and Huge users
(reclaim-the-wild.md, "Attack Ranges", "Counting Diagonals", "The Size of Creatures")."""

from __future__ import annotations

import pytest

from tests.grid.art import clean, draw, parse
from tohit.core.grid import areas
from tohit.core.grid.squares import DirectionName


def check(expected: str, squares: list[tuple[int, int]], count: int) -> None:
    art = parse(expected)
    assert draw(art, squares) == clean(expected)
    assert len(squares) == len(set(squares)) == count


def cone_of(
    expected: str, direction: DirectionName, size: int, count: int, origin: tuple[int, int] | None = None
) -> None:
    art = parse(expected)
    start = origin or areas.default_origin(art.user, direction)
    check(expected, areas.cone(art.board, art.user, start, direction, size), count)


def test_grid_cone_3_east_from_medium_covers_9_squares() -> None:
    """Cone X, cardinal: rows 1, 3, 5 (rtw: Attack Ranges, Cone X)."""
    cone_of(
        """
        .....x
        ....xx
        ..@xxx
        ....xx
        .....x
        """,
        "east",
        3,
        9,
    )


def test_grid_cone_3_diagonal_from_medium_covers_6_squares() -> None:
    """Cone X, diagonal: rows 1, 2, 3 (rtw: Attack Ranges, Cone X)."""
    cone_of(
        """
        .x...
        .xx..
        .xxx.
        @....
        """,
        "northeast",
        3,
        6,
    )


def test_grid_cone_2_south_from_medium_covers_4_squares() -> None:
    """Cone 2: 1 + 3 squares."""
    cone_of(
        """
        ..@..
        ..x..
        .xxx.
        .....
        """,
        "south",
        2,
        4,
    )


def test_grid_cone_3_west_from_large_starts_from_a_chosen_footprint_square() -> None:
    """A user larger than one square: the attacker chooses the footprint square the Cone starts from."""
    cone_of(
        """
        x.....
        xx....
        xxx@@.
        xx.@@.
        x.....
        """,
        "west",
        3,
        9,
        origin=(3, 2),
    )
    cone_of(
        """
        ......
        x.....
        xx.@@.
        xxx@@.
        xx....
        x.....
        """,
        "west",
        3,
        9,
        origin=(3, 3),
    )


def test_grid_cone_2_southeast_from_huge_starts_at_its_corner() -> None:
    """Diagonal Cone 2 from the south-east corner of a Huge (3x3) user: 1 + 2 squares."""
    cone_of(
        """
        @@@...
        @@@...
        @@@...
        ...xx.
        ...x..
        """,
        "southeast",
        2,
        3,
        origin=(2, 2),
    )


def test_grid_burst_1_around_large_covers_12_squares() -> None:
    """Burst X: a ring X squares deep around the user (rtw: Attack Ranges, Burst X)."""
    expected = """
        ......
        .xxxx.
        .x@@x.
        .x@@x.
        .xxxx.
        ......
        """
    art = parse(expected)
    check(expected, areas.burst(art.board, art.user, 1), 12)


def test_grid_burst_1_around_medium_covers_8_and_around_huge_16() -> None:
    expected = """
        xxx.
        x@x.
        xxx.
        """
    art = parse(expected)
    check(expected, areas.burst(art.board, art.user, 1), 8)
    expected = """
        xxxxx
        x@@@x
        x@@@x
        x@@@x
        xxxxx
        """
    art = parse(expected)
    check(expected, areas.burst(art.board, art.user, 1), 16)


def test_grid_burst_2_counts_depth_1_2_1() -> None:
    """Burst 2 around a Medium user: its corners are 3 squares away counting 1-2-1, so 20 squares
    (rtw: Counting Diagonals)."""
    expected = """
        .xxx.
        xxxxx
        xx@xx
        xxxxx
        .xxx.
        """
    art = parse(expected)
    check(expected, areas.burst(art.board, art.user, 2), 20)


def test_grid_burst_leaves_out_solid_squares() -> None:
    expected = """
        x#x
        x@x
        xx#
        """
    art = parse(expected)
    check(expected, areas.burst(art.board, art.user, 1), 6)


def test_grid_line_4_east_covers_4_squares() -> None:
    """Line X, horizontal (rtw: Attack Ranges, Line X)."""
    expected = """
        @xxxx.
        """
    art = parse(expected)
    check(expected, areas.line(art.board, art.user, (0, 0), "east", 4), 4)


def test_grid_line_4_diagonal_covers_3_squares() -> None:
    """Line 4, diagonal: 1 + 2 + 1 = 4, so 3 squares (rtw: Line X; Counting Diagonals)."""
    expected = """
        @....
        .x...
        ..x..
        ...x.
        .....
        """
    art = parse(expected)
    check(expected, areas.line(art.board, art.user, (0, 0), "southeast", 4), 3)
    assert areas.line_steps("southeast", 6) == 4  # 1 + 2 + 1 + 2 = 6


def test_grid_line_stops_at_solid_squares() -> None:
    """A Line passes through combatants but not through solid objects."""
    expected = """
        @xx#..
        """
    art = parse(expected)
    check(expected, areas.line(art.board, art.user, (0, 0), "east", 5), 2)


def test_grid_line_from_large_runs_from_its_facing_square() -> None:
    expected = """
        ......
        .@@...
        .@@...
        .x....
        .x....
        """
    art = parse(expected)
    check(expected, areas.line(art.board, art.user, (1, 2), "south", 2), 2)


def test_grid_blast_2_touching_by_a_corner_and_by_a_side() -> None:
    """Blast X: an X-by-X square with one side or corner touching the user (rtw: Blast X)."""
    expected = """
        xx...
        xx...
        ..@..
        .....
        """
    art = parse(expected)
    check(expected, areas.blast(art.board, art.user, (0, 0), 2), 4)
    expected = """
        ......
        ...xxx
        ..@xxx
        ...xxx
        """
    art = parse(expected)
    check(expected, areas.blast(art.board, art.user, (3, 1), 3), 9)


def test_grid_blast_placements_touch_the_user() -> None:
    """A Medium user has 12 Blast 2 placements (4 x 4 positions minus the 4 that overlap it); a Large
    user has 16 (5 x 5 minus the 9 that overlap it); none overlaps the footprint and each touches it."""
    art = parse("@")
    assert len(areas.blast_placements(art.user, 2)) == 12
    assert len(areas.blast_placements(art.user, 1)) == 8
    big = parse(
        """
        @@
        @@
        """
    ).user
    assert len(areas.blast_placements(big, 2)) == 16
    for at in areas.blast_placements(big, 3):
        assert areas.blast_touches(big, at, 3)
    assert not areas.blast_touches(big, (3, 0), 2)  # one square apart
    assert not areas.blast_touches(big, (1, 1), 2)  # overlapping


def test_grid_blast_on_a_huge_user() -> None:
    expected = """
        @@@xx
        @@@xx
        @@@..
        """
    art = parse(expected)
    check(expected, areas.blast(art.board, art.user, (3, 0), 2), 4)


def test_grid_melee_reaches_the_ring_around_large_user() -> None:
    """Melee: cardinally or diagonally adjacent to the user."""
    expected = """
        xxxx
        x@@x
        x@@x
        xxxx
        """
    art = parse(expected)
    check(expected, areas.ring(art.board, art.user), 12)


def test_grid_sweep_2_paths_around_medium() -> None:
    """Sweep X: X squares adjacent to the user, each cardinally adjacent to the next, none twice: around
    a Medium user the 8 ring squares form a cycle, so 8 Sweeps 2 and 8 Sweeps 3."""
    art = parse(
        """
        ...
        .@.
        ...
        """
    )
    twos = areas.sweeps(art.board, art.user, 2)
    assert len(twos) == 8
    assert len(areas.sweeps(art.board, art.user, 3)) == 8
    assert len(areas.sweeps(art.board, art.user, 8)) == 1
    for path in twos:
        assert areas.sweep_problem(art.board, art.user, list(path), 2) is None
    expected = """
        xx.
        .@.
        ...
        """
    check(expected, list(twos[0]), 2)


def test_grid_sweep_around_large_and_huge() -> None:
    large = parse(
        """
        ....
        .@@.
        .@@.
        ....
        """
    )
    assert len(areas.sweeps(large.board, large.user, 2)) == 12
    huge = parse(
        """
        .....
        .@@@.
        .@@@.
        .@@@.
        .....
        """
    )
    assert len(areas.sweeps(huge.board, huge.user, 3)) == 16


@pytest.mark.parametrize(
    ("squares", "problem"),
    [
        ([(0, 0), (0, 1), (0, 2)], "cuts through 2 squares"),
        ([(0, 0), (2, 0)], "not cardinally adjacent"),
        ([(0, 0), (0, 0)], "twice"),
        ([(3, 3), (3, 2)], "not an open square adjacent"),
    ],
)
def test_grid_sweep_may_not_double_back_or_skip(squares: list[tuple[int, int]], problem: str) -> None:
    art = parse(
        """
        ....
        .@..
        ....
        ....
        """
    )
    found = areas.sweep_problem(art.board, art.user, squares, 2)
    assert found is not None and problem in found


def test_grid_squares_within_2_of_large() -> None:
    """X Squares within Y: every open square within Y (1-2-1), no line of sight needed."""
    expected = """
        .xxxx.
        xxxxxx
        xx@@xx
        xx@@xx
        xxxxxx
        .xxxx.
        """
    art = parse(expected)
    check(expected, areas.within(art.board, art.user, 2), 28)


def test_grid_line_3_from_huge_runs_from_its_facing_square() -> None:
    expected = """
        ......
        @@@...
        @@@xxx
        @@@...
        ......
        """
    art = parse(expected)
    check(expected, areas.line(art.board, art.user, (2, 2), "east", 3), 3)


def test_grid_blast_2_beside_a_large_user() -> None:
    expected = """
        .....
        @@xx.
        @@xx.
        .....
        """
    art = parse(expected)
    check(expected, areas.blast(art.board, art.user, (2, 1), 2), 4)


def test_grid_melee_ring_around_medium_and_huge() -> None:
    """Melee reaches the squares cardinally or diagonally adjacent: 8 around Medium, 16 around Huge."""
    expected = """
        xxx
        x@x
        xxx
        """
    art = parse(expected)
    check(expected, areas.ring(art.board, art.user), 8)
    expected = """
        .xxxxx
        .x@@@x
        .x@@@x
        .x@@@x
        .xxxxx
        """
    art = parse(expected)
    check(expected, areas.ring(art.board, art.user), 16)


def test_grid_projectile_path_from_centre_to_centre() -> None:
    """Projectile X: the path from the centre of the user's square to the centre of the target's."""
    from tohit.core.grid.reach import path_squares

    expected = """
        @x......
        .xxx....
        ....xxx.
        ......xT
        """
    check(expected, path_squares((0, 0), (7, 3)), 8)  # through the corner (4, 2): neither square beside it
    assert path_squares((0, 0), (3, 3)) == [(1, 1), (2, 2)]  # through corners only: the diagonal squares
