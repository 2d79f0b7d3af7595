"""Property tests (hypothesis): every generated square is on the map and open where the range forbids
solid squares; every range, and cover, is symmetric under rotating and mirroring the map."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tohit.core.grid import areas
from tohit.core.grid.board import Board
from tohit.core.grid.cover import behind_cover
from tohit.core.grid.footprint import Footprint
from tohit.core.grid.squares import DIRECTIONS, DirectionName, Point, Square

DIRECTION_NAMES: list[DirectionName] = list(DIRECTIONS)
BY_VECTOR = {v: k for k, v in DIRECTIONS.items()}


@dataclass(frozen=True)
class Transform:
    """A symmetry of a width x height map: squares, corner points, directions and footprints."""

    square: Callable[[Square], Square]
    point: Callable[[Point], Point]
    vector: Callable[[Square], Square]
    size: Callable[[int, int], tuple[int, int]]

    def board(self, board: Board) -> Board:
        w, h = self.size(board.width, board.height)
        return Board.from_solid(w, h, [self.square(s) for s in board.solid_squares()])

    def footprint(self, f: Footprint) -> Footprint:
        squares = [self.square(s) for s in f.squares()]
        return Footprint(min(s[0] for s in squares), min(s[1] for s in squares), f.side, f.eighths)

    def direction(self, d: DirectionName) -> DirectionName:
        return BY_VECTOR[self.vector(DIRECTIONS[d])]


def rotate(width: int, height: int) -> Transform:
    """A quarter turn clockwise."""
    return Transform(
        square=lambda s: (height - 1 - s[1], s[0]),
        point=lambda p: (height - p[1], p[0]),
        vector=lambda v: (-v[1], v[0]),
        size=lambda w, h: (h, w),
    )


def mirror(width: int, height: int) -> Transform:
    """Left to right."""
    return Transform(
        square=lambda s: (width - 1 - s[0], s[1]),
        point=lambda p: (width - p[0], p[1]),
        vector=lambda v: (-v[0], v[1]),
        size=lambda w, h: (w, h),
    )


@st.composite
def scenes(draw: st.DrawFn) -> tuple[Board, Footprint]:
    width = draw(st.integers(6, 13))
    height = draw(st.integers(6, 13))
    cells = draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    solid = np.array(cells, dtype=np.bool_).reshape(height, width) & (
        np.array(draw(st.lists(st.integers(0, 4), min_size=width * height, max_size=width * height))).reshape(
            height, width
        )
        == 0
    )
    side = draw(st.sampled_from([1, 1, 2, 3]))
    x = draw(st.integers(0, width - side))
    y = draw(st.integers(0, height - side))
    for yy in range(y, y + side):
        for xx in range(x, x + side):
            solid[yy, xx] = False
    return Board(width, height, solid), Footprint(x, y, side)


def all_ranges(board: Board, user: Footprint, size: int) -> dict[str, set[frozenset[Square]]]:
    """Every placement of every area range, as sets of squares."""
    out: dict[str, set[frozenset[Square]]] = {
        "burst": {frozenset(areas.burst(board, user, size))},
        "within": {frozenset(areas.within(board, user, size))},
        "blast": {frozenset(areas.blast(board, user, at, size)) for at in areas.blast_placements(user, size)},
        "sweep": {frozenset(p) for p in areas.sweeps(board, user, min(size, 3))},
    }
    for d in DIRECTION_NAMES:
        for origin in areas.facing_squares(user, d):
            out.setdefault(f"cone {d}", set()).add(frozenset(areas.cone(board, user, origin, d, size)))
            out.setdefault(f"line {d}", set()).add(frozenset(areas.line(board, user, origin, d, size)))
    return out


@settings(max_examples=40, deadline=None)
@given(scenes(), st.integers(1, 4))
def test_grid_every_generated_square_is_on_the_map_and_open(scene: tuple[Board, Footprint], size: int) -> None:
    board, user = scene
    for name, placed in all_ranges(board, user, size).items():
        for squares in placed:
            for sq in squares:
                assert board.on_map(sq), name
                assert not board.is_solid(sq), name
                assert not user.contains(sq), name


@settings(max_examples=40, deadline=None)
@given(scenes(), st.integers(1, 6), st.sampled_from(DIRECTION_NAMES))
def test_grid_a_line_never_passes_a_solid_square(scene: tuple[Board, Footprint], size: int, d: DirectionName) -> None:
    board, user = scene
    for origin in areas.facing_squares(user, d):
        squares = areas.line(board, user, origin, d, size)
        step = DIRECTIONS[d]
        assert squares == [(origin[0] + k * step[0], origin[1] + k * step[1]) for k in range(1, len(squares) + 1)]


@settings(max_examples=30, deadline=None)
@given(scenes(), st.integers(1, 4), st.sampled_from(["rotate", "mirror"]))
def test_grid_ranges_are_symmetric_under_rotation_and_mirroring(
    scene: tuple[Board, Footprint], size: int, kind: str
) -> None:
    board, user = scene
    t = (rotate if kind == "rotate" else mirror)(board.width, board.height)
    before = all_ranges(board, user, size)
    after = all_ranges(t.board(board), t.footprint(user), size)
    renamed: dict[str, set[frozenset[Square]]] = {}
    for name, placed in before.items():
        if " " in name:
            kind_name, d = name.split(" ")
            name = f"{kind_name} {t.direction(d)}"  # type: ignore[arg-type]
        renamed[name] = {frozenset(t.square(s) for s in squares) for squares in placed}
    assert renamed == after


@settings(max_examples=30, deadline=None)
@given(
    scenes(),
    st.integers(0, 10_000),
    st.sampled_from(["rotate", "mirror"]),
    st.sampled_from(["any_line", "best_corner"]),
)
def test_grid_cover_is_symmetric_under_rotation_and_mirroring(
    scene: tuple[Board, Footprint], seed: int, kind: str, rule: str
) -> None:
    board, user = scene
    rng = np.random.default_rng(seed)
    t = (rotate if kind == "rotate" else mirror)(board.width, board.height)
    moved = t.board(board)
    for _ in range(8):
        side = int(rng.integers(1, 3))
        other = Footprint(
            int(rng.integers(0, board.width - side + 1)), int(rng.integers(0, board.height - side + 1)), side
        )
        plain = behind_cover(board, user, other, rule) is not None  # type: ignore[arg-type]
        turned = behind_cover(moved, t.footprint(user), t.footprint(other), rule) is not None  # type: ignore[arg-type]
        assert plain == turned
