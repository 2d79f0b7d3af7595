"""Drawing a battlefield: the map, the attack's squares, the creatures, the targets and the cover lines.

`board_text` is the terminal picture (rich), `board_png` the same picture with matplotlib (the whole map, or
the window the terminal draws), `map_png` a map alone (a Universal VTT file by itself).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Group
from rich.table import Table
from rich.text import Text

from tohit.core.grid.board import Board
from tohit.core.grid.segments import squares_crossed
from tohit.core.grid.view import GridView

MARGIN = 2
MAX_DRAWN = 120
#: Largest side of a PNG's map, in inches (100 pixels each): a 200-square map gets 12 pixels a square.
MAX_INCHES = 24
#: A line a square is drawn when a square is at least this many pixels wide.
GRID_PIXELS = 6


def letters(view: GridView) -> dict[str, str]:
    """A one-character label per creature: `@` the attacker, then A, B, C... (a..z after Z)."""
    pool = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    out: dict[str, str] = {view.user: "@"}
    others = [c.name for c in view.field.creatures if c.name != view.user]
    for i, name in enumerate(others):
        out[name] = pool[i] if i < len(pool) else "?"
    return out


def _window(view: GridView) -> tuple[int, int, int, int]:
    """The part of the map to draw, at most MAX_DRAWN squares a side: the attack (the attacker, the squares it
    reaches, the creatures it hits and their cover squares) plus a margin; the other creatures when they fit
    too. When the attack itself is wider than that, the window is centred on the attacker."""
    bf = view.field
    hits = set(hit_names(view))
    involved = [c for c in bf.creatures if c.name == view.user or c.name in hits]
    xs: list[int] = []
    ys: list[int] = []
    for c in involved:
        xs += [c.footprint.x, c.footprint.x1]
        ys += [c.footprint.y, c.footprint.y1]
    if view.reach is not None:
        xs += [sq[0] for sq in view.reach.squares]
        ys += [sq[1] for sq in view.reach.squares]
    for name, cover in view.covers.items():
        if cover is not None and cover.square is not None and (not hits or name in hits):
            xs.append(cover.square[0])
            ys.append(cover.square[1])
    everyone_x = xs + [v for c in bf.creatures for v in (c.footprint.x, c.footprint.x1)]
    everyone_y = ys + [v for c in bf.creatures for v in (c.footprint.y, c.footprint.y1)]
    if max(everyone_x) - min(everyone_x) < MAX_DRAWN - 2 * MARGIN and max(everyone_y) - min(everyone_y) < (
        MAX_DRAWN - 2 * MARGIN
    ):
        xs, ys = everyone_x, everyone_y
    me = bf.creature(view.user).footprint
    return _box(_span(xs, me.x, bf.board.width), _span(ys, me.y, bf.board.height))


def _span(values: list[int], centre: int, size: int) -> tuple[int, int]:
    """From the lowest to the highest of `values` plus MARGIN, within the map; when that is more than
    MAX_DRAWN squares, MAX_DRAWN squares centred on `centre` (the attacker)."""
    low, high = max(0, min(values) - MARGIN), min(size - 1, max(values) + MARGIN)
    if high - low + 1 > MAX_DRAWN:
        low = max(0, min(centre - MAX_DRAWN // 2, size - MAX_DRAWN))
        high = min(size - 1, low + MAX_DRAWN - 1)
    return low, high


def _box(xspan: tuple[int, int], yspan: tuple[int, int]) -> tuple[int, int, int, int]:
    return xspan[0], yspan[0], xspan[1], yspan[1]


def hit_names(view: GridView) -> list[str]:
    return view.reach.distinct if view.reach is not None else []


def board_text(view: GridView) -> Group:
    """The battlefield for the terminal: two characters a square; red: the attack's squares; capitals:
    creatures (the attacker is @); yellow: solid squares that give cover to a creature hit; cyan strokes:
    the blocked cover lines."""
    bf = view.field
    label = letters(view)
    hits = set(hit_names(view))
    attacked = set(view.reach.squares) if view.reach is not None else set()
    blocking = {c.square for name, c in view.covers.items() if c is not None and (not hits or name in hits)}
    owner = {sq: names[0] for sq, names in bf.occupants.items()}
    lines = cover_lines(view, hits)
    x0, y0, x1, y1 = _window(view)
    text = Text()
    text.append("    " + "".join(f"{x % 100:<2d}" if x % 5 == 0 else "  " for x in range(x0, x1 + 1)) + "\n", "dim")
    for y in range(y0, y1 + 1):
        text.append(f"{y:>3} ", "dim")
        for x in range(x0, x1 + 1):
            sq = (x, y)
            hit = sq in attacked
            back = " on red3" if hit else ""
            if sq in owner:
                name = owner[sq]
                style = "bold white" if name == view.user else ("bold red" if name in hits else "bold")
                if name != view.user and not bf.is_foe(view.user, name):
                    style += " underline"
                text.append(label[name] + ("*" if hit else " "), style + back)
            elif bf.board.is_solid(sq):
                text.append("▓▓" if sq in blocking else "██", "yellow" if sq in blocking else "grey50")
            elif sq in lines:
                text.append(lines[sq], "bold cyan" + back)
            else:
                text.append(" *" if hit else " ·", ("bold " if hit else "") + "grey35" + back)
        text.append("\n")
    legend = Table(show_edge=False, box=None, padding=(0, 2))
    for col in ("", "creature", "side", "size", "distance", "reached", "cover"):
        legend.add_column(col)
    me = bf.creature(view.user)
    for c in bf.creatures:
        cover = view.covers.get(c.name)
        legend.add_row(
            label[c.name],
            c.name + (" (attacker)" if c.name == view.user else ""),
            c.side,
            c.size,
            "-" if c.name == view.user else str(me.footprint.distance(c.footprint)),
            "yes" if c.name in hits else "",
            "-" if c.name == view.user else (cover.describe() if cover is not None else "none"),
        )
    title = Text(f"{view.describe()}  (cover rule: {view.rule})", "bold")
    key = Text(
        "@ attacker, letters: creatures; * (red): squares the attack reaches (a creature there: its letter and *);"
        " ██ solid, ▓▓ (yellow) solid giving cover to a creature hit; lines: the blocked cover lines"
        + (
            f"; {len(bf.board.walls)} wall{'s' if len(bf.board.walls) != 1 else ''} on edges (closed doors among"
            " them) not drawn here: --png draws them"
            if bf.board.has_walls
            else ""
        ),
        "dim",
    )
    return Group(title, text, key, legend)


def cover_lines(view: GridView, hits: set[str]) -> dict[tuple[int, int], str]:
    """The open squares each blocked cover line crosses (of the creatures hit, or all when none is),
    with a character that follows the line's slope."""
    out: dict[tuple[int, int], str] = {}
    for name, cover in view.covers.items():
        if cover is None or (hits and name not in hits):
            continue
        (px, py), (qx, qy) = cover.segment
        dx, dy = qx - px, qy - py
        if dy == 0:
            mark = "──"
        elif dx == 0:
            mark = " │"
        else:
            mark = " ╲" if (dx > 0) == (dy > 0) else " ╱"
        for square in squares_crossed(cover.segment[0], cover.segment[1]):
            if not view.field.board.is_solid(square):
                out.setdefault(square, mark)
    return out


