"""`tohit map FILE [--png OUT] [--uvtt OUT] [--window]` and `tohit aim FILE`: the tactical grid of a scenario (or,
for `map`, a fight file, or a Universal VTT map alone) of a game with a map.

The scenario's game (its `system`, from the registry) gives its map rules (`System.map_rules()`); a game
with no map is refused on the `system` field.

- `map` draws the battlefield in the terminal (rich): the attack's squares, the creatures it reaches, and
  each creature's cover (the blocked line and the solid square or wall), with `--png` the same with
  matplotlib, over the map's picture when it comes from a Universal VTT file; `--uvtt` writes the map as a
  Universal VTT file (walls, doors, solid squares' outlines, the picture). A fight file is drawn as the web
  table draws it: its first combatant's first attack, everyone where the fight starts them. The PNG draws the
  whole map; `--window` only the part around the attack (as the terminal does).
- `map FILE.dd2vtt` (or `.uvtt`) draws a Universal VTT map alone: its size, walls, doors and picture in the
  terminal as a summary, with `--png` the picture with the grid, the walls and the doors.
- `aim` tries every legal placement and direction of the attack's range, ranks them by exact expected
  damage to foes minus expected damage to allies, prints the best five and draws the best.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tohit.cli.errors import fail, guarded
from tohit.core.errors import InputError

if TYPE_CHECKING:
    from tohit.core.grid.view import GridView

FileArg = Annotated[Path, typer.Argument(help="Scenario file with a map (YAML or JSON).", show_default=False)]
MapFileArg = Annotated[
    Path,
    typer.Argument(
        help="Scenario or fight file with a map (YAML or JSON), or a Universal VTT map alone (.dd2vtt, .uvtt).",
        show_default=False,
    ),
]
PngOpt = Annotated[Path | None, typer.Option("--png", help="Also write the picture as a PNG.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of the drawing.")]
UvttOpt = Annotated[
    Path | None, typer.Option("--uvtt", help="Also write the map as a Universal VTT file (.dd2vtt, .uvtt).")
]
WindowOpt = Annotated[
    bool, typer.Option("--window", help="The PNG shows only the squares around the attack, not the whole map.")
]
TOP = 5


def _as_input(exc: ValueError, source: str) -> InputError:
    head, sep, rest = str(exc).partition(": ")
    if sep and " " not in head:
        return InputError(rest, field=head, source=source)
    return InputError(str(exc), source=source)


def load_view(path: Path, *, placed: bool) -> tuple[dict[str, Any], GridView]:
    """The scenario mapping and its grid view; `placed=False` for aim (the placement is chosen there)."""
    from tohit.core.loader import check_kind, read_document
    from tohit.engine.aim import map_rules

    source = str(path)
    data = read_document(path)
    if not placed:  # aim places an attack: a fight file is refused (map draws either)
        check_kind(data, path, "attack")
    if "system" not in data and "resolution" in data:
        raise InputError(
            "is a Universal VTT map: tohit map draws one alone when its name ends in .dd2vtt or .uvtt", source=source
        )
    try:
        if placed and "sides" in data and "attack" not in data:
            return data, _fight_view(data, source)
        return data, map_rules(data).view(data, place=placed)
    except InputError as exc:
        raise exc.located(source=source) from None


def _fight_view(data: dict[str, Any], source: str) -> GridView:
    """A fight file's map, as the web table shows it first: combatant 0's first attack, unplaced."""
    from tohit.engine.fight.load import fight_from_dict
    from tohit.engine.fight.run import initial_state

    fight = fight_from_dict(data, source=source)
    rules = fight.system.map_rules()
    scenario = rules.fight_scenario(fight, initial_state(fight, 1), 0, 0, None) if rules is not None else None
    if rules is None or scenario is None:
        raise InputError("this fight has no map to draw", field="map")
    return rules.view(scenario, place=False)


def _map_spec(data: dict[str, Any]) -> Any:
    from tohit.core.grid.models import MapSpec
    from tohit.core.loader import validate

    if "map" not in data:
        raise InputError("required field is missing", field="map")
    return validate(MapSpec, data["map"], source="", prefix="map")


def _picture(data: dict[str, Any], view: GridView) -> Any:
    """The map's picture decoded (None: no picture) and its doors, for the PNG."""
    from tohit.core.grid.picture import picture_pixels
    from tohit.core.loader import read_bytes

    spec = _map_spec(data) if "map" in data else None
    doors = [(tuple(d.segment), d.closed) for d in spec.doors] if spec is not None else []
    if spec is None or spec.picture is None:
        return None, 1, doors
    board = view.field.board
    pixels = picture_pixels(spec.picture, board.width, board.height, read_bytes)
    return pixels, spec.picture.pixels_per_grid, doors


