"""`tohit map FILE [--png OUT]` and `tohit aim FILE`: the tactical grid of a scenario of a game with a map.

The scenario's game (its `system`, from the registry) gives its map rules (`System.map_rules()`); a game
with no map is refused on the `system` field.

- `map` draws the battlefield in the terminal (rich): the attack's squares, the creatures it reaches, and
  each creature's cover (the blocked line and the solid square), with `--png` the same with matplotlib.
- `aim` tries every legal placement and direction of the attack's range, ranks them by exact expected
  damage to foes minus expected damage to allies, prints the best five and draws the best.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tohit.cli.errors import fail, guarded
from tohit.core.errors import InputError

if TYPE_CHECKING:
    from tohit.core.grid.view import GridView

FileArg = Annotated[Path, typer.Argument(help="Scenario file with a map (YAML or JSON).", show_default=False)]
PngOpt = Annotated[Path | None, typer.Option("--png", help="Also write the picture as a PNG.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of the drawing.")]
TOP = 5


def _as_input(exc: ValueError, source: str) -> InputError:
    head, sep, rest = str(exc).partition(": ")
    if sep and " " not in head:
        return InputError(rest, field=head, source=source)
    return InputError(str(exc), source=source)


def load_view(path: Path, *, placed: bool) -> tuple[dict[str, Any], GridView]:
    """The scenario mapping and its grid view; `placed=False` for aim (the placement is chosen there)."""
    from tohit.core.loader import read_document
    from tohit.engine.aim import map_rules

    source = str(path)
    data = read_document(path)
    try:
        return data, map_rules(data).view(data, place=placed)
    except InputError as exc:
        raise exc.located(source=source) from None


def _png(view: GridView, path: Path, title: str | None = None) -> None:
    from tohit.cli import render
    from tohit.cli.grid_draw import board_png, png_steps
    from tohit.cli.output import write_file

    if path.suffix.lower() != ".png":
        raise InputError(f"the picture is written as PNG: give a file name ending in .png, not {path}", field="--png")
    with render.delayed_progress("drawing", "steps", png_steps(view), after=0.5, quiet=False) as advance:
        write_file(path, lambda temporary: board_png(view, temporary, title, advance), field="--png")


def map_command(file: FileArg, png: PngOpt = None, as_json: JsonOpt = False) -> None:
    """Draw the map with the attack's squares, the creatures it reaches and the cover lines."""
    from tohit.cli import render
    from tohit.cli.grid_draw import board_text, covers_json

    _, view = guarded(lambda: load_view(file, placed=True))
    if png is not None:
        guarded(lambda: _png(view, png))
    if as_json:
        out = {
            **view.to_json(),
            "reached": view.reach.distinct if view.reach is not None else [],
            "creatures": [
                {"name": c.name, "side": c.side, "position": [c.footprint.x, c.footprint.y], "size": c.size}
                for c in view.field.creatures
            ],
            "cover": covers_json(view),
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return
    render.console().print(board_text(view))
    if png is not None:
        render.console().print(f"wrote {png}")


def aim_command(file: FileArg, png: PngOpt = None, as_json: JsonOpt = False) -> None:
    """Try every legal placement of the attack; rank by expected damage to foes minus to allies."""
    from rich.table import Table

    from tohit.cli import render
    from tohit.cli.grid_draw import board_text
    from tohit.core.grid.view import GridView
    from tohit.engine.aim import Aimer

    data, view = guarded(lambda: load_view(file, placed=False))
    start = time.perf_counter()
    aimer = Aimer(data, view)
    ranked = guarded(lambda: _rank(aimer, str(file)))
    seconds = time.perf_counter() - start
    unresolved = sorted(aimer.unresolved)
    if not ranked:
        fail(f"{file}: attack.range: no placement of the {view.describe()} reaches a creature")
    best = GridView(view.field, view.user, ranked[0].reach.range, view.rule, ranked[0].reach, view.covers)
    if png is not None:
        guarded(lambda: _png(best, png, f"best: {best.describe()}"))
    if as_json:
        out = {
            "tried": len(ranked),
            "seconds": seconds,
            "best": [a.to_json() for a in ranked[:TOP]],
            "unresolved": unresolved,
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return
    kind = view.range.type.replace("_", " ").capitalize() + (
        f" {view.range.size}" if hasattr(view.range, "size") else ""
    )
    table = Table(
        title=f"best placements of the {kind} ({len(ranked)} reaching a creature); expected damage, exact",
        show_edge=False,
    )
    for col in ("#", "placement", "foes", "allies", "damage to foes", "damage to allies", "score"):
        table.add_column(col, justify="right" if col.startswith(("damage", "score", "#")) else "left")
    for i, a in enumerate(ranked[:TOP], 1):
        table.add_row(
            str(i),
            a.reach.describe(),
            ", ".join(a.foes) or "-",
            ", ".join(a.allies) or "-",
            f"{float(a.to_foes):.3f}",
            f"{float(a.to_allies):.3f}",
            f"{float(a.score):.3f} ({a.score})" if len(str(a.score)) <= 12 else f"{float(a.score):.3f}",
        )
    console = render.console()
    console.print(table)
    if unresolved:
        console.print(f"no targets entry, counted as 0: {', '.join(unresolved)}", style="yellow")
    console.print(board_text(best))
    if png is not None:
        console.print(f"wrote {png}")


def _rank(aimer: Any, source: str) -> Any:
    try:
        return aimer.rank()
    except InputError as exc:
        raise exc.located(source=source) from None


def register(app: typer.Typer) -> None:
    """Add `map` and `aim` to the `tohit` command line."""
    app.command("map")(map_command)
    app.command("aim")(aim_command)