def extent(view: GridView, window: bool = False) -> tuple[int, int, int, int]:
    """The squares a PNG draws, (x0, y0, x1, y1) inclusive: the whole map, or with `window` the part around the
    attack (`_window`, as the terminal draws it)."""
    if window:
        return _window(view)
    board = view.field.board
    return 0, 0, board.width - 1, board.height - 1


def png_steps(view: GridView, window: bool = False) -> int:
    """How many times `board_png` calls its `progress`: once a row drawn, once for the file."""
    _, y0, _, y1 = extent(view, window)
    return y1 - y0 + 2


#: A picture of one map: its pixels (or None), pixels a square, and the doors ((segment, closed) pairs).
Picture = tuple[Any, int, list[Any]]


def _figure(
    board: Board,
    box: tuple[int, int, int, int],
    picture: Picture | None,
    progress: Callable[[int], None] | None,
) -> tuple[Any, Any]:
    """A figure drawing the squares `box` of the map: the picture under the grid, the solid squares, the
    Difficult Terrain, a line a square (when a square is at least GRID_PIXELS wide), the walls and the doors
    (a closed one brown, an open one dashed); `progress(1)` after each row."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import patheffects
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    x0, y0, x1, y1 = box
    w, h = x1 - x0 + 1, y1 - y0 + 1
    side = max(w, h)
    scale = min(0.6, max(12 / side, min(0.25, MAX_INCHES / side)))
    fig, ax = plt.subplots(figsize=(max(4.0, w * scale + 1), max(3.0, h * scale + 1)))
    ax.set_aspect("equal")
    if picture is not None and picture[0] is not None:
        pixels, ppg, _ = picture
        rows, cols = pixels.shape[:2]
        ax.imshow(pixels, extent=(0, cols / ppg, rows / ppg, 0), origin="upper", zorder=0, interpolation="bilinear")
    ax.set_xlim(x0, x1 + 1)
    ax.set_ylim(y1 + 1, y0)
    # Over a picture (its own walls drawn dark too) tohit's walls and doors get a light halo, to tell them apart.
    halo = [patheffects.withStroke(linewidth=6, foreground="#f4f4f4")] if picture and picture[0] is not None else []
    _walls(ax, board, halo)
    for (dx0, dy0, dx1, dy1), closed in picture[2] if picture is not None else []:
        width, dashes = (4, "-") if closed else (2, "--")
        ax.plot([dx0, dx1], [dy0, dy1], color="#8a5a24", lw=width, ls=dashes, zorder=4, path_effects=halo)
    solid = board.solid[y0 : y1 + 1, x0 : x1 + 1]
    rough = board.difficult[y0 : y1 + 1, x0 : x1 + 1] & ~solid if board.difficult is not None else None
    for row in range(h):
        for col in np.flatnonzero(solid[row]).tolist():
            ax.add_patch(Rectangle((x0 + col, y0 + row), 1, 1, color="#555555"))
        for col in np.flatnonzero(rough[row]).tolist() if rough is not None else []:
            ax.add_patch(Rectangle((x0 + col, y0 + row), 1, 1, fill=False, hatch="///", ec="#4a8a3a", lw=0, zorder=1))
        if progress is not None:
            progress(1)
    if scale * 100 >= GRID_PIXELS:
        lines = [[(x, y0), (x, y1 + 1)] for x in range(x0, x1 + 2)]
        lines += [[(x0, y), (x1 + 1, y)] for y in range(y0, y1 + 2)]
        ax.add_collection(LineCollection(lines, colors="#000000", alpha=0.18, linewidths=0.5, zorder=1))
    else:
        ax.grid(True, color="#dddddd", lw=0.5)
    ax.set_xticks(range(x0, x1 + 2, max(1, (w + 9) // 10)))
    ax.set_yticks(range(y0, y1 + 2, max(1, (h + 9) // 10)))
    return fig, ax


def _save(fig: Any, path: Path, progress: Callable[[int], None] | None) -> None:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    if progress is not None:
        progress(1)


def board_png(
    view: GridView,
    path: Path,
    title: str | None = None,
    progress: Callable[[int], None] | None = None,
    picture: Picture | None = None,
    window: bool = False,
) -> None:
    """The same picture as a PNG: squares, creatures, the attack's squares and the cover lines, the walls and
    doors, over the map's `picture` (its pixels and pixels a square) when it has one; the whole map, or with
    `window` only the part around the attack. `progress(1)` after each row drawn and once the file is written
    (`png_steps` in all). `picture`: the pixels (or None), pixels a square, and the doors ((segment, closed)
    pairs: a closed one brown, an open one dashed)."""
    from matplotlib.patches import Rectangle

    bf = view.field
    fig, ax = _figure(bf.board, extent(view, window), picture, progress)
    hits = set(hit_names(view))
    label = letters(view)
    if view.reach is not None:
        for sx, sy in view.reach.squares:
            ax.add_patch(Rectangle((sx, sy), 1, 1, color="#e04040", alpha=0.35, lw=0))
    for c in bf.creatures:
        f = c.footprint
        color = "#2060c0" if c.name == view.user else ("#c02020" if bf.is_foe(view.user, c.name) else "#20a040")
        ax.add_patch(Rectangle((f.x + 0.1, f.y + 0.1), f.side - 0.2, f.side - 0.2, fill=False, ec=color, lw=2))
        ax.text(f.x + f.side / 2, f.y + f.side / 2, label[c.name], ha="center", va="center", color=color, fontsize=9)
    for name, cover in view.covers.items():
        if cover is None or (hits and name not in hits):
            continue
        (ax0, ay0), (ax1, ay1) = cover.segment
        ax.plot([ax0, ax1], [ay0, ay1], color="#d0a000", lw=1.5, ls="--")
        if cover.square is not None:
            sx, sy = cover.square
            ax.add_patch(Rectangle((sx, sy), 1, 1, fill=False, ec="#d0a000", lw=2))
    ax.set_title(title or f"{view.describe()} (cover: {view.rule})", fontsize=10)
    names = ", ".join(f"{label[c.name]} {c.name}" for c in bf.creatures)
    ax.set_xlabel(names if len(names) < 160 else names[:157] + "...", fontsize=8)
    _save(fig, path, progress)


def map_png(
    board: Board,
    path: Path,
    title: str,
    picture: Picture | None = None,
    progress: Callable[[int], None] | None = None,
) -> None:
    """A map alone as a PNG (a Universal VTT file by itself): its picture, the grid, the walls and the doors;
    `progress(1)` after each row and once the file is written (`board.height + 1` in all)."""
    fig, ax = _figure(board, (0, 0, board.width - 1, board.height - 1), picture, progress)
    ax.set_title(title, fontsize=10)
    _save(fig, path, progress)


def _walls(ax: Any, board: Board, halo: list[Any]) -> None:
    """The walls (closed doors among them) as thick dark strokes over the squares (`halo`: path effects)."""
    from tohit.core.grid.walls import WALL_SCALE

    for x0, y0, x1, y1 in (board.walls / WALL_SCALE).tolist():
        ax.plot([x0, x1], [y0, y1], color="#202020", lw=3, solid_capstyle="round", zorder=3, path_effects=halo)


def covers_json(view: GridView) -> dict[str, Any]:
    return {name: (c.to_json() if c is not None else None) for name, c in view.covers.items()}


#: Braille dots a square is drawn with in the terminal (a character is 2 x 4 dots): 4 x 4, or 2 x 4 when the
#: map is wider than WIDE squares; past 2 * WIDE squares the terminal draws no map.
WIDE = 60
_BRAILLE = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def map_text(width: int, height: int, walls: list[Any], doors: list[tuple[Any, bool]]) -> Text | None:
    """A map alone in the terminal, in braille dots: its walls, its doors (a closed one orange, an open one
    yellow), the squares numbered every 5; None when it is too wide (over 2 * WIDE squares)."""
    if width > 2 * WIDE:
        return None
    across = 4 if width <= WIDE else 2
    cols, rows = width * across // 2, height
    dots = np.zeros((rows, cols), dtype=np.int64)
    kind = np.zeros((rows, cols), dtype=np.int8)  # 0 wall, 1 closed door, 2 open door (the strongest wins)

    def plot(segment: Any, mark: int) -> None:
        x0, y0, x1, y1 = (float(v) for v in segment)
        steps = int(max(abs(x1 - x0) * across, abs(y1 - y0) * 4) * 2) + 1
        t = np.linspace(0.0, 1.0, steps + 1)
        t[-1] -= 1e-6  # a segment ends just before its end point: a wall ending on an edge stops there
        dx = np.clip(np.floor((x0 + (x1 - x0) * t) * across), 0, cols * 2 - 1).astype(np.int64)
        dy = np.clip(np.floor((y0 + (y1 - y0) * t) * 4), 0, rows * 4 - 1).astype(np.int64)
        for px, py in set(zip(dx.tolist(), dy.tolist(), strict=True)):
            dots[py // 4, px // 2] |= _BRAILLE[px % 2][py % 4]
            kind[py // 4, px // 2] = max(kind[py // 4, px // 2], mark)

    for wall in walls:
        plot(wall, 0)
    for segment, closed in doors:
        plot(segment, 1 if closed else 2)
    per = across // 2  # characters a square
    text = Text()
    text.append("    " + "".join(f"{x:<{5 * per}d}" for x in range(0, width, 5)).rstrip() + "\n", "dim")
    styles = {0: "bold", 1: "bold dark_orange3", 2: "yellow"}
    for y in range(rows):
        text.append(f"{y:>3} ", "dim")
        for x in range(cols):
            if dots[y, x]:
                text.append(chr(0x2800 + int(dots[y, x])), styles[int(kind[y, x])])
            else:
                text.append("·" if x % per == 0 else " ", "grey35")
        text.append("\n")
    return text
