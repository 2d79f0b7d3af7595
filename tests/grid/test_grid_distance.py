"""Counting Diagonals (1-2-1) and The Size of Creatures."""

from __future__ import annotations

import pytest

from tohit.core.grid.footprint import Footprint, adjacent
from tohit.core.grid.sizes import category_from_feet
from tohit.core.grid.squares import count_121, diagonal_steps_within, direction_name


@pytest.mark.parametrize(
    ("dx", "dy", "count"),
    [(0, 0, 0), (1, 0, 1), (1, 1, 1), (2, 2, 3), (3, 3, 4), (4, 4, 6), (5, 2, 6), (-3, 1, 3), (0, -7, 7)],
)
def test_grid_every_second_diagonal_counts_as_two(dx: int, dy: int, count: int) -> None:
    """rtw: Counting Diagonals: 1-2-1."""
    assert count_121(dx, dy) == count


def test_grid_diagonal_steps_within_a_count() -> None:
    assert [diagonal_steps_within(n) for n in range(0, 8)] == [0, 1, 1, 2, 3, 3, 4, 5]


def test_grid_distance_between_nearest_squares_of_footprints() -> None:
    """Distances are measured between the nearest squares of two footprints."""
    large = Footprint(0, 0, 2)
    assert large.distance(Footprint(2, 0)) == 1
    assert adjacent(large, Footprint(2, 2))  # diagonal
    assert large.distance(Footprint(4, 4)) == 4  # from (1, 1): three diagonals, 1 + 2 + 1
    assert large.distance(Footprint(5, 1)) == 4
    assert Footprint(0, 0, 3).distance(Footprint(1, 1)) == 0


@pytest.mark.parametrize(
    ("feet", "category"),
    [
        (0.5, "diminutive"),
        (1, "tiny"),
        (3, "small"),
        (6, "medium"),
        (8, "large"),
        (20, "huge"),
        (40, "gigantic"),
        (70, "colossal"),
    ],
)
def test_grid_size_category_from_feet(feet: float, category: str) -> None:
    """rtw: The Size of Creatures table; a height on a boundary belongs to the larger category."""
    assert category_from_feet(feet) == category


def test_grid_direction_names_and_aliases() -> None:
    assert direction_name("NE") == "northeast"
    assert direction_name("south-west") == "southwest"
    with pytest.raises(ValueError, match="unknown direction 'up'"):
        direction_name("up")
