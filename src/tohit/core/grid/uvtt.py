"""Universal VTT maps (`.dd2vtt`, `.uvtt`): read one as a tohit map, write a tohit map as one.

A UVTT file is JSON: `format`, `resolution` {`map_origin` {x, y}, `map_size` {x, y} in squares,
`pixels_per_grid`}, `line_of_sight` and `objects_line_of_sight` (polylines, lists of {x, y} in grid units),
`portals` (doors: `bounds`, two {x, y}, and `closed`), `lights`, and `image` (a base64 PNG or WebP, or a data
URL; some converters write a file name beside the map instead, read relative to the map's file on the command
line and refused over HTTP, where nothing a client sends names a file on the server). Format 0.2 and 0.3 read
alike (0.2 may lack `objects_line_of_sight` and `map_origin`).

- `line_of_sight` and `objects_line_of_sight` become walls, one per polyline segment; a closed portal is a
  wall, an open one is not (it stays a door that can be closed); `lights` are ignored (tohit has no light).
- Coordinates are in grid units from `map_origin`, rounded to 1 / WALL_SCALE of a square.
- Refused, naming the field: a file that is not UVTT, a missing field, a point off the map, an image that is
  not PNG or WebP (or a file name that cannot be read, or a web address), a file over MAX_UVTT_BYTES, a map
  over MAX_UVTT_SIDE squares a side, an image over MAX_IMAGE_PIXELS pixels (read from the image's header before
  anything decodes it).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError, short_repr

MAX_UVTT_BYTES = 20_000_000
MAX_UVTT_SIDE = 200
#: Largest image decoded: 40 megapixels, at most 160 MB as RGBA (a decompression bomb is refused first).
MAX_IMAGE_PIXELS = 40_000_000
#: How far (in squares) a point may lie outside the map and still be read as on its edge (rounding).
EDGE_SLACK = 0.01
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: The file names read as a Universal VTT map (`tohit map FILE` draws one alone).
UVTT_SUFFIXES = (".dd2vtt", ".uvtt")
#: Longest `image` taken for a file name (any real base64 image is longer).
MAX_IMAGE_NAME = 1000
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
#: Reads a file's bytes, refusing one over `cap` bytes (`tohit.core.loader.read_bytes`).
ReadBytes = Callable[..., bytes]
#: Reads the image file an `image` names (None: over HTTP, where no name is read).
ImageFile = Callable[[str], bytes]


@dataclass(frozen=True)
class Door:
    """A portal: its segment [x0, y0, x1, y1] in grid units, and whether it is closed (a wall)."""

    segment: tuple[float, float, float, float]
    closed: bool


@dataclass(frozen=True)
class UvttMap:
    """A UVTT file read: size in squares, walls and doors in grid units, the image's format and size."""

    width: int
    height: int
    pixels_per_grid: int
    walls: list[tuple[float, float, float, float]] = field(default_factory=list)
    doors: list[Door] = field(default_factory=list)
    image_format: str | None = None
    image_size: tuple[int, int] | None = None


def image_header(data: bytes) -> tuple[str, int, int]:
    """The format ("png" or "webp") and the pixel size read from the header of an image (ValueError if it is
    neither, or the header is cut short): nothing is decoded."""
    if data.startswith(PNG_MAGIC):
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise ValueError("a PNG with no IHDR header")
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        chunk = data[12:16]
        if chunk == b"VP8 " and len(data) >= 30:
            w, h = struct.unpack("<HH", data[26:30])
            return "webp", w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L" and len(data) >= 25:
            bits = int.from_bytes(data[21:25], "little")
            return "webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8X" and len(data) >= 30:
            w = int.from_bytes(data[24:27], "little") + 1
            h = int.from_bytes(data[27:30], "little") + 1
            return "webp", w, h
        raise ValueError("a WebP with a header tohit cannot read")
    raise ValueError("not a PNG or WebP image")


def check_image(data: bytes) -> tuple[str, int, int]:
    """`image_header`, refusing an image over MAX_IMAGE_PIXELS (ValueError)."""
    kind, width, height = image_header(data)
    if width * height > MAX_IMAGE_PIXELS:
        raise ValueError(f"the image is {width} x {height} pixels, over the {MAX_IMAGE_PIXELS:,} pixels tohit decodes")
    return kind, width, height


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value or abs(value) > 1e6:
        raise InputError(f"expected a number, got {short_repr(value)}", field=where)
    return float(value)


