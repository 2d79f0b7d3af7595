"""The grid of a sweep: every combination of the varied values (the first `--vary` outermost), each point a copy
of the file with its values set, every point checked by the game's own loader before any work starts."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tohit.core.errors import InputError, short_repr
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.scenario import from_dict
from tohit.sweeps.limits import MAX_POINTS as MAX_POINTS
from tohit.sweeps.limits import MAX_POINTS_LIMIT as MAX_POINTS_LIMIT
from tohit.sweeps.measure import attack_measures, fight_measures
from tohit.sweeps.spec import Name, Step, Value, Vary, path_text

Kind = Literal["attack", "fight"]


def kind_of(document: dict[str, Any]) -> Kind:
    """A fight file has `sides`; a scenario file (one attack on its targets) does not."""
    return "fight" if "sides" in document else "attack"


@dataclass(frozen=True)
class Point:
    """One point of the grid: its index (row-major, the first --vary outermost) and its value of each --vary."""

    index: int
    values: tuple[Value, ...]


@dataclass(frozen=True)
class Grid:
    """The base document, what varies, and how many points that makes."""

    document: dict[str, Any]
    source: str
    varies: tuple[Vary, ...]
    kind: Kind
    #: A file axis: each file's name and document (the first is `document`), and the varies resolved in each.
    files: tuple[tuple[str, dict[str, Any]], ...] = ()
    per_file: tuple[tuple[Vary, ...], ...] = ()

    @property
    def size(self) -> int:
        return math.prod(len(v.values) for v in self.varies)

    @property
    def columns(self) -> list[str]:
        return [v.text for v in self.varies]

    def points(self) -> Iterator[Point]:
        for i, values in enumerate(itertools.product(*(v.values for v in self.varies))):
            yield Point(i, values)

    def point(self, index: int) -> Point:
        """The point at `index` (row-major, as `points` counts them)."""
        ks = self.indexes(index)
        return Point(index, tuple(vary.values[k] for vary, k in zip(self.varies, ks, strict=True)))

    def label(self, point: Point) -> str:
        """`point 3 (targets[0].evasion=2, attacker.accuracy=1)`, for messages."""
        pairs = ", ".join(f"{v.text}={short_repr(x)}" for v, x in zip(self.varies, point.values, strict=True))
        return f"point {point.index} ({pairs})"

    def indexes(self, index: int) -> tuple[int, ...]:
        """Where point `index` stands on each axis (row-major, as `points` counts them)."""
        out: list[int] = []
        rest = index
        for vary in reversed(self.varies):
            rest, k = divmod(rest, len(vary.values))
            out.append(k)
        return tuple(reversed(out))

    def source_at(self, point: Point) -> str:
        """The file this point is a copy of (one of several files on a file axis)."""
        return self.files[self.indexes(point.index)[0]][0] if self.files else self.source

    def document_at(self, point: Point) -> dict[str, Any]:
        """The file with this point's values set (fields first, then the counts of combatants); on a file axis,
        that point's file, its paths resolved against it."""
        ks = self.indexes(point.index)
        varies, base = self.varies, self.document
        if self.files:
            varies, base = (self.varies[0], *self.per_file[ks[0]]), self.files[ks[0]][1]
        doc = copy.deepcopy(base)
        # A part without a path sets nothing: the file axis (its file is the base) or an axis of the other side.
        pairs = [pair for vary, k in zip(varies, ks, strict=True) for pair in vary.settings(k) if pair[0].steps]
        for vary, value in pairs:
            if not vary.count:
                parent = _walk(doc, vary.steps[:-1], vary)
                parent[vary.steps[-1]] = value
        counts = [(vary, value) for vary, value in pairs if vary.count]
        # Deepest and last first, so that a count never shifts the index of another path still to apply.
        for vary, value in sorted(counts, key=lambda pair: pair[0].steps, reverse=True):
            assert isinstance(value, int)
            _copies(doc, vary, value)
        return doc


#: The column of a file axis (`tohit sweep A.yaml B.yaml`): each value names one of the files.
FILE_AXIS = "file"


