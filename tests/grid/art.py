"""Text art for golden grid tests: `.` open, `#` solid, `@` the user, `x` a square of the range, and
capital letters for other creatures (a creature's squares all carry its letter; `a`..`z` mark a
creature's square that the range also covers)."""

from __future__ import annotations

from dataclasses import dataclass
from textwrap import dedent

from tohit.core.grid.board import Board
from tohit.core.grid.footprint import Footprint
from tohit.core.grid.squares import Square


@dataclass
class Art:
    board: Board
    user: Footprint
    marked: set[Square]
    creatures: dict[str, Footprint]


def _block(squares: list[Square]) -> Footprint:
    xs, ys = [s[0] for s in squares], [s[1] for s in squares]
    side = max(xs) - min(xs) + 1
    assert side == max(ys) - min(ys) + 1 and len(squares) == side * side, "a footprint must be a square block"
    return Footprint(min(xs), min(ys), side)


def parse(text: str) -> Art:
    rows = [r.strip() for r in dedent(text).strip().splitlines()]
    board = Board.from_rows(["".join("#" if c == "#" else "." for c in row) for row in rows])
    user: list[Square] = []
    marked: set[Square] = set()
    letters: dict[str, list[Square]] = {}
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c == "@":
                user.append((x, y))
            elif c == "x":
                marked.add((x, y))
            elif c.isalpha():
                letters.setdefault(c.upper(), []).append((x, y))
                if c.islower():
                    marked.add((x, y))
    return Art(board, _block(user), marked, {k: _block(v) for k, v in letters.items()})


def draw(art: Art, squares: set[Square] | list[Square]) -> str:
    """The art of `art`'s board with `squares` marked, to compare with the expected text."""
    chosen = set(squares)
    lines = []
    for y in range(art.board.height):
        line = ""
        for x in range(art.board.width):
            sq = (x, y)
            letter = next((k for k, f in art.creatures.items() if f.contains(sq)), None)
            if art.user.contains(sq):
                c = "@"
            elif letter:
                c = letter.lower() if sq in chosen else letter
            elif art.board.is_solid(sq):
                c = "#"
            else:
                c = "x" if sq in chosen else "."
            line += c
        lines.append(line)
    return "\n".join(lines)


def clean(text: str) -> str:
    return "\n".join(r.strip() for r in dedent(text).strip().splitlines())
