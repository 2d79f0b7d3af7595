"""The tactical grid (issue 4, "Speed").

- Cover for every pair of opposing creatures on a 200 x 200 map with 2,000 solid squares and 500 creatures
  (250 a side: 62,500 pairs), vectorised (`core.grid.cover_kernel`) against a plain per-pair Python loop
  over the same predicates (`core.grid.cover.behind_cover`), in the same run; both give the same answers
  (checked). With --quick the loop runs on a random tenth of the pairs and is scaled up.
- Walls on edges (issue 32): a 200 x 200 map with 2,000 wall segments (1 to 3 squares long, along the grid
  and across diagonals) and 120 creatures (60 a side: 3,600 pairs): line of sight (the centre-to-centre line
  a Projectile takes) and cover, vectorised (`core.grid.walls.lines_cross_walls`, `cover_kernel`) against a
  per-pair loop over the same predicates (`Board.walled`, `cover.behind_cover`); the same answers (checked).
- Vision (issue 37, item 5): what one square sees on that walls map, a line to each of its 40,000 squares
  (`core.grid.sight.seen_from`), against a per-square loop over the same predicate (`reach.path_clear`) on a sample
  of squares, scaled up; the same answers on the sample (checked).
- `tohit aim` on a 50 x 50 map with a Cone 5 and 40 creatures: every placement ranked by exact expected
  damage, against the naive way (load the scenario placed each way and run exact odds on it).
"""

from __future__ import annotations

import copy
import time
from typing import Any

import numpy as np

from benchmarks.common import Row, best_time
from tohit.core.grid.board import Board
from tohit.core.grid.cover import CoverRule, behind_cover
from tohit.core.grid.cover_kernel import cover_matrix
from tohit.core.grid.footprint import Footprint

SIDE, SOLID, CREATURES = 200, 2000, 500