def _point(value: Any, where: str) -> tuple[float, float]:
    if not isinstance(value, Mapping):
        raise InputError(f"expected a point {{x, y}}, got {short_repr(value)}", field=where)
    for key in ("x", "y"):
        if key not in value:
            raise InputError("required field is missing", field=f"{where}.{key}")
    return _number(value["x"], f"{where}.x"), _number(value["y"], f"{where}.y")


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(f"expected a list, got {short_repr(value)}", field=where)
    return value


def _is_file_name(text: str) -> bool:
    """Whether an `image` is a file name: a dot, a backslash or a colon never occurs in base64."""
    return len(text) <= MAX_IMAGE_NAME and any(c in text for c in ".\\:")


def _image(value: Any, image_file: ImageFile | None) -> bytes:
    """The encoded image an `image` field holds: base64 (or a base64 data URL), or a file name read with
    `image_file` (refused when there is none: over HTTP)."""
    if not isinstance(value, str):
        raise InputError(f"expected a base64 PNG or WebP, got {short_repr(value)}", field="image")
    text = value.strip()
    if text.startswith("data:"):
        head, sep, text = text.partition(",")
        if not sep or not head.endswith(";base64"):
            raise InputError(f"a data URL that is not base64 ({short_repr(head)})", field="image")
    elif _is_file_name(text):
        if _URL.match(text):
            raise InputError(
                f"is a web address ({short_repr(text)}); tohit reads no network: save the image beside the map"
                " and give its file name",
                field="image",
            )
        if image_file is None:
            raise InputError(
                f"is a file name ({short_repr(text)}); a map sent over HTTP holds its image itself (base64):"
                " nothing a client sends names a file on the server (tohit map FILE --uvtt OUT writes the map"
                " with its image in it)",
                field="image",
            )
        return image_file(text)
    try:
        return base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise InputError(
            "is not base64 (expected a base64 PNG or WebP, or a file name beside the map)", field="image"
        ) from None


def parse_uvtt(
    data: Any, *, with_image: bool = True, image_file: ImageFile | None = None
) -> tuple[UvttMap, bytes | None]:
    """A UVTT mapping as a `UvttMap` (and its image bytes); an InputError names the field. An `image` that is a
    file name is read with `image_file` (None: refused, naming `image`)."""
    if not isinstance(data, Mapping) or "resolution" not in data:
        raise InputError("is not a Universal VTT map (no resolution field)", field="resolution")
    res = data["resolution"]
    if not isinstance(res, Mapping):
        raise InputError(f"expected a mapping, got {short_repr(res)}", field="resolution")
    for key in ("map_size", "pixels_per_grid"):
        if key not in res:
            raise InputError("required field is missing", field=f"resolution.{key}")
    ox, oy = _point(res.get("map_origin", {"x": 0, "y": 0}), "resolution.map_origin")
    sw, sh = _point(res["map_size"], "resolution.map_size")
    if sw != int(sw) or sh != int(sh) or sw < 1 or sh < 1:
        raise InputError(f"expected whole squares, got {sw:g} x {sh:g}", field="resolution.map_size")
    width, height = int(sw), int(sh)
    if width > MAX_UVTT_SIDE or height > MAX_UVTT_SIDE:
        raise InputError(
            f"the map is {width} x {height} squares, over the {MAX_UVTT_SIDE} x {MAX_UVTT_SIDE} tohit reads",
            field="resolution.map_size",
        )
    ppg = _number(res["pixels_per_grid"], "resolution.pixels_per_grid")
    if ppg != int(ppg) or not 1 <= ppg <= 1024:
        raise InputError(f"expected a whole number from 1 to 1024, got {ppg:g}", field="resolution.pixels_per_grid")

    def on_map(value: Any, where: str) -> tuple[float, float]:
        x, y = _point(value, where)
        x, y = x - ox, y - oy
        if not (-EDGE_SLACK <= x <= width + EDGE_SLACK and -EDGE_SLACK <= y <= height + EDGE_SLACK):
            raise InputError(f"point ({x:g}, {y:g}) is off the {width} x {height} map", field=where)
        return min(max(x, 0.0), float(width)), min(max(y, 0.0), float(height))

    walls: list[tuple[float, float, float, float]] = []
    for key in ("line_of_sight", "objects_line_of_sight"):
        for i, line in enumerate(_list(data.get(key, []), key)):
            points = [on_map(pt, f"{key}[{i}][{j}]") for j, pt in enumerate(_list(line, f"{key}[{i}]"))]
            walls.extend((a[0], a[1], b[0], b[1]) for a, b in pairwise(points))
    doors: list[Door] = []
    for i, portal in enumerate(_list(data.get("portals", []), "portals")):
        where = f"portals[{i}]"
        if not isinstance(portal, Mapping):
            raise InputError(f"expected a mapping, got {short_repr(portal)}", field=where)
        if "bounds" not in portal:
            raise InputError("required field is missing", field=f"{where}.bounds")
        bounds = _list(portal["bounds"], f"{where}.bounds")
        if len(bounds) != 2:
            raise InputError(f"expected two points, got {len(bounds)}", field=f"{where}.bounds")
        a, b = (on_map(pt, f"{where}.bounds[{j}]") for j, pt in enumerate(bounds))
        closed = portal.get("closed", True)
        if not isinstance(closed, bool):
            raise InputError(f"expected true or false, got {short_repr(closed)}", field=f"{where}.closed")
        doors.append(Door((a[0], a[1], b[0], b[1]), closed))
    image: bytes | None = None
    kind: str | None = None
    size: tuple[int, int] | None = None
    if data.get("image"):
        image = _image(data["image"], image_file)
        try:
            kind, iw, ih = check_image(image)
        except ValueError as exc:
            raise InputError(str(exc), field="image") from None
        size = (iw, ih)
    out = UvttMap(width, height, int(ppg), walls, doors, kind, size)
    return out, image if with_image else None


