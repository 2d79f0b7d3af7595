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
from tohit.core.loader import read_document
from tohit.engine.fight.context import Method
from tohit.engine.seeds import fresh_seed
from tohit.sweeps.execute import Executor, runner
from tohit.sweeps.grid import MAX_POINTS, Grid, check_points, make_grid
from tohit.sweeps.limits import DEFAULT_FIGHTS as DEFAULT_FIGHTS
from tohit.sweeps.limits import MAX_SEED as MAX_SEED
from tohit.sweeps.measure import POINT, Task
from tohit.sweeps.spec import parse_varies
from tohit.sweeps.table import Table, check_out, column_in, read_done

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

    @property
    def todo(self) -> int:
        return self.grid.size - len(self.done)

    def task(self, index: int) -> Task:
        point = self.grid.point(index)
        return Task(
            index,
            self.grid.document_at(point),
            self.grid.source,
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
    source: str | Path | dict[str, Any],
    vary: Sequence[str] | dict[str, str],
    *,
    n: int | None = None,
    seed: int | None = None,
    exact: bool = False,
    method: Method = "table",
    depth: int | None = None,
    out: Path | None = None,
    resume: bool = False,
    max_points: int = MAX_POINTS,
) -> Sweep:
    """Parse and check everything (paths, values, the cap, every point through the game's loader, the output)
    before any work starts; every problem is one InputError."""
    texts = [f"{path}={spec}" for path, spec in vary.items()] if isinstance(vary, dict) else list(vary)
    if isinstance(source, dict):
        document, name = source, "<sweep>"
    else:
        document, name = read_document(source), str(source)
    varies = parse_varies(texts)
    grid = make_grid(document, name, varies, max_points=max_points)
    if exact and grid.kind == "attack":
        raise InputError("an attack's points are always exact odds; --exact is for fight files", field="--exact")
    if out is not None:
        check_out(out)
    if resume and out is None:
        raise InputError("--resume finishes the table given by --out: give --out", field="--resume")
    if resume and out is not None:  # what the table was run with, unless given
        seed = column_in(out, "seed") if seed is None else seed
        n = column_in(out, "n") if n is None else n
    if n is None:
        n = DEFAULT_FIGHTS
    if seed is None:
        seed = document.get("seed") if isinstance(document.get("seed"), int) else None
    if seed is None:
        seed = fresh_seed()
    if isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise InputError(f"must be a whole number from 0 to {MAX_SEED:,}", field="seed")
    simulated = grid.kind == "fight" and not exact
    done = read_done(out, grid, seed if simulated else None, n if simulated else None) if resume and out else {}
    sweep = Sweep(grid, n, seed, exact, method, depth, out, done)
    check_points(grid, [grid.point(i) for i in range(grid.size) if i not in done], exact=exact)
    return sweep


def run(
    sweep: Sweep,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    executor: Executor = "dask",
    progress: Progress | None = None,
) -> Table:
    """Run the points not yet done; each finished point goes to the table (and its file) as it completes. The
    table is written once more whatever ends the run (an error, Ctrl-C, SIGTERM), so no finished point is lost."""
    table = Table(sweep.out)
    for index, rows in sweep.done.items():
        table.rows[index] = rows
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