def battlefield(seed: int = 1) -> tuple[Board, np.ndarray, np.ndarray]:
    """The bench map and two sides of 250 Medium creatures on distinct open squares."""
    rng = np.random.default_rng(seed)
    cells = rng.choice(SIDE * SIDE, size=SOLID + CREATURES, replace=False)
    solid = [(int(c % SIDE), int(c // SIDE)) for c in cells[:SOLID]]
    spots = np.array([(c % SIDE, c // SIDE) for c in cells[SOLID:]], dtype=np.int64)
    board = Board.from_solid(SIDE, SIDE, solid)
    half = CREATURES // 2
    return board, spots[:half], spots[half:]


def cover_rows(quick: bool) -> list[Row]:
    board, a, b = battlefield()
    ones = np.ones(len(a), dtype=np.int64)
    rows = []
    rule: CoverRule
    for rule in ("any_line", "best_corner"):
        got = cover_matrix(board, a, ones, b, ones, rule)
        kernel = best_time(lambda: cover_matrix(board, a, ones, b, ones, rule), repeat=3)  # noqa: B023
        pairs = [(i, j) for i in range(len(a)) for j in range(len(b))]
        if quick:
            pick = np.random.default_rng(2).choice(len(pairs), size=len(pairs) // 10, replace=False)
            pairs = [pairs[k] for k in pick]
        fa = [Footprint(int(x), int(y)) for x, y in a]
        fb = [Footprint(int(x), int(y)) for x, y in b]
        start = time.perf_counter()
        loop = [behind_cover(board, fa[i], fb[j], rule) is not None for i, j in pairs]
        looped = (time.perf_counter() - start) * (len(a) * len(b)) / len(pairs)
        assert all(got[i, j] == c for (i, j), c in zip(pairs, loop, strict=True)), "kernel and loop disagree"
        rows.append(
            Row(
                "grid",
                f"cover, {len(a) * len(b):,} opposing pairs ({rule}; {100 * got.mean():.0f}% covered)",
                f"{kernel * 1e3:.0f} ms",
                f"{looped * 1e3:.0f} ms per-pair loop" + (" (scaled from 1/10)" if quick else ""),
                looped / kernel,
                20.0,
            )
        )
    return rows


WALLS, WALLED_CREATURES = 2000, 120


def walled_battlefield(seed: int = 1) -> tuple[Board, np.ndarray, np.ndarray]:
    """The walls bench map: 2,000 random wall segments, two sides of 60 Medium creatures."""
    from tohit.core.grid.walls import wall_array

    rng = np.random.default_rng(seed)
    walls: list[list[int]] = []
    while len(walls) < WALLS:
        x, y = (int(v) for v in rng.integers(0, SIDE, 2))
        length, kind = int(rng.integers(1, 4)), int(rng.integers(0, 3))
        seg = [[x, y, x + length, y], [x, y, x, y + length], [x, y, x + length, y + length]][kind]
        if max(seg) <= SIDE:
            walls.append(seg)
    board = Board.from_solid(SIDE, SIDE).with_walls(wall_array(walls))
    cells = rng.choice(SIDE * SIDE, size=WALLED_CREATURES, replace=False)
    spots = np.array([(c % SIDE, c // SIDE) for c in cells], dtype=np.int64)
    half = WALLED_CREATURES // 2
    return board, spots[:half], spots[half:]


def wall_rows(quick: bool) -> list[Row]:
    from tohit.core.grid.walls import STAND, WALL_SCALE, lines_cross_walls

    board, a, b = walled_battlefield()
    pairs = [(i, j) for i in range(len(a)) for j in range(len(b))]
    if quick:
        pairs = pairs[::10]
    scale = len(a) * len(b) / len(pairs)
    half = WALL_SCALE // 2
    p = np.repeat(a, len(b), axis=0) * WALL_SCALE + half
    q = np.tile(b, (len(a), 1)) * WALL_SCALE + half
    stand = np.broadcast_to(np.array(STAND, dtype=np.int64), p.shape)
    seen = lines_cross_walls(board.walls, p, q, stand, stand).reshape(len(a), len(b))
    kernel = best_time(lambda: lines_cross_walls(board.walls, p, q, stand, stand), repeat=3)
    fa = [(int(x), int(y)) for x, y in a]
    fb = [(int(x), int(y)) for x, y in b]
    start = time.perf_counter()
    loop = [board.walled(fa[i], fb[j]) for i, j in pairs]
    looped = (time.perf_counter() - start) * scale
    assert all(seen[i, j] == w for (i, j), w in zip(pairs, loop, strict=True)), "kernel and loop disagree"
    note = " (scaled from 1/10)" if quick else ""
    rows = [
        Row(
            "grid",
            f"line of sight, {len(a) * len(b):,} pairs, {WALLS:,} walls ({100 * seen.mean():.0f}% blocked)",
            f"{kernel * 1e3:.0f} ms",
            f"{looped * 1e3:.0f} ms per-pair loop" + note,
            looped / kernel,
        )
    ]
    ones = np.ones(len(a), dtype=np.int64)
    got = cover_matrix(board, a, ones, b, ones)
    kernel = best_time(lambda: cover_matrix(board, a, ones, b, ones), repeat=3)
    ta = [Footprint(x, y) for x, y in fa]
    tb = [Footprint(x, y) for x, y in fb]
    start = time.perf_counter()
    covers = [behind_cover(board, ta[i], tb[j]) is not None for i, j in pairs]
    looped = (time.perf_counter() - start) * scale
    assert all(got[i, j] == c for (i, j), c in zip(pairs, covers, strict=True)), "kernel and loop disagree"
    rows.append(
        Row(
            "grid",
            f"cover, {len(a) * len(b):,} pairs, {WALLS:,} walls (any_line; {100 * got.mean():.0f}% covered)",
            f"{kernel * 1e3:.0f} ms",
            f"{looped * 1e3:.0f} ms per-pair loop" + note,
            looped / kernel,
        )
    )
    return rows


def vision_rows(quick: bool) -> list[Row]:
    """A square's sight on the walls map (`core.grid.sight.seen_from`: a line to each of its 40,000 squares), against
    a per-square loop over the same predicate (`reach.path_clear`) on a sample of squares, scaled up."""
    from tohit.core.grid.reach import path_clear
    from tohit.core.grid.sight import seen_from

    board, a, _ = walled_battlefield()
    eyes = [(int(x), int(y)) for x, y in a[: 3 if quick else 10]]
    start = time.perf_counter()
    seen = [seen_from(board, eye) for eye in eyes]
    ours = (time.perf_counter() - start) / len(eyes)
    rng = np.random.default_rng(4)
    sample = [(int(x), int(y)) for x, y in rng.integers(0, SIDE, size=(200 if quick else 1000, 2))]
    start = time.perf_counter()
    loop = [path_clear(board, eyes[0], t) for t in sample]
    looped = (time.perf_counter() - start) * SIDE * SIDE / len(sample)
    assert all(seen[0][y, x] == c for (x, y), c in zip(sample, loop, strict=True) if (x, y) != eyes[0]), "disagree"
    share = 100 * float(np.mean([s.mean() for s in seen]))
    return [
        Row(
            "grid",
            f"vision: one square's sight, {SIDE * SIDE:,} squares, {WALLS:,} walls ({share:.0f}% seen)",
            f"{ours * 1e3:.0f} ms",
            f"{looped * 1e3:.0f} ms per-square loop (scaled from {len(sample):,})",
            looped / ours,
        )
    ]


def aim_scenario(seed: int = 3) -> dict[str, Any]:
    """A 50 x 50 map (5% solid), a Lizalfos breathing a Cone 5, 39 other creatures around it."""
    rng = np.random.default_rng(seed)
    side = 50
    grid = rng.random((side, side)) < 0.05
    free = [(x, y) for y in range(side) for x in range(side) if not grid[y, x] and abs(x - 25) + abs(y - 25) > 0]
    rng.shuffle(free)
    near = sorted(free, key=lambda s: abs(s[0] - 25) + abs(s[1] - 25))[:39]
    grid[25, 25] = False
    combatants = [{"name": "Lizalfos", "side": "monsters", "position": [25, 25]}]
    targets = []
    for i, (x, y) in enumerate(near):
        side_name = "monsters" if i % 4 == 0 else "heroes"
        name = f"c{i}"
        combatants.append({"name": name, "side": side_name, "position": [int(x), int(y)]})
        targets.append({"name": name, "evasion": 10 + i % 5, "defense": i % 3, "health": 20, "hearts": 5})
    return {
        "system": "rtw",
        "map": {"rows": ["".join("#" if s else "." for s in row) for row in grid]},
        "combatants": combatants,
        "attacker": {
            "name": "Lizalfos",
            "accuracy": 2,
            "combat": 3,
            "weapon": {"attack_power": 5, "acc": 4, "damage_type": "sharp"},
        },
        "attack": {"kind": "basic", "range": {"type": "cone", "size": 5}},
        "targets": targets,
    }


def aim_rows(quick: bool) -> list[Row]:
    from tohit.engine.aim import Aimer
    from tohit.engine.odds import odds
    from tohit.engine.scenario import from_dict
    from tohit.systems.rtw.ranges import grid_view

    data = aim_scenario()
    start = time.perf_counter()
    view = grid_view(data, placed=False)
    ranked = Aimer(data, view).rank()
    ours = time.perf_counter() - start
    start = time.perf_counter()
    naive = []
    for aim in ranked:
        placed = copy.deepcopy(data)
        placed["attack"]["range"] = aim.reach.range.model_dump(exclude_none=True)
        result = odds(from_dict(placed))
        naive.append(sum(t.mean_damage for t in result.targets))
    reference = time.perf_counter() - start
    assert naive == [a.to_foes + a.to_allies for a in ranked], "aim and the naive way disagree"
    return [
        Row(
            "grid",
            f"tohit aim: Cone 5, 50 x 50 map, 40 creatures ({len(ranked)} placements reach someone)",
            f"{ours * 1e3:.0f} ms",
            f"{reference * 1e3:.0f} ms loading + exact odds per placement",
            reference / ours,
        )
    ]


def run(quick: bool) -> list[Row]:
    return cover_rows(quick) + wall_rows(quick) + vision_rows(quick) + aim_rows(quick)