def _named(exc: InputError, name: str, file: Path) -> str:
    """A file's read error as a message naming the file as given and, when it differs, where it was looked for."""
    return f"{exc.message}: {name}" + ("" if str(file) == name else f" ({file})")


def read_uvtt(path: Path, read_bytes: ReadBytes) -> tuple[UvttMap, bytes | None]:
    """Read and check a UVTT file (an `image` that is a file name read beside it); an InputError names the file
    and the field."""
    source = str(path)
    raw = read_bytes(path, cap=MAX_UVTT_BYTES, what="a Universal VTT map")
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InputError("is not a Universal VTT map (not UTF-8 JSON)", source=source) from None
    except (json.JSONDecodeError, RecursionError):
        raise InputError("is not a Universal VTT map (not JSON)", source=source) from None

    def image_file(name: str) -> bytes:
        file = path.parent / name
        try:
            return read_bytes(file, cap=MAX_UVTT_BYTES, what="a map's image")
        except InputError as exc:
            raise InputError(_named(exc, name, file), field="image") from None

    try:
        return parse_uvtt(data, image_file=image_file)
    except InputError as exc:
        raise exc.located(source=source) from None


def read_uvtt_image(path: Path, read_bytes: ReadBytes) -> bytes | None:
    """The image bytes of a UVTT file (checked as `read_uvtt` checks them), None when it has none."""
    return read_uvtt(path, read_bytes)[1]


def crop(found: UvttMap, squares: Sequence[Sequence[int]] | None) -> tuple[int, int, int, int]:
    """The kept squares as (x0, y0, width, height): `squares` [[x0, y0], [x1, y1]] (first and last, inclusive)
    or the whole map."""
    if squares is None:
        return 0, 0, found.width, found.height
    (x0, y0), (x1, y1) = squares
    if not (0 <= x0 <= x1 < found.width and 0 <= y0 <= y1 < found.height):
        raise InputError(
            f"{[list(s) for s in squares]} is not within the {found.width} x {found.height} map", field="squares"
        )
    return x0, y0, x1 - x0 + 1, y1 - y0 + 1


def clip(segment: Sequence[float], width: int, height: int) -> tuple[float, float, float, float] | None:
    """The part of a segment inside [0, width] x [0, height] (Liang-Barsky), None if none of it is."""
    x0, y0, x1, y1 = segment
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0), (dx, width - x0), (-dy, y0), (dy, height - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        r = q / p
        if p < 0:
            lo = max(lo, r)
        else:
            hi = min(hi, r)
        if lo > hi:
            return None
    return (x0 + lo * dx, y0 + lo * dy, x0 + hi * dx, y0 + hi * dy)


def map_fields(path: Path, spec: Mapping[str, Any], read_bytes: ReadBytes) -> dict[str, Any]:
    """A fight file's or scenario's `map: {uvtt: FILE, squares?, difficult?}` as the map fields tohit reads
    (`width`, `height`, `walls`, `doors`, `difficult`, `picture`), the file read relative to `path`'s folder.
    A file that cannot be read at all (missing, a folder, too large, not JSON) is an error on `map.uvtt`
    naming the file; an error inside it names the UVTT file and its field."""
    unknown = set(spec) - {"uvtt", "squares", "difficult", "solid"}
    if unknown:
        raise InputError(f"unknown field next to uvtt: {', '.join(sorted(unknown))}", field=f"map.{min(unknown)}")
    name = spec["uvtt"]
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"expected a file name, got {short_repr(name)}", field="map.uvtt")
    file = (path.parent / name).resolve()
    try:
        found, _ = read_uvtt(file, read_bytes)
    except InputError as exc:
        if exc.field is not None:
            raise
        raise InputError(_named(exc, name, file), field="map.uvtt", source=str(path)) from None
    return _fields(found, file, spec)


