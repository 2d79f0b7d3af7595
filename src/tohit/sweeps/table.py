"""The sweep's tidy table: one row per point (per target, for an attack on several), one column per varied
field (named by its PATH as written) and per measure; written as CSV or Parquet, whole each time (a temporary
file renamed over the output), so an interrupted sweep leaves a complete table of the points finished.
`--resume` reads it back and keeps those points."""

from __future__ import annotations

import json
import math
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.sweeps.grid import Grid
from tohit.sweeps.measure import POINT
from tohit.sweeps.provenance import KEY, PANDAS_ATTRS, sidecar

SUFFIXES = (".csv", ".parquet")
#: Seconds between two writes of the output while points complete (the last write is always made).
WRITE_EVERY = 0.5


def check_out(path: Path) -> None:
    if path.suffix.lower() not in SUFFIXES:
        raise InputError(f"the table is written as .csv or .parquet, not {short_repr(path.name)}", field="--out")


def frame(rows: list[dict[str, Any]]) -> Any:
    """Rows as a pandas DataFrame, in point order."""
    import pandas as pd

    return pd.DataFrame(rows)


class Table:
    """The rows of the points finished so far, by point index, and the file they are written to."""

    def __init__(self, path: Path | None, made_by: dict[str, Any] | None = None) -> None:
        self.path = path
        #: What produced the table (sweeps/provenance.py): written with it, and `df.attrs["tohit"]`.
        self.made_by = made_by or {}
        self.rows: dict[int, list[dict[str, Any]]] = {}
        self.exact: dict[int, list[dict[str, Any]]] = {}
        self.written = 0.0
        self.dirty = False
        #: The points the file held after the last write that finished (a write cut short by a signal leaves the
        #: file as it was): what a stopped run reports as written.
        self.on_file: set[int] = set()

    def add(self, index: int, rows: list[dict[str, Any]], exact: list[dict[str, Any]] | None = None) -> None:
        self.rows[index] = rows
        if exact is not None:
            self.exact[index] = exact
        self.dirty = True
        if time.monotonic() - self.written >= WRITE_EVERY:
            self.write()

    def ordered(self) -> list[dict[str, Any]]:
        return [row for i in sorted(self.rows) for row in self.rows[i]]

    def frame(self, fractions: bool = False) -> Any:
        """The rows as a DataFrame with what made them in `attrs`; with `fractions`, each exact measure `m` has
        beside it `m_fraction`, its exact value as a Fraction (a fraction too long to write: its 20 significant
        digits; None in the rows of points a `--resume` read back from the file, which keeps floats)."""
        data = frame(self.with_fractions() if fractions else self.ordered())
        if self.made_by:
            data.attrs[KEY] = self.made_by
        return data

    def with_fractions(self) -> list[dict[str, Any]]:
        out = []
        for i in sorted(self.rows):
            exact = self.exact.get(i, [])
            for k, row in enumerate(self.rows[i]):
                texts = exact[k] if k < len(exact) else {}
                fractions = {m: Fraction(str(text).split()[0]) for m, text in texts.items()}
                out.append({key: v for m, value in row.items() for key, v in _beside(m, value, fractions)})
        return out

    def write(self) -> None:
        """The whole table to the file (a temporary file renamed over it), when anything changed."""
        if self.path is None or not self.dirty:
            return
        from tohit.cli.output import write_file

        data = frame(self.ordered())
        path = self.path
        meta = json.dumps(self.made_by, sort_keys=True)
        if path.suffix.lower() == ".parquet":
            write_file(path, lambda temporary: _parquet(data, meta, temporary), field="--out")
        else:  # the sidecar first: a table on disk always has the record of what made it
            write_file(sidecar(path), lambda temporary: _text(temporary, meta), field="--out")
            write_file(path, lambda temporary: data.to_csv(temporary, index=False), field="--out")
        self.written = time.monotonic()
        self.dirty = False
        self.on_file = set(self.rows)


def _beside(column: str, value: Any, fractions: dict[str, Fraction]) -> list[tuple[str, Any]]:
    """A row's column, and after an exact measure its `_fraction` column."""
    if column in fractions:
        return [(column, value), (f"{column}_fraction", fractions[column])]
    return [(column, value)]


def _text(path: Path, text: str) -> None:
    path.write_text(text + "\n", encoding="utf-8")


def _parquet(data: Any, meta: str, path: Path) -> None:
    """The table as Parquet, with what made it as the key-value metadata `tohit` (JSON), and as the DataFrame's
    `attrs["tohit"]` where pandas keeps attrs (`PANDAS_ATTRS`), which `pd.read_parquet` restores."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrow = pa.Table.from_pandas(data, preserve_index=False)
    attrs = f'{{"{KEY}": {meta}}}'
    kept = {KEY.encode(): meta.encode(), PANDAS_ATTRS.encode(): attrs.encode()}
    arrow = arrow.replace_schema_metadata({**(arrow.schema.metadata or {}), **kept})
    pq.write_table(arrow, path)


def _same(a: Any, b: Any) -> bool:
    """A varied value as this sweep sets it and as the file read it back (CSV may turn 2 into 2.0)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return str(a).lower() == str(b).lower()
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-12)
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


def read_done(path: Path, grid: Grid, seed: int | None, n: int | None = None) -> dict[int, list[dict[str, Any]]]:
    """The points an earlier run of this sweep wrote to `path`, by index (nothing when there is no file yet);
    a table from another sweep (other fields, values, seed or fights per point) is refused rather than mixed in."""
    if not path.exists():
        return {}
    import pandas as pd

    try:
        data = pd.read_parquet(path) if path.suffix.lower() == ".parquet" else pd.read_csv(path)
    except Exception as exc:  # pandas and pyarrow raise many kinds
        raise InputError(f"cannot read {path} to resume it ({type(exc).__name__}: {exc})", field="--resume") from None
    missing = [c for c in (POINT, *grid.columns) if c not in data.columns]
    if missing:
        raise InputError(
            f"{path} is not a table of this sweep: it has no column {', '.join(missing)}", field="--resume"
        )
    done: dict[int, list[dict[str, Any]]] = {}
    for record in data.to_dict("records"):
        clean = {k: (None if isinstance(v, float) and math.isnan(v) else _plain(v)) for k, v in record.items()}
        index = int(clean[POINT] or 0)
        if not 0 <= index < grid.size:
            raise InputError(f"{path}: point {index} is not a point of this sweep", field="--resume")
        point = grid.point(index)
        for column, value in zip(grid.columns, point.values, strict=True):
            if not _same(value, clean[column]):
                raise InputError(
                    f"{path}: point {index} has {column}={short_repr(clean[column])}, this sweep sets "
                    f"{short_repr(value)}: not a table of this sweep",
                    field="--resume",
                )
        if seed is not None and "seed" in clean and clean["seed"] is not None and int(clean["seed"]) != seed:
            raise InputError(
                f"{path} was run with --seed {clean['seed']}, not {seed} (leave --seed out to resume it)",
                field="--resume",
            )
        if n is not None and "n" in clean and clean["n"] is not None and int(clean["n"]) != n:
            raise InputError(
                f"{path} was run with -n {clean['n']}, not {n} (leave -n out to resume it)", field="--resume"
            )
        done.setdefault(index, []).append(clean)
    return done


def _plain(value: Any) -> Any:
    """numpy scalars from pandas as Python values."""
    item = getattr(value, "item", None)
    return item() if callable(item) else value
