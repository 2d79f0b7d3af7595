"""Writes the small Universal VTT maps beside it, one per format variant the exporters write (run it by hand:
`python tests/grid/uvtt/make.py`; the tests read the files, never this script).

- `dungeondraft-0.3-cellar.dd2vtt`: Dungeondraft's format 0.3: a room outline as one closed polyline, a wall
  with a closed door (a portal rotated a quarter turn), a pillar in `objects_line_of_sight`, lights, the
  environment, a PNG picture.
- `dungeondraft-0.2-hall.dd2vtt`: the older format 0.2: no `objects_line_of_sight`, no `environment`, an
  L-shaped polyline, an open door (rotation 0), a PNG picture.
- `dungeonfog-crypt.uvtt`: a generic `.uvtt` whose `map_origin` is not (0, 0), a door set at 45 degrees, a
  WebP picture.
- `foundry-cellar.uvtt` and `foundry-cellar.png`: a Foundry-to-UVTT conversion, its `image` a file name beside
  it, no lights.

Each picture is drawn from the walls it comes with (floor, dark walls, brown doors), so a drawing shows at once
whether walls and picture line up.
"""

from __future__ import annotations

import base64
import io
import json
import math
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

HERE = Path(__file__).parent
PPG = 20
Point = tuple[float, float]


def pt(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def picture(size: Point, origin: Point, walls: list[list[Point]], doors: list[list[Point]], fmt: str) -> bytes:
    """The floor with the walls drawn dark and the doors brown, `PPG` pixels a square."""
    width, height = int(size[0]), int(size[1])
    image = Image.new("RGB", (width * PPG, height * PPG), (214, 196, 160))
    draw = ImageDraw.Draw(image)
    for x in range(width):  # a faint baked-in grid, as an export with its grid on
        draw.line([(x * PPG, 0), (x * PPG, height * PPG)], fill=(196, 178, 142))
    for y in range(height):
        draw.line([(0, y * PPG), (width * PPG, y * PPG)], fill=(196, 178, 142))

    def px(p: Point) -> tuple[float, float]:
        return ((p[0] - origin[0]) * PPG, (p[1] - origin[1]) * PPG)

    for line in walls:
        draw.line([px(p) for p in line], fill=(40, 34, 30), width=5)
    for a, b in doors:
        draw.line([px(a), px(b)], fill=(150, 90, 40), width=7)
    out = io.BytesIO()
    image.save(out, format=fmt, **({"lossless": True} if fmt == "WEBP" else {"optimize": True}))
    return out.getvalue()


def polylines(lines: list[list[Point]]) -> list[list[dict[str, float]]]:
    return [[pt(*p) for p in line] for line in lines]


def portal(a: Point, b: Point, rotation: float, closed: bool) -> dict[str, Any]:
    return {
        "position": pt((a[0] + b[0]) / 2, (a[1] + b[1]) / 2),
        "bounds": [pt(*a), pt(*b)],
        "rotation": rotation,
        "closed": closed,
        "freestanding": False,
    }


def light(x: float, y: float) -> dict[str, Any]:
    return {"position": pt(x, y), "range": 3, "intensity": 1, "color": "ffeccd8b", "shadows": True}


def cellar_03() -> dict[str, Any]:
    outline = [[(0, 0), (8, 0), (8, 6), (0, 6), (0, 0)]]
    cross = [[(4, 0), (4, 2)], [(4, 3), (4, 6)]]
    pillar = [[(6, 4), (7, 4), (7, 5), (6, 5), (6, 4)]]
    door = [(4, 2), (4, 3)]
    return {
        "format": 0.3,
        "resolution": {"map_origin": pt(0, 0), "map_size": pt(8, 6), "pixels_per_grid": PPG},
        "line_of_sight": polylines(outline + cross),
        "objects_line_of_sight": polylines(pillar),
        "portals": [portal(*door, rotation=math.pi / 2, closed=True)],
        "environment": {"baked_lighting": True, "ambient_light": "ff7f7f7f"},
        "lights": [light(2, 3), light(6, 1.5)],
        "image": base64.b64encode(picture((8, 6), (0, 0), outline + cross + pillar, [door], "PNG")).decode(),
    }


def hall_02() -> dict[str, Any]:
    corner = [[(0, 1), (3, 1), (3, 4)]]
    east = [[(5, 1), (6, 1)]]
    door = [(3, 1), (5, 1)]
    return {
        "format": 0.2,
        "resolution": {"map_origin": pt(0, 0), "map_size": pt(6, 4), "pixels_per_grid": PPG},
        "line_of_sight": polylines(corner + east),
        "portals": [portal(*door, rotation=0.0, closed=False)],
        "lights": [],
        "image": base64.b64encode(picture((6, 4), (0, 0), corner + east, [door], "PNG")).decode(),
    }


def crypt() -> dict[str, Any]:
    origin = (2.0, 1.0)  # the export's first square is square (2, 1) of the drawing
    walls = [[(2, 3), (5, 3)], [(6, 4), (7, 5), (7, 6)], [(5, 1), (5, 2)]]
    straight = [(5, 2), (5, 3)]
    slanted = [(5, 3), (6, 4)]
    return {
        "format": 0.3,
        "resolution": {"map_origin": pt(*origin), "map_size": pt(7, 5), "pixels_per_grid": PPG},
        "line_of_sight": polylines(walls),
        "objects_line_of_sight": [],
        "portals": [
            portal(*straight, rotation=math.pi / 2, closed=True),
            portal(*slanted, rotation=math.pi / 4, closed=False),
        ],
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "lights": [light(8, 5)],
        "image": base64.b64encode(picture((7, 5), origin, walls, [straight, slanted], "WEBP")).decode(),
    }


def foundry() -> tuple[dict[str, Any], bytes]:
    walls = [[(0, 0), (5, 0), (5, 5), (0, 5), (0, 0)], [(2, 0), (2, 2)]]
    door = [(2, 2), (2, 3)]
    data = {
        "format": 0.3,
        "resolution": {"map_origin": pt(0, 0), "map_size": pt(5, 5), "pixels_per_grid": PPG},
        "line_of_sight": polylines(walls),
        "objects_line_of_sight": [],
        "portals": [portal(*door, rotation=math.pi / 2, closed=True)],
        "lights": [],
        "image": "foundry-cellar.png",
    }
    return data, picture((5, 5), (0, 0), walls, [door], "PNG")


def main() -> None:
    for name, data in (
        ("dungeondraft-0.3-cellar.dd2vtt", cellar_03()),
        ("dungeondraft-0.2-hall.dd2vtt", hall_02()),
        ("dungeonfog-crypt.uvtt", crypt()),
    ):
        (HERE / name).write_text(json.dumps(data, indent=1) + "\n")
    data, image = foundry()
    (HERE / "foundry-cellar.uvtt").write_text(json.dumps(data, indent=1) + "\n")
    (HERE / "foundry-cellar.png").write_bytes(image)


if __name__ == "__main__":
    main()
