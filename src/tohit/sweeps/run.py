"""A whole sweep: the grid checked, the points not yet in the output run where the options say, each finished
point written as it completes, the table returned as a pandas DataFrame.

Determinism: a fight point's seed is the point's child of `SeedSequence(seed)` (its index in the grid,
`measure.point_seed`), and each point runs on its own; so the table is the same for any worker count, in any
order of completion, and on a cluster as here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError
from tohit.engine.fight.modes import Method
from tohit.engine.seeds import fresh_seed
from tohit.sweeps import provenance
from tohit.sweeps.execute import Executor, runner
from tohit.sweeps.grid import MAX_POINTS, Grid, check_points, make_grid
from tohit.sweeps.limits import DEFAULT_FIGHTS as DEFAULT_FIGHTS
from tohit.sweeps.limits import MAX_SEED as MAX_SEED
from tohit.sweeps.measure import POINT, Task
from tohit.sweeps.spec import parse_varies
from tohit.sweeps.table import Table, check_out, read_done

Progress = Callable[[int], None]


@dataclass
class Sweep:
    """What to sweep and how: built by `plan`, run by `run`."""

    grid: Grid
    n: int = DEFAULT_FIGHTS
    seed: int = 0
    exact: bool = False
    method: Method = "table"
    depth: int | None = None
    out: Path | None = None
    done: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    #: The measure asked for (`--measure`), checked against `measures`; and every measure the rows will have.
    measure: str | None = None
    measures: list[str] = field(default_factory=list)
    #: What produced the table (`provenance.record`), written with it.
    made_by: dict[str, Any] = field(default_factory=dict)

    @property
    def simulated(self) -> bool:
        """Whether the points roll dice (a fight not solved exactly)."""
        return self.grid.kind == "fight" and not self.exact

    @property
    def todo(self) -> int:
        return self.grid.size - len(self.done)

    def task(self, index: int) -> Task:
        point = self.grid.point(index)
        return Task(
            index,
            self.grid.document_at(point),
            self.grid.source_at(point),
            self.grid.kind,
            self.n,
            self.seed,
            self.exact,
            self.method,
            self.depth,
        )

    def row_head(self, index: int) -> dict[str, Any]:
        """The columns a row starts with: the point, its varied values, and for a simulation its seed and n."""
        head: dict[str, Any] = {POINT: index}
        head.update(zip(self.grid.columns, self.grid.point(index).values, strict=True))
        if self.grid.kind == "fight" and not self.exact:
            # A seed past 64 bits is written as text (a Parquet column of whole numbers holds 64), as `point_seed` is.
            head.update(seed=self.seed if self.seed < 2**63 else str(self.seed), n=self.n)
        return head


def plan(
    source: str | Path | dict[str, Any] | provenance.Input | Sequence[str | Path],
    vary: Sequence[str] | dict[str, str],
    *,
    zips: Sequence[str] = (),
    n: int | None = None,
    seed: int | None = None,
    exact: bool = False,
    method: Method = "table",
    depth: int | None = None,
    out: Path | None = None,
    resume: bool = False,
    max_points: int = MAX_POINTS,
    measure: str | None = None,
) -> Sweep:
    """Parse and check everything (paths, values, the cap, every point through the game's loader, the measure,
    the output and what made a table to resume) before any work starts; every problem is one InputError."""
    texts = [f"{path}={spec}" for path, spec in vary.items()] if isinstance(vary, dict) else list(vary)
    files = None
    if isinstance(source, (str, Path, dict, provenance.Input)) or len(source) == 1:
        given = provenance.read_input(source if isinstance(source, (str, Path, dict, provenance.Input)) else source[0])
    else:
        inputs = [provenance.read_input(path) for path in source]
        files = [(one.name, one.document) for one in inputs]
        given = provenance.several(inputs)
    document, name = (given.document, given.name) if files is None else (files[0][1], given.name)
    varies = parse_varies(texts, list(zips)) if texts or zips or files is None else []  # files alone: an axis
    grid = make_grid(document, name, varies, max_points=max_points, files=files)
    if exact and grid.kind == "attack":
        raise InputError("an attack's points are always exact odds; --exact is for fight files", field="--exact")
    if out is not None:
        check_out(out)
    if resume and out is None:
        raise InputError("--resume finishes the table given by --out: give --out", field="--resume")
    then: dict[str, Any] | None = None
    if resume and out is not None and out.exists():  # what the table was run with, unless given
        then = provenance.read(out)
        if seed is None and then.get("seed") is not None:
            seed = int(then["seed"])
        if n is None and then.get("n") is not None:
            n = int(then["n"])
        if measure is None:
            measure = then.get("measure")
    if n is None:
        n = DEFAULT_FIGHTS
    if seed is None:
        seed = document.get("seed") if isinstance(document.get("seed"), int) else None
    if seed is None:
        seed = fresh_seed()
    if isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise InputError(f"must be a whole number from 0 to {MAX_SEED:,}", field="seed")
    simulated = grid.kind == "fight" and not exact
    made_by = provenance.record(
        given,
        vary=[*texts, *(f"--zip {z}" for z in zips)],
        measure=measure,
        n=n if simulated else None,
        seed=seed if simulated else None,
        exact=not simulated,
        method=method if simulated else None,
        depth=depth,
    )
    done = read_done(out, grid, seed if simulated else None, n if simulated else None) if resume and out else {}
    if then is not None and out is not None:
        provenance.check_same(out, then, made_by)
    measures = check_points(grid, [grid.point(i) for i in range(grid.size) if i not in done], exact=exact)
    for rows in done.values():
        for row in rows:
            measures.extend(k for k in row if k not in measures and k not in _NOT_MEASURES and k not in grid.columns)
    if measure is not None and measure not in measures:
        shown = ", ".join(m for m in measures if not m.endswith(("_lo", "_hi")))
        raise InputError(f"no measure {measure!r} in this sweep; its measures: {shown}", field="--measure")
    return Sweep(grid, n, seed, exact, method, depth, out, done, measure, measures, made_by)


#: Columns of a row that are not measures.
_NOT_MEASURES = (POINT, "seed", "n", "point_seed", "target", "method")


def run(
    sweep: Sweep,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    executor: Executor = "dask",
    progress: Progress | None = None,
    table: Table | None = None,
) -> Table:
    """Run the points not yet done; each finished point goes to the table (and its file) as it completes. The
    table is written once more whatever ends the run (an error, Ctrl-C, SIGTERM), so no finished point is lost.
    A caller that gives `table` (empty, for `sweep.out`) reads from it after an interruption which points the file
    holds: `progress` is called after a point is in the table, and a signal may come between the two."""
    if table is None:
        table = Table(sweep.out, sweep.made_by)
    for index, rows in sweep.done.items():  # read back from the file (`--resume`): on it already
        table.rows[index] = rows
    table.on_file.update(sweep.done)
    tasks = [sweep.task(i) for i in range(sweep.grid.size) if i not in sweep.done]
    try:
        if tasks:
            with runner(workers=workers, scheduler=scheduler, client=client, executor=executor) as run_tasks:
                for task, measured in run_tasks(tasks):
                    head = sweep.row_head(task.index)
                    exact = [row.pop("exact", {}) for row in measured]
                    table.add(task.index, [{**head, **row} for row in measured], exact)
                    if progress:
                        progress(1)
    finally:
        if table.rows:
            table.write()
    return table
