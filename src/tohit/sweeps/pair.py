"""Two builds along one axis, for `compare A B --vary ...` and `solve A --against B`: each `--vary` (and
`--zip`) applies to both files unless it names one (`A:attacker.accuracy=0..6`, `B:count:Goblin=1..4`), and
several B files (`compare A B1 B2`) are an axis named by file that applies to B alone. Both sides are grids of
the same axes, point for point: a side a field does not apply to keeps its file's value there, so point i of A
and point i of B stand at the same place on the axis, and a simulated point i runs both on the same seed
(common random numbers, `sweeps/paired.py`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tohit.core.errors import InputError
from tohit.core.loader import read_document
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.modes import Method
from tohit.engine.scenario import from_dict
from tohit.engine.seeds import fresh_seed
from tohit.sweeps.grid import FILE_AXIS, MAX_POINTS, Grid, check_points, file_names, kind_of, make_grid
from tohit.sweeps.limits import DEFAULT_FIGHTS
from tohit.sweeps.measure import Task
from tohit.sweeps.run import Sweep
from tohit.sweeps.spec import Vary, parse_varies

#: The prefixes that make a `--vary` apply to one side only.
SIDES = ("A:", "B:")


@dataclass(frozen=True)
class Pair:
    """A's sweep and B's, of the same axes and settings (n, seed, exact, method), point for point."""

    a: Sweep
    b: Sweep

    @property
    def kind(self) -> str:
        return self.a.grid.kind

    @property
    def simulated(self) -> bool:
        return self.a.simulated

    @property
    def n(self) -> int:
        return self.a.n

    @property
    def seed(self) -> int:
        return self.a.seed

    @property
    def axis(self) -> Grid:
        """The grid whose columns and values name the points (B's: it holds a file axis of B files)."""
        return self.b.grid

    def tasks(self, index: int, n: int | None = None) -> tuple[Task, Task]:
        """Point `index` of A and of B: one seed for both (`n` fights each, else the pair's)."""
        a, b = self.a.task(index), self.b.task(index)
        return (a, b) if n is None else (dataclasses.replace(a, n=n), dataclasses.replace(b, n=n))


def _inert(vary: Vary) -> Vary:
    """The axis as a side it does not apply to has it: the same column and values, setting nothing."""
    return Vary(vary.text, (), vary.values)


def _sides(texts: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """The `--vary` texts without their side prefix, and which apply to A and which to B (by their text)."""
    plain, to_a, to_b = [], [], []
    for text in texts:
        side = next((s for s in SIDES if text.strip().startswith(s)), None)
        bare = text.strip()[2:] if side else text
        plain.append(bare)
        if side != "B:":
            to_a.append(bare.partition("=")[0].strip())
        if side != "A:":
            to_b.append(bare.partition("=")[0].strip())
    return plain, to_a, to_b


def plan_pair(
    a: str | Path,
    b: str | Path | Sequence[str | Path],
    vary: Sequence[str] = (),
    *,
    zips: Sequence[str] = (),
    n: int | None = None,
    seed: int | None = None,
    exact: bool = False,
    method: Method = "table",
    depth: int | None = None,
    systems_differ: bool = False,
    max_points: int = MAX_POINTS,
) -> Pair:
    """Both sides parsed and every point of each checked by its game's loader before any work; every problem is
    one InputError. Files of two games are refused unless `systems_differ` (their measures would be paired by
    position)."""
    bs = [b] if isinstance(b, (str, Path)) else list(b)
    doc_a = read_document(a)
    docs_b = [(str(path), read_document(path)) for path in bs]
    if len({kind_of(doc) for doc in [doc_a, *(doc for _, doc in docs_b)]}) != 1:
        raise InputError("compare two attacks (scenario files) or two fights, not one of each", field="B")
    plain, to_a, to_b = _sides(vary)
    varies = parse_varies(plain, list(zips)) if plain or zips else []
    side_a = [v if v.zipped or v.text in to_a else _inert(v) for v in varies]
    side_b = [v if v.zipped or v.text in to_b else _inert(v) for v in varies]
    if len(docs_b) > 1:
        side_a = [Vary(FILE_AXIS, (), file_names([p for p, _ in docs_b])), *side_a]
    grid_a = make_grid(doc_a, str(a), side_a, max_points=max_points)
    files = docs_b if len(docs_b) > 1 else None
    grid_b = make_grid(docs_b[0][1], docs_b[0][0], side_b, max_points=max_points, files=files)
    _check_games(grid_a, grid_b, exact, systems_differ)
    measures = [check_points(grid, [grid.point(i) for i in range(grid.size)], exact=exact) for grid in (grid_a, grid_b)]
    if seed is None:
        given = doc_a.get("seed")
        seed = given if isinstance(given, int) and not isinstance(given, bool) else fresh_seed()
    settings = (n or DEFAULT_FIGHTS, seed, exact, method, depth)
    sweeps = [Sweep(grid, *settings, measures=found) for grid, found in zip((grid_a, grid_b), measures, strict=True)]
    return Pair(*sweeps)


def _game(grid: Grid) -> str:
    load = fight_from_dict if grid.kind == "fight" else from_dict
    return str(load(grid.document, source=grid.source).system.id)


def _check_games(a: Grid, b: Grid, exact: bool, systems_differ: bool) -> None:
    """`--exact` for fights only; every file of one game unless `systems_differ`."""
    if exact and a.kind == "attack":
        raise InputError("an attack's odds are always exact; --exact is for fight files", field="--exact")
    games = [_game(a), *(_game(dataclasses.replace(b, document=doc, source=path)) for path, doc in b.files)]
    if not b.files:
        games.append(_game(b))
    other = next((g for g in games[1:] if g != games[0]), None)
    if other is not None and not systems_differ:
        raise InputError(
            f"A's game is {games[0]} and B's is {other}: two games' measures are paired by position"
            " (give --systems-differ to compare them all the same)",
            field="B",
        )