def _uvtt(data: dict[str, Any], view: GridView, path: Path) -> None:
    """Write the map as a Universal VTT file."""
    from tohit.cli.output import write_file
    from tohit.core.grid.picture import picture_bytes
    from tohit.core.grid.uvtt import Door, to_uvtt
    from tohit.core.grid.walls import solid_outline
    from tohit.core.loader import read_bytes

    spec = _map_spec(data)
    board = view.field.board
    image, ppg = None, 70
    if spec.picture is not None:
        image = picture_bytes(spec.picture, board.width, board.height, read_bytes)
        ppg = spec.picture.pixels_per_grid
    doors = [Door(tuple(d.segment), d.closed) for d in spec.doors]
    out = to_uvtt(board.width, board.height, spec.walls, doors, image, ppg, solid_outline(board.solid))
    text = json.dumps(out)

    def write(temporary: Path) -> None:
        temporary.write_text(text, encoding="utf-8")

    write_file(path, write, field="--uvtt")


def _png_name(path: Path) -> None:
    if path.suffix.lower() != ".png":
        raise InputError(f"the picture is written as PNG: give a file name ending in .png, not {path}", field="--png")


def _png(view: GridView, path: Path, title: str | None = None, picture: Any = None, window: bool = False) -> None:
    from tohit.cli import render
    from tohit.cli.grid_draw import board_png, png_steps
    from tohit.cli.output import write_file

    _png_name(path)
    with render.delayed_progress("drawing", "steps", png_steps(view, window), after=0.5, quiet=False) as advance:
        write_file(path, lambda temporary: board_png(view, temporary, title, advance, picture, window), field="--png")


def _alone(file: Path) -> tuple[Any, Any]:
    """A Universal VTT file by itself: its map (a MapSpec) and its board."""
    from tohit.core.grid.models import MapSpec
    from tohit.core.grid.uvtt import map_alone
    from tohit.core.loader import read_bytes, validate

    source = str(file)
    try:
        spec = validate(MapSpec, map_alone(file, read_bytes), source=source, prefix="map")
    except InputError as exc:
        raise exc.located(source=exc.source or source) from None
    return spec, spec.board()


def _alone_summary(file: Path, spec: Any, board: Any, image: tuple[str, int, int] | None) -> str:
    walls, doors = len(spec.walls), len(spec.doors)
    closed = sum(d.closed for d in spec.doors)
    words = [
        f"{board.width} x {board.height} squares",
        f"{walls} wall{'s' if walls != 1 else ''}",
        f"{doors} door{'s' if doors != 1 else ''}" + (f" ({closed} closed)" if doors else ""),
    ]
    if image is not None:
        words.append(f"a {image[0].upper()} picture, {image[1]} x {image[2]} pixels")
    else:
        words.append("no picture")
    return f"{file}: " + ", ".join(words)


