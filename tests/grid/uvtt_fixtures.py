"""Hand-made Universal VTT maps for the tests (built in code: no downloaded maps)."""

from __future__ import annotations

import base64
import copy
import io
import json
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import EXAMPLES

PPG = 10
#: examples/fights/rtw-map.yaml: Link and Zelda against a Bokoblin, a Bokoblin Archer and a Moblin.
RTW_MAP = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())
#: Where rtw-map's combatants stand in the cellar (`cellar`): Link and Zelda in the west room, the Bokoblin beside
#: the pillar, the Bokoblin Archer and the Moblin in the east room beyond the door.
CELLAR_SPOTS = {"Link": [0, 0], "Zelda": [0, 3], "Bokoblin": [3, 1], "Bokoblin Archer": [8, 0], "Moblin": [7, 3]}


def png(width: int, height: int, color: tuple[int, int, int] = (200, 170, 120)) -> bytes:
    """A plain PNG of `width` x `height` pixels with a dark stripe down its left edge."""
    from PIL import Image

    image = Image.new("RGB", (width, height), color)
    for y in range(height):
        image.putpixel((0, y), (20, 20, 20))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def pt(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def cellar(*, door_closed: bool = True, image: bytes | None = None) -> dict[str, Any]:
    """A 10 x 4 cellar: a wall down x = 5 with a door at y 1..2, a diagonal wall in the east room, a pillar
    drawn as an object, a light (ignored)."""
    return {
        "format": 0.3,
        "resolution": {"map_origin": pt(0, 0), "map_size": pt(10, 4), "pixels_per_grid": PPG},
        "line_of_sight": [[pt(5, 0), pt(5, 1)], [pt(5, 2), pt(5, 4)], [pt(7, 0), pt(10, 3)]],
        "objects_line_of_sight": [[pt(2, 2), pt(3, 2), pt(3, 3), pt(2, 3), pt(2, 2)]],
        "portals": [
            {
                "position": pt(5, 1.5),
                "bounds": [pt(5, 1), pt(5, 2)],
                "rotation": 1.5708,
                "closed": door_closed,
                "freestanding": False,
            }
        ],
        "lights": [{"position": pt(1, 1), "range": 4, "intensity": 1, "color": "ffffffff", "shadows": True}],
        "image": base64.b64encode(image if image is not None else png(10 * PPG, 4 * PPG)).decode("ascii"),
    }


def cellar_fight(spots: dict[str, list[int]] = CELLAR_SPOTS) -> dict[str, Any]:
    """rtw-map's fight, a fresh copy, with its combatants at `spots` in the cellar; no map of its own (the cellar is
    sent beside it, as a new encounter's `uvtt`, or put in by the caller)."""
    fight = copy.deepcopy(RTW_MAP)
    for side in fight["sides"]:
        for c in side["combatants"]:
            c["position"] = spots[c["name"]]
    return fight


def write_uvtt(folder: Path, data: dict[str, Any], name: str = "cellar.dd2vtt") -> Path:
    path = folder / name
    path.write_text(json.dumps(data))
    return path


def arrow_scenario(folder: Path, map_field: dict[str, Any], **positions: list[int]) -> Path:
    """The bundled Projectile scenario on another map, Link and the foes where `positions` put them."""
    data = yaml.safe_load((EXAMPLES / "rtw" / "grid-arrow-past-the-crowd.yaml").read_text())
    data["map"] = map_field
    where = {"Link": [0, 1], "Chuchu": [0, 3], "Moblin": [2, 0], "Bokoblin Archer": [8, 0], **positions}
    for c in data["combatants"]:
        c["position"] = where[c["name"]]
    data["attack"]["range"]["target"] = "Moblin"
    path = folder / "scenario.yaml"
    path.write_text(yaml.safe_dump(data))
    return path