def file_names(paths: list[str]) -> tuple[str, ...]:
    """Each file by its name (`sword.yaml`), or by its path as given where two share a name."""
    names = [Path(p).name for p in paths]
    return tuple(name if names.count(name) == 1 else path for name, path in zip(names, paths, strict=True))


def make_grid(
    document: dict[str, Any],
    source: str,
    varies: list[Vary],
    *,
    max_points: int = MAX_POINTS,
    files: list[tuple[str, dict[str, Any]]] | None = None,
) -> Grid:
    """The grid, once every path is known to lead somewhere in the file (names resolved to indexes; the columns
    keep the paths as written) and the points are within the cap. With `files` (several files of one kind: a
    file axis, outermost, named by file), every path must lead somewhere in each of them."""
    per_file: tuple[tuple[Vary, ...], ...] = ()
    if files:
        kinds = {path: kind_of(doc) for path, doc in files}
        if len(set(kinds.values())) != 1:
            fights = [path for path, kind in kinds.items() if kind == "fight"]
            raise InputError(f"a file axis is of fights or of attacks, not both ({fights[0]} is a fight)", field="FILE")
        per_file = tuple(tuple(_resolved(doc, varies)) for _, doc in files)
        axis = Vary(FILE_AXIS, (), file_names([path for path, _ in files]))
        document, varies = files[0][1], [axis, *varies]
    else:
        varies = _resolved(document, varies)
    grid = Grid(document, source, tuple(varies), kind_of(document), tuple(files or ()), per_file)
    if grid.size > max_points:
        sizes = " x ".join(f"{len(v.values):,}" for v in varies)
        raise InputError(
            f"{grid.size:,} points ({sizes}) is more than the cap of {max_points:,}; "
            f"raise it with --max-points (at most {MAX_POINTS_LIMIT:,}) or vary fewer values",
            field="--vary",
        )
    return grid


def _resolved(document: dict[str, Any], varies: list[Vary]) -> list[Vary]:
    """Each axis with its fields resolved against the file and checked there."""
    out = []
    for vary in varies:
        parts = tuple(resolve(document, part) for part in vary.fields)
        for part in (part for part in parts if part.steps):
            check_path(document, part)
        out.append(dataclasses.replace(vary, zipped=parts) if vary.zipped else parts[0])
    return out


def resolve(document: dict[str, Any], vary: Vary) -> Vary:
    """The path with each list item named by its `name` (`sides[Bandits]`) replaced by its index in the file, and
    `count:<name>` by the path to the one combatant of that name (a name that is missing or taken twice is an
    unknown path, naming the names there are)."""
    if not any(isinstance(step, Name) for step in vary.steps):
        return vary
    if vary.count and len(vary.steps) == 1:
        wanted = str(vary.steps[0])
        found: list[tuple[Step, ...]] = []
        names: list[str] = []
        for s, side in enumerate(document.get("sides") or []):
            for c, combatant in enumerate((side.get("combatants") or []) if isinstance(side, dict) else []):
                name = combatant.get("name") if isinstance(combatant, dict) else None
                names.append(str(name))
                if name == wanted:
                    found.append(("sides", s, "combatants", c))
        if len(found) != 1:
            how = "no combatant" if not found else f"{len(found)} combatants"
            raise _unknown(vary, f"{how} named {short_repr(wanted)} (the combatants: {', '.join(names) or 'none'})")
        return Vary(vary.text, found[0], vary.values, vary.count)
    steps: list[Step] = []
    node: Any = document
    for step in vary.steps:
        if isinstance(step, Name):
            here = path_text(tuple(steps)) or "the file"
            if not isinstance(node, list):
                raise _unknown(vary, f"{here} is not a list")
            names = [str(item.get("name")) for item in node if isinstance(item, dict)]
            matches = [i for i, item in enumerate(node) if isinstance(item, dict) and item.get("name") == step.text]
            if len(matches) != 1:
                how = "no item" if not matches else f"{len(matches)} items"
                raise _unknown(
                    vary, f"{here} has {how} named {short_repr(step.text)} (it has: {', '.join(names) or 'none'})"
                )
            step = matches[0]
        steps.append(step)
        if isinstance(node, dict) and isinstance(step, str):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            node = None
    return Vary(vary.text, tuple(steps), vary.values, vary.count)