def map_alone_command(file: Path, png: Path | None, as_json: bool, uvtt: Path | None, window: bool) -> None:
    """`tohit map FILE.dd2vtt`: a Universal VTT map drawn alone (no scenario, no creatures)."""
    from tohit.cli import render
    from tohit.cli.grid_draw import map_png, map_text
    from tohit.cli.output import write_file
    from tohit.core.grid.picture import picture_bytes, picture_pixels
    from tohit.core.grid.uvtt import Door, check_image, to_uvtt
    from tohit.core.loader import read_bytes

    if window:
        fail("--window: a map alone has no attack to frame; its PNG draws the whole map")
    if png is not None:
        guarded(lambda: _png_name(png))
    spec, board = guarded(lambda: _alone(file))
    picture = spec.picture
    ppg = picture.pixels_per_grid if picture is not None else 70
    image = guarded(lambda: picture_bytes(picture, board.width, board.height, read_bytes)) if picture else None
    doors = [(tuple(d.segment), d.closed) for d in spec.doors]
    if png is not None:
        pixels = guarded(lambda: picture_pixels(picture, board.width, board.height, read_bytes)) if image else None
        title = f"{file.name}: {board.width} x {board.height} squares"

        def draw(temporary: Path) -> None:
            with render.delayed_progress("drawing", "steps", board.height + 1, after=0.5, quiet=False) as advance:
                map_png(board, temporary, title, (pixels, ppg, doors), advance)

        guarded(lambda: write_file(png, draw, field="--png"))
    if uvtt is not None:
        out = to_uvtt(board.width, board.height, spec.walls, [Door(s, c) for s, c in doors], image, ppg)
        text = json.dumps(out)

        def write(temporary: Path) -> None:
            temporary.write_text(text, encoding="utf-8")

        guarded(lambda: write_file(uvtt, write, field="--uvtt"))
    header = check_image(image) if image is not None else None
    if as_json:
        found = {
            "width": board.width,
            "height": board.height,
            "walls": [list(w) for w in spec.walls],
            "doors": [{"segment": list(d.segment), "closed": d.closed} for d in spec.doors],
            "picture": None
            if header is None
            else {"format": header[0], "pixels": [header[1], header[2]], "pixels_per_grid": ppg},
        }
        sys.stdout.write(json.dumps(found, indent=2) + "\n")
        return
    console = render.console()
    console.print(_alone_summary(file, spec, board, header))
    drawn = map_text(board.width, board.height, spec.walls, doors)
    if drawn is not None:
        console.print(drawn, end="", soft_wrap=True)
        console.print("walls bold, doors orange (closed) or yellow (open), a dot a square", style="dim")
    if png is None:
        console.print(f"--png OUT.png draws it; a scenario or fight file uses it as map: {file.name}", style="dim")
    else:
        console.print(f"wrote {png}")
    if uvtt is not None:
        console.print(f"wrote {uvtt}")


def map_command(
    file: MapFileArg, png: PngOpt = None, as_json: JsonOpt = False, uvtt: UvttOpt = None, window: WindowOpt = False
) -> None:
    """Draw the map with the attack's squares, the creatures it reaches and the cover lines (or a Universal VTT
    map alone: FILE.dd2vtt, FILE.uvtt)."""
    from tohit.cli import render
    from tohit.cli.grid_draw import MAX_DRAWN, board_text, covers_json
    from tohit.core.grid.uvtt import UVTT_SUFFIXES

    if uvtt is not None and uvtt.suffix.lower() not in (".dd2vtt", ".uvtt", ".json"):
        fail(f"--uvtt: give a file name ending in .dd2vtt or .uvtt, not {uvtt}")
    if file.suffix.lower() in UVTT_SUFFIXES:
        map_alone_command(file, png, as_json, uvtt, window)
        return
    data, view = guarded(lambda: load_view(file, placed=True))
    source = str(file)

    def located(work: Any) -> Any:
        try:
            return work()
        except InputError as exc:
            raise exc.located(source=exc.source or source) from None

    if png is not None:
        picture = guarded(lambda: located(lambda: _picture(data, view)))
        guarded(lambda: _png(view, png, picture=picture, window=window))
    if uvtt is not None:
        guarded(lambda: located(lambda: _uvtt(data, view, uvtt)))
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
        board = view.field.board
        if not window and max(board.width, board.height) > MAX_DRAWN:
            render.console().print(
                f"the PNG draws the whole {board.width} x {board.height} map; --window draws the squares around"
                " the attack",
                style="dim",
            )
        render.console().print(f"wrote {png}")
    if uvtt is not None:
        render.console().print(f"wrote {uvtt}")


def aim_command(file: FileArg, png: PngOpt = None, as_json: JsonOpt = False, window: WindowOpt = False) -> None:
    """Try every legal placement of the attack; rank by expected damage to foes minus to allies."""
    from rich.table import Table

    from tohit.cli import render
    from tohit.cli.grid_draw import board_text
    from tohit.core.grid.view import GridView
    from tohit.engine.aim import Aimer

    data, view = guarded(lambda: load_view(file, placed=False))
    aimer = Aimer(data, view)
    ranked = guarded(lambda: _rank(aimer, str(file)))
    unresolved = sorted(aimer.unresolved)
    if not ranked:
        fail(f"{file}: attack.range: no placement of the {view.describe()} reaches a creature")
    best = GridView(view.field, view.user, ranked[0].reach.range, view.rule, ranked[0].reach, view.covers)
    if png is not None:
        guarded(lambda: _png(best, png, f"best: {best.describe()}", window=window))
    if as_json:
        out = {
            "tried": len(ranked),
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
