"""Maps as exporters write them (issue 40, part 3): small files of each format variant (tests/grid/uvtt/, written
by its make.py) read with their walls and doors exactly; `tohit map FILE.dd2vtt` draws a map alone; an `image`
that is a file name beside the map; `map: FILE` as a string; the PNG draws the whole map (`--window` the old
crop); a file that cannot be read is named on `map.uvtt`."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.grid.uvtt_fixtures import arrow_scenario, cellar, write_uvtt
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.core.grid.models import MapSpec
from tohit.core.loader import read_document

UVTT = Path(__file__).parent / "uvtt"
CELLAR = "dungeondraft-0.3-cellar.dd2vtt"
HALL = "dungeondraft-0.2-hall.dd2vtt"
CRYPT = "dungeonfog-crypt.uvtt"
FOUNDRY = "foundry-cellar.uvtt"
FLOOR = np.array([214, 196, 160])  # the pictures' floor colour (make.py)


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def copied(tmp_path: Path, *names: str) -> Path:
    for name in names:
        shutil.copy(UVTT / name, tmp_path / name)
    return tmp_path


def alone(path: Path) -> dict[str, Any]:
    out = run("map", str(path), "--json")
    assert out.exit_code == 0, out.output
    found: dict[str, Any] = json.loads(out.output)
    return found


def undirected(walls: list[list[float]]) -> set[tuple[float, ...]]:
    return {tuple(min((w[0], w[1], w[2], w[3]), (w[2], w[3], w[0], w[1]))) for w in walls}


def floor_share(path: Path) -> float:
    from PIL import Image

    with Image.open(path) as image:
        pixels = np.asarray(image.convert("RGB")).reshape(-1, 3).astype(int)
    return float((np.abs(pixels - FLOOR).sum(axis=1) < 30).mean())


# -- each variant, read exactly ------------------------------------------------------------------------------------
def test_dungeondraft_0_3_polylines_objects_and_a_rotated_door() -> None:
    found = alone(UVTT / CELLAR)
    assert (found["width"], found["height"]) == (8, 6)
    outline = {(0, 0, 8, 0), (8, 0, 8, 6), (0, 6, 8, 6), (0, 0, 0, 6)}
    cross = {(4, 0, 4, 2), (4, 3, 4, 6)}
    pillar = {(6, 4, 7, 4), (7, 4, 7, 5), (6, 5, 7, 5), (6, 4, 6, 5)}
    assert undirected(found["walls"]) == outline | cross | pillar
    assert found["doors"] == [{"segment": [4, 2, 4, 3], "closed": True}]
    assert found["picture"] == {"format": "png", "pixels": [160, 120], "pixels_per_grid": 20}


def test_dungeondraft_0_2_without_objects_and_an_open_door() -> None:
    found = alone(UVTT / HALL)
    assert (found["width"], found["height"]) == (6, 4)
    assert undirected(found["walls"]) == {(0, 1, 3, 1), (3, 1, 3, 4), (5, 1, 6, 1)}
    assert found["doors"] == [{"segment": [3, 1, 5, 1], "closed": False}]
    assert found["picture"]["format"] == "png"


def test_a_uvtt_with_its_origin_moved_a_slanted_door_and_a_webp_picture() -> None:
    found = alone(UVTT / CRYPT)
    assert (found["width"], found["height"]) == (7, 5)
    assert undirected(found["walls"]) == {(0, 2, 3, 2), (4, 3, 5, 4), (5, 4, 5, 5), (3, 0, 3, 1)}
    assert found["doors"] == [
        {"segment": [3, 1, 3, 2], "closed": True},
        {"segment": [3, 2, 4, 3], "closed": False},
    ]
    assert found["picture"] == {"format": "webp", "pixels": [140, 100], "pixels_per_grid": 20}


def test_an_image_given_as_a_file_beside_the_map_is_read_from_there(tmp_path: Path) -> None:
    found = alone(copied(tmp_path, FOUNDRY, "foundry-cellar.png") / FOUNDRY)
    assert found["picture"] == {"format": "png", "pixels": [100, 100], "pixels_per_grid": 20}
    assert len(found["walls"]) == 5 and found["doors"] == [{"segment": [2, 2, 2, 3], "closed": True}]
    scenario = arrow_scenario(tmp_path, {"uvtt": FOUNDRY}, Link=[0, 3], Chuchu=[1, 4], Moblin=[0, 0], **{
        "Bokoblin Archer": [4, 4]
    })  # fmt: skip
    out = run("map", str(scenario), "--png", str(tmp_path / "m.png"))
    assert out.exit_code == 0, out.output
    assert floor_share(tmp_path / "m.png") > 0.3  # the picture, read from the PNG beside the map


def test_a_map_whose_image_is_a_file_is_written_back_with_the_image_in_it(tmp_path: Path) -> None:
    """`tohit map FILE --uvtt OUT` makes a map the web table takes (its image inline, base64)."""
    from tohit.core.grid.uvtt import inline_map_fields

    copied(tmp_path, FOUNDRY, "foundry-cellar.png")
    out = run("map", str(tmp_path / FOUNDRY), "--uvtt", str(tmp_path / "whole.uvtt"))
    assert out.exit_code == 0, out.output
    whole = json.loads((tmp_path / "whole.uvtt").read_text())
    assert base64.b64decode(whole["image"]) == (tmp_path / "foundry-cellar.png").read_bytes()
    assert inline_map_fields(whole)["picture"]["pixels_per_grid"] == 20
    with pytest.raises(InputError, match="names a file on the server") as caught:
        inline_map_fields(json.loads((tmp_path / FOUNDRY).read_text()))
    assert caught.value.field == "image"


def test_an_image_file_that_is_missing_names_the_field_and_the_file(tmp_path: Path) -> None:
    copied(tmp_path, FOUNDRY)
    out = run("map", str(tmp_path / FOUNDRY))
    assert out.exit_code == 2 and "Traceback" not in out.output
    line = " ".join(out.output.split())
    assert f"{FOUNDRY}: image: no such file: foundry-cellar.png" in line


def test_an_image_as_a_web_address_or_a_data_url(tmp_path: Path) -> None:
    data = cellar()
    write_uvtt(tmp_path, {**data, "image": "https://example.com/cellar.webp"}, "web.uvtt")
    out = run("map", str(tmp_path / "web.uvtt"))
    assert out.exit_code == 2 and "image: is a web address" in " ".join(out.output.split())
    write_uvtt(tmp_path, {**data, "image": "data:image/png;base64," + data["image"]}, "data.uvtt")
    assert alone(tmp_path / "data.uvtt")["picture"]["format"] == "png"


# -- a map alone ---------------------------------------------------------------------------------------------------
def test_tohit_map_draws_a_map_alone(tmp_path: Path) -> None:
    out = run("map", str(UVTT / CELLAR), "--png", str(tmp_path / "cellar.png"), "--uvtt", str(tmp_path / "c.uvtt"))
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "8 x 6 squares, 10 walls, 1 door (1 closed), a PNG picture, 160 x 120 pixels" in text
    assert "  0 ⡏⠉⠉⠉⠉⠉⠉⠉⡏⠉⠉⠉⠉⠉⠉⢹" in out.output  # the room's top wall, the cross wall from it (braille dots)
    assert floor_share(tmp_path / "cellar.png") > 0.3
    back = alone(tmp_path / "c.uvtt")
    assert undirected(back["walls"]) == undirected(alone(UVTT / CELLAR)["walls"])


def test_a_map_alone_has_no_window_and_a_uvtt_json_is_pointed_to_its_name(tmp_path: Path) -> None:
    out = run("map", str(UVTT / CELLAR), "--png", str(tmp_path / "c.png"), "--window")
    assert out.exit_code == 2 and "--window" in out.output and not (tmp_path / "c.png").exists()
    shutil.copy(UVTT / HALL, tmp_path / "hall.json")
    out = run("map", str(tmp_path / "hall.json"))
    assert out.exit_code == 2 and ".dd2vtt or .uvtt" in " ".join(out.output.split())


# -- in a scenario -------------------------------------------------------------------------------------------------
SPOTS: dict[str, list[int]] = {"Link": [1, 1], "Chuchu": [1, 4], "Moblin": [2, 3], "Bokoblin Archer": [6, 1]}


def test_map_as_a_file_name_means_uvtt(tmp_path: Path) -> None:
    scenario = arrow_scenario(copied(tmp_path, CELLAR), CELLAR, **SPOTS)  # type: ignore[arg-type]
    spec = MapSpec.model_validate(read_document(scenario)["map"])
    assert (spec.width, spec.height, len(spec.walls)) == (8, 6, 10)
    assert run("map", str(scenario)).exit_code == 0


def test_map_as_a_file_name_where_no_file_is_read_says_what_it_means() -> None:
    with pytest.raises(ValueError, match=r"the same as \{uvtt: 'cellar.dd2vtt'\}"):
        MapSpec.model_validate("cellar.dd2vtt")


def test_a_missing_uvtt_file_is_named_on_map_uvtt(tmp_path: Path) -> None:
    scenario = arrow_scenario(tmp_path, {"uvtt": "missing.dd2vtt"}, **SPOTS)
    with pytest.raises(InputError) as caught:
        read_document(scenario)
    assert caught.value.field == "map.uvtt" and caught.value.source == str(scenario)
    assert "no such file: missing.dd2vtt" in caught.value.message
    out = run("map", str(scenario))
    assert out.exit_code == 2
    assert f"{scenario}: map.uvtt: no such file: missing.dd2vtt" in " ".join(out.output.split())


# -- the whole map -------------------------------------------------------------------------------------------------
def test_the_png_draws_the_whole_map_and_window_the_squares_around_the_attack(tmp_path: Path) -> None:
    from PIL import Image

    wide = {"width": 60, "height": 8, "walls": [[55, 0, 55, 8]]}
    scenario = arrow_scenario(tmp_path, wide, Link=[0, 1], Chuchu=[0, 3], Moblin=[2, 0], **{
        "Bokoblin Archer": [3, 3]
    })  # fmt: skip
    out = run("map", str(scenario), "--png", str(tmp_path / "whole.png"))
    assert out.exit_code == 0, out.output
    with Image.open(tmp_path / "whole.png") as image:
        width, height = image.size
    assert width > 4 * height  # the 60 x 8 map, the wall at x = 55 in it
    out = run("map", str(scenario), "--png", str(tmp_path / "window.png"), "--window")
    assert out.exit_code == 0, out.output
    with Image.open(tmp_path / "window.png") as image:
        width, height = image.size
    assert width < 2 * height  # the squares around the attack


def test_an_image_path_in_a_picture_is_read_for_the_png_of_a_cropped_map(tmp_path: Path) -> None:
    copied(tmp_path, FOUNDRY, "foundry-cellar.png")
    spec = {"uvtt": FOUNDRY, "squares": [[0, 2], [4, 4]]}
    scenario = arrow_scenario(tmp_path, spec, Link=[0, 0], Chuchu=[0, 2], Moblin=[1, 1], **{
        "Bokoblin Archer": [4, 2]
    })  # fmt: skip
    out = run("map", str(scenario), "--png", str(tmp_path / "crop.png"))
    assert out.exit_code == 0, out.output
    assert floor_share(tmp_path / "crop.png") > 0.3


def _pixels(data: bytes) -> Any:
    import io

    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def test_the_fixtures_are_what_make_py_writes(tmp_path: Path) -> None:
    """The files under tests/grid/uvtt are make.py's output (nothing edited by hand since); pictures compared
    pixel for pixel (the encoders' bytes may differ between Pillow versions)."""
    import importlib.util

    found = importlib.util.spec_from_file_location("uvtt_make", UVTT / "make.py")
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    module.HERE = tmp_path
    module.main()
    for name in (CELLAR, HALL, CRYPT, FOUNDRY):
        made, kept = (json.loads((folder / name).read_text()) for folder in (tmp_path, UVTT))
        assert {**made, "image": None} == {**kept, "image": None}, name
        if name != FOUNDRY:
            assert (_pixels(base64.b64decode(made["image"])) == _pixels(base64.b64decode(kept["image"]))).all()
    image = "foundry-cellar.png"
    assert (_pixels((tmp_path / image).read_bytes()) == _pixels((UVTT / image).read_bytes())).all()


def test_the_schema_accepts_a_map_given_as_a_file_name(tmp_path: Path) -> None:
    import jsonschema
    import yaml

    doc = yaml.safe_load(arrow_scenario(tmp_path, CELLAR, **SPOTS).read_text())  # type: ignore[arg-type]
    schema = json.loads(run("schema", "rtw").output)
    jsonschema.Draft202012Validator(schema).validate(doc)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate({**doc, "map": ""})