def map_alone(path: Path, read_bytes: ReadBytes) -> dict[str, Any]:
    """A UVTT file by itself (`tohit map cellar.dd2vtt`) as the map fields tohit reads, the whole map."""
    file = path.resolve()
    found, _ = read_uvtt(file, read_bytes)
    return _fields(found, file, {})


def _fields(found: UvttMap, file: Path, spec: Mapping[str, Any]) -> dict[str, Any]:
    """The map fields of a UVTT map read from `file`, cropped to `spec`'s `squares`, its squares on top."""
    squares = spec.get("squares")
    if squares is not None and not (
        isinstance(squares, list)
        and len(squares) == 2
        and all(isinstance(s, list) and len(s) == 2 and all(type(v) is int for v in s) for s in squares)
    ):
        raise InputError(f"expected [[x0, y0], [x1, y1]], got {short_repr(squares)}", field="map.squares")
    try:
        x0, y0, width, height = crop(found, squares)
    except InputError as exc:
        raise exc.located(field_prefix="map") from None

    def moved(seg: Sequence[float]) -> tuple[float, float, float, float] | None:
        return clip((seg[0] - x0, seg[1] - y0, seg[2] - x0, seg[3] - y0), width, height)

    walls = [list(w) for w in map(moved, found.walls) if w is not None]
    doors = []
    for door in found.doors:
        seg = moved(door.segment)
        if seg is not None:
            doors.append({"segment": list(seg), "closed": door.closed})
    out: dict[str, Any] = {"width": width, "height": height, "walls": walls, "doors": doors}
    for key in ("difficult", "solid"):
        if key in spec:
            out[key] = spec[key]
    out["picture"] = {
        "uvtt": str(file),
        "pixels_per_grid": found.pixels_per_grid,
        "offset": [x0, y0],
        "size": [found.width, found.height],
    }
    return out


def inline_map_fields(data: Any) -> dict[str, Any]:
    """A UVTT mapping given whole (an upload) as the map fields tohit reads, its image kept inline (base64) in
    `picture.image`; an InputError names the UVTT field."""
    found, image = parse_uvtt(data)
    out: dict[str, Any] = {
        "width": found.width,
        "height": found.height,
        "walls": [list(w) for w in found.walls],
        "doors": [{"segment": list(d.segment), "closed": d.closed} for d in found.doors],
    }
    if image is not None:
        out["picture"] = {
            "image": base64.b64encode(image).decode("ascii"),
            "pixels_per_grid": found.pixels_per_grid,
            "size": [found.width, found.height],
        }
    return out


def expand(data: dict[str, Any], path: Path, read_bytes: ReadBytes) -> dict[str, Any]:
    """The document with a `map: {uvtt: ...}` (or `map: FILE`, the same) replaced by the map fields it stands for
    (others unchanged)."""
    spec = data.get("map")
    if isinstance(spec, str):
        spec = {"uvtt": spec}
    if not isinstance(spec, dict) or "uvtt" not in spec:
        return data
    return {**data, "map": map_fields(path, spec, read_bytes)}


def to_uvtt(
    width: int,
    height: int,
    walls: Sequence[Sequence[float]],
    doors: Sequence[Door],
    image: bytes | None = None,
    pixels_per_grid: int = 70,
    objects: Sequence[Sequence[float]] = (),
) -> dict[str, Any]:
    """A map as a UVTT mapping: each wall a two-point polyline (`objects`, e.g. solid squares' outlines, as
    `objects_line_of_sight`), each door a portal with `closed`, the image."""

    def pt(x: float, y: float) -> dict[str, float]:
        return {"x": x, "y": y}

    portals = []
    for door in doors:
        x0, y0, x1, y1 = door.segment
        portals.append(
            {
                "position": pt((x0 + x1) / 2, (y0 + y1) / 2),
                "bounds": [pt(x0, y0), pt(x1, y1)],
                "rotation": 0,
                "closed": door.closed,
                "freestanding": False,
            }
        )
    return {
        "format": 0.3,
        "resolution": {
            "map_origin": pt(0, 0),
            "map_size": pt(width, height),
            "pixels_per_grid": pixels_per_grid,
        },
        "line_of_sight": [[pt(w[0], w[1]), pt(w[2], w[3])] for w in walls],
        "objects_line_of_sight": [[pt(w[0], w[1]), pt(w[2], w[3])] for w in objects],
        "portals": portals,
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "lights": [],
        "image": base64.b64encode(image).decode("ascii") if image else "",
    }
