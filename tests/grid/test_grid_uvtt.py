"""Universal VTT maps (issue 32): import (walls, doors, the crop, difficult squares), bad input, export and the
round trip, the picture under the grid."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.grid.uvtt_fixtures import PPG, arrow_scenario, cellar, png, pt, write_uvtt
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.core.grid.models import MapSpec
from tohit.core.grid.movement import moves
from tohit.core.grid.uvtt import MAX_IMAGE_PIXELS, check_image
from tohit.core.loader import read_document


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def board_of(path: Path) -> Any:
    return MapSpec.model_validate(read_document(path)["map"]).board()


def segments(board: Any) -> set[tuple[int, ...]]:
    """The walls as undirected segments."""
    out = set()
    for x0, y0, x1, y1 in board.walls.tolist():
        out.add(tuple(min((x0, y0, x1, y1), (x1, y1, x0, y0))))
    return out


def test_line_of_sight_and_objects_become_walls_and_closed_portals_too(tmp_path: Path) -> None:
    write_uvtt(tmp_path, cellar())
    data = read_document(arrow_scenario(tmp_path, {"uvtt": "cellar.dd2vtt"}))
    spec = MapSpec.model_validate(data["map"])
    assert (spec.width, spec.height) == (10, 4)
    assert len(spec.walls) == 3 + 4  # two pieces of the cross wall, the diagonal; the pillar's four sides
    assert [d.closed for d in spec.doors] == [True]
    assert len(spec.board().walls) == 8  # and the closed door


def test_a_closed_door_blocks_a_move_and_an_open_one_does_not(tmp_path: Path) -> None:
    write_uvtt(tmp_path, cellar(door_closed=True), "closed.dd2vtt")
    write_uvtt(tmp_path, cellar(door_closed=False), "open.dd2vtt")
    closed = board_of(arrow_scenario(tmp_path, {"uvtt": "closed.dd2vtt"}))
    assert not any(x >= 5 for x, _ in moves(closed, (4, 1), 12))
    opened = board_of(arrow_scenario(tmp_path, {"uvtt": "open.dd2vtt"}))
    assert (6, 1) in moves(opened, (4, 1), 12)
    assert opened.step_blocked((4, 0), (1, 0)) and not opened.step_blocked((4, 1), (1, 0))


def test_a_projectile_passes_an_open_door_and_not_a_closed_one(tmp_path: Path) -> None:
    where = {"Link": [3, 0], "Moblin": [6, 2]}
    write_uvtt(tmp_path, cellar(door_closed=False), "open.dd2vtt")
    out = run("map", str(arrow_scenario(tmp_path, {"uvtt": "open.dd2vtt"}, **where)), "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["reached"] == ["Moblin"]
    write_uvtt(tmp_path, cellar(door_closed=True), "closed.dd2vtt")
    out = run("map", str(arrow_scenario(tmp_path, {"uvtt": "closed.dd2vtt"}, **where)), "--json")
    assert out.exit_code == 2
    assert "target" in out.output and "Traceback" not in out.output


def test_crop_and_difficult_squares_on_top(tmp_path: Path) -> None:
    write_uvtt(tmp_path, cellar())
    spec_map = {"uvtt": "cellar.dd2vtt", "squares": [[4, 0], [9, 3]], "difficult": [[0, 3]]}
    data = read_document(arrow_scenario(tmp_path, spec_map, Link=[0, 0], Chuchu=[0, 1], Moblin=[2, 2]))
    spec = MapSpec.model_validate(data["map"])
    assert (spec.width, spec.height) == (6, 4)
    board = spec.board()
    assert board.is_difficult((0, 3))
    assert board.step_blocked((0, 0), (1, 0))  # the cross wall, now at x = 1
    assert [0.0, 0.0, 0.0, 0.0] not in [list(w) for w in spec.walls]
    assert all(max(w[0], w[2]) <= 6 for w in spec.walls)  # the pillar west of the crop is gone


def test_round_trip_import_export_import_gives_the_same_walls(tmp_path: Path) -> None:
    write_uvtt(tmp_path, cellar())
    scenario = arrow_scenario(tmp_path, {"uvtt": "cellar.dd2vtt"})
    out = run("map", str(scenario), "--uvtt", str(tmp_path / "out.dd2vtt"))
    assert out.exit_code == 0, out.output
    exported = json.loads((tmp_path / "out.dd2vtt").read_text())
    assert [p["closed"] for p in exported["portals"]] == [True]
    again = board_of(arrow_scenario(tmp_path, {"uvtt": "out.dd2vtt"}))
    assert segments(again) == segments(board_of(scenario))
    assert exported["image"] == cellar()["image"]


def test_export_writes_solid_squares_as_outlines(tmp_path: Path) -> None:
    scenario = arrow_scenario(tmp_path, {"rows": ["..........", "..........", "...#......", ".........."]})
    assert run("map", str(scenario), "--uvtt", str(tmp_path / "rows.uvtt")).exit_code == 0
    back = board_of(arrow_scenario(tmp_path, {"uvtt": "rows.uvtt"}))
    assert len(back.walls) == 4 and not back.solid.any()


def test_map_png_draws_the_picture_under_the_grid(tmp_path: Path) -> None:
    from PIL import Image

    write_uvtt(tmp_path, cellar())
    scenario = arrow_scenario(tmp_path, {"uvtt": "cellar.dd2vtt"})
    out = run("map", str(scenario), "--png", str(tmp_path / "map.png"))
    assert out.exit_code == 0, out.output
    pixels = np.asarray(Image.open(tmp_path / "map.png").convert("RGB")).reshape(-1, 3).astype(int)
    tan = (np.abs(pixels - np.array([200, 170, 120])).sum(axis=1) < 30).sum()
    assert tan > 5000  # the image's colour fills the squares


def test_a_fight_file_is_drawn_and_exported(tmp_path: Path) -> None:
    import yaml

    from tests.conftest import EXAMPLES

    write_uvtt(tmp_path, cellar(door_closed=False))
    fight = yaml.safe_load((EXAMPLES / "fights" / "rtw-moving-skirmish.yaml").read_text())
    fight["map"] = {"uvtt": "cellar.dd2vtt"}
    spots = iter([[0, 0], [0, 3], [7, 2], [9, 3]])
    for side in fight["sides"]:
        for c in side["combatants"]:
            c["position"] = next(spots)
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(fight))
    out = run("map", str(path), "--uvtt", str(tmp_path / "fight.dd2vtt"))
    assert out.exit_code == 0, out.output
    assert len(json.loads((tmp_path / "fight.dd2vtt").read_text())["line_of_sight"]) == 7


def _bad(tmp_path: Path, data: Any, raw: bytes | None = None) -> Any:
    path = tmp_path / "bad.dd2vtt"
    if raw is not None:
        path.write_bytes(raw)
    else:
        path.write_text(json.dumps(data))
    scenario = arrow_scenario(tmp_path, {"uvtt": "bad.dd2vtt"})
    out = run("map", str(scenario), "--uvtt", str(tmp_path / "out.dd2vtt"))
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output and len(out.output.strip().splitlines()) == 1
    assert not (tmp_path / "out.dd2vtt").exists()
    return out.output


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: [d], "resolution"),
        (lambda d: {k: v for k, v in d.items() if k != "resolution"}, "resolution"),
        (lambda d: {**d, "resolution": {"map_origin": pt(0, 0), "pixels_per_grid": PPG}}, "resolution.map_size"),
        (lambda d: {**d, "line_of_sight": [[pt(0, 0), pt(11, 0)]]}, "line_of_sight[0][1]"),
        (lambda d: {**d, "portals": [{"closed": True}]}, "portals[0].bounds"),
        (lambda d: {**d, "image": base64.b64encode(b"GIF89a" + bytes(40)).decode()}, "image"),
        (lambda d: {**d, "image": base64.b64encode(_png_header(100_000, 100_000)).decode()}, "image"),
        (lambda d: {**d, "resolution": {**d["resolution"], "map_size": pt(201, 4)}}, "resolution.map_size"),
    ],
)
def test_bad_uvtt_is_one_line_naming_the_file_and_the_field(tmp_path: Path, change: Any, field: str) -> None:
    text = _bad(tmp_path, change(cellar()))
    assert "bad.dd2vtt" in text and field in text


def test_not_json_and_too_large_are_refused(tmp_path: Path) -> None:
    assert "not a Universal VTT map" in _bad(tmp_path, None, raw=b"<svg/>")
    assert "20,000,000" in _bad(tmp_path, None, raw=b" " * 20_000_001)


def test_the_pixel_cap_is_read_from_the_header_before_decoding() -> None:
    assert check_image(png(30, 20)) == ("png", 30, 20)
    with pytest.raises(ValueError, match="pixels"):
        check_image(_png_header(8000, 8000))
    assert MAX_IMAGE_PIXELS < 8000 * 8000
    webp_vp8x = b"RIFF" + bytes(4) + b"WEBPVP8X" + bytes(8) + (99).to_bytes(3, "little") + (49).to_bytes(3, "little")
    assert check_image(webp_vp8x) == ("webp", 100, 50)


def test_a_crop_off_the_map_names_the_field(tmp_path: Path) -> None:
    write_uvtt(tmp_path, cellar())
    with pytest.raises(InputError, match="squares"):
        read_document(arrow_scenario(tmp_path, {"uvtt": "cellar.dd2vtt", "squares": [[0, 0], [10, 3]]}))


def test_a_bad_uvtt_name_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    write_uvtt(tmp_path, cellar())
    scenario = arrow_scenario(tmp_path, {"uvtt": "cellar.dd2vtt"})
    out = run("map", str(scenario), "--png", str(tmp_path / "m.png"), "--uvtt", str(tmp_path / "m.txt"))
    assert out.exit_code == 2 and "--uvtt" in out.output
    assert not (tmp_path / "m.png").exists() and not (tmp_path / "m.txt").exists()


def test_the_schema_accepts_a_uvtt_map(tmp_path: Path) -> None:
    import jsonschema
    import yaml

    write_uvtt(tmp_path, cellar())
    doc = yaml.safe_load(arrow_scenario(tmp_path, {"uvtt": "cellar.dd2vtt", "squares": [[0, 0], [9, 3]]}).read_text())
    schema = json.loads(run("schema", "rtw").output)
    jsonschema.Draft202012Validator(schema).validate(doc)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate({**doc, "map": {"uvtt": "cellar.dd2vtt", "crop": 1}})


@pytest.mark.parametrize("closed", [True, False])
def test_a_fight_on_a_uvtt_map_is_kept_apart_by_a_closed_door(tmp_path: Path, closed: bool) -> None:
    """Heroes west of the cellar's wall, Bokoblins east: with the door closed no move, arrow or blow passes the
    wall (a draw); open, they meet."""
    import yaml

    from tests.conftest import EXAMPLES

    write_uvtt(tmp_path, cellar(door_closed=closed))
    fight = yaml.safe_load((EXAMPLES / "fights" / "rtw-moving-skirmish.yaml").read_text())
    fight["map"] = {"uvtt": "cellar.dd2vtt"}
    fight["max_rounds"] = 4
    spots = iter([[0, 0], [0, 3], [8, 2], [9, 0]])
    for side in fight["sides"]:
        for c in side["combatants"]:
            c["position"] = next(spots)
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(fight))
    out = run("fight", str(path))
    assert out.exit_code == 0, out.output
    assert (" attacks " in out.output) != closed
    if closed:
        assert "a draw" in out.output