def check_path(document: dict[str, Any], vary: Vary) -> None:
    """Every step but the last must exist in the file; a count's combatant must exist too. (A last key that the
    file leaves out may be one of the model's optional fields: the model judges it.)"""
    steps = vary.steps if vary.count else vary.steps[:-1]
    node = _walk(document, steps, vary)
    if vary.count:
        if not isinstance(node, dict):
            raise _unknown(vary, f"{vary.where} is not a combatant")
        return
    last = vary.steps[-1]
    if isinstance(last, int):
        if not isinstance(node, list) or last >= len(node):
            raise _unknown(vary, f"{path_text(vary.steps[:-1])} has no item [{last}]")
    elif not isinstance(node, dict):
        raise _unknown(vary, f"{path_text(vary.steps[:-1])} holds no fields")


def _unknown(vary: Vary, why: str) -> InputError:
    return InputError(f"unknown path {short_repr(vary.text)}: {why}", field="--vary")


def _walk(document: Any, steps: tuple[Step, ...], vary: Vary) -> Any:
    node = document
    for i, step in enumerate(steps):
        here = path_text(steps[:i]) or "the file"
        if isinstance(step, Name):
            raise _unknown(vary, f"{here}: {step} is not resolved")  # pragma: no cover - resolve runs first
        if isinstance(step, int):
            if not isinstance(node, list):
                raise _unknown(vary, f"{here} is not a list")
            if step >= len(node):
                raise _unknown(vary, f"{here} has {len(node)} item{'s' if len(node) != 1 else ''}, no [{step}]")
        else:
            if not isinstance(node, dict):
                raise _unknown(vary, f"{here} holds no fields")
            if step not in node:
                known = ", ".join(str(k) for k in node) or "none"
                raise _unknown(vary, f"{here} has no field {short_repr(step)} (it has: {known})")
        node = node[step]
    return node


def _copies(doc: dict[str, Any], vary: Vary, count: int) -> None:
    """Replace the combatant at the path by `count` copies: the first keeps its name, the others are
    `<name> 2`, `<name> 3`... (0 copies: it is left out)."""
    parent = _walk(doc, vary.steps[:-1], vary)
    index = vary.steps[-1]
    assert isinstance(index, int)
    original = parent[index]
    name = str(original.get("name", "combatant"))
    made = []
    for k in range(count):
        twin = copy.deepcopy(original)
        if k:
            twin["name"] = f"{name} {k + 1}"
        made.append(twin)
    parent[index : index + 1] = made


def check_point(grid: Grid, point: Point, *, exact: bool = False) -> list[str]:
    """Load the point as the game's loader does and return its measures (the columns its rows will have); a
    value it refuses is an InputError naming the point (and an unknown field at a varied path is an unknown
    path)."""
    doc = grid.document_at(point)
    source = grid.source_at(point)
    try:
        if grid.kind == "fight":
            loaded = fight_from_dict(doc, source=source)
            if exact and loaded.roster.size != 2:
                raise InputError(
                    f"--exact is for a duel of two combatants; this point has {loaded.roster.size} (simulate with -n)",
                    field="--exact",
                )
            return fight_measures(loaded.roster.side_names, loaded.roster.names, exact=exact)
        return attack_measures(from_dict(doc, source=source).system.fields)
    except InputError as exc:
        for vary in (part for axis in grid.varies for part in axis.fields):
            if exc.field == vary.text and exc.message.startswith("unknown field"):
                raise InputError(f"unknown path {short_repr(vary.text)}: {exc.message}", field="--vary") from None
        where = f"{exc.field}: " if exc.field else ""
        at = f"{grid.label(point)}: " if grid.varies else ""  # a file compared as it is: no point to name
        raise InputError(f"{at}{where}{exc.message}", source=source) from None


def check_points(grid: Grid, points: list[Point], *, exact: bool = False) -> list[str]:
    """Every point, before any work starts; the measures of them all, in the order they first appear."""
    measures: dict[str, None] = {}
    for point in points:
        measures.update(dict.fromkeys(check_point(grid, point, exact=exact)))
    return list(measures)
