"""What produced a sweep's table: the input's SHA-256, the settings (`--vary`, `--measure`,
`-n`, `--seed`, `--exact`, `--method`, the depth) and the engine's version, recorded with the table: in Parquet
as the key-value metadata key `tohit` (JSON), beside a CSV in the sidecar `OUT.meta.json`, in the DataFrame as
`df.attrs["tohit"]`. `--resume` compares it with the sweep asked for and refuses, in one line naming what
changed, when any of it differs; the one change it allows is a --vary of the same paths whose points already in
the table keep their places and values (a range grown at its end), which `table.read_done` checks point by point.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError, short_repr

#: The metadata key (Parquet) and the attrs key (DataFrame).
KEY = "tohit"
#: What the sidecar of `results.csv` is called: `results.csv.meta.json`.
SIDECAR = ".meta.json"


def sha256_of(source: str | Path | dict[str, Any]) -> str:
    """The input's SHA-256: of the file's bytes, or of a mapping as canonical JSON (sorted keys)."""
    if isinstance(source, dict):
        data = json.dumps(source, sort_keys=True, separators=(",", ":"), default=str).encode()
    else:
        data = Path(source).read_bytes()
    return hashlib.sha256(data).hexdigest()


def record(
    *,
    source: str,
    sha256: str,
    vary: list[str],
    measure: str | None,
    n: int | None,
    seed: int | None,
    exact: bool,
    method: str | None,
    depth: int | None,
) -> dict[str, Any]:
    """The provenance of one sweep as plain JSON data (`n`, `seed` and `method` are null where no dice are
    rolled: an attack's points and exact fights)."""
    version = sys.modules["tohit"].__version__  # the package above this one (importing it would be a circle)
    return {
        "engine": f"tohit {version}",
        "input": source,
        "input_sha256": sha256,
        "vary": list(vary),
        "measure": measure,
        "n": n,
        "seed": None if seed is None else str(seed),
        "exact": exact,
        "method": method,
        "depth": depth,
    }


def sidecar(path: Path) -> Path:
    """`results.csv` -> `results.csv.meta.json`."""
    return path.with_name(path.name + SIDECAR)


def read(path: Path) -> dict[str, Any]:
    """The provenance recorded with the table at `path` (an InputError on `--resume` when there is none)."""
    text: str | None = None
    where = ""
    try:
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq

            metadata = pq.read_schema(path).metadata or {}
            raw = metadata.get(KEY.encode())
            text = None if raw is None else raw.decode()
            where = "no `tohit` key in its Parquet metadata"
        else:
            meta = sidecar(path)
            text = meta.read_text(encoding="utf-8") if meta.exists() else None
            where = f"no {meta.name} beside it"
        data = None if text is None else json.loads(text)
    except Exception as exc:  # pyarrow and json raise many kinds
        raise InputError(f"cannot read what made {path} ({type(exc).__name__}: {exc})", field="--resume") from None
    if not isinstance(data, dict):
        raise InputError(
            f"{path} records nothing of what made it ({where}): run the sweep afresh to another --out",
            field="--resume",
        )
    return data


def check_same(path: Path, then: dict[str, Any], now: dict[str, Any]) -> None:
    """Refuse to resume, naming the first thing that changed between the table's run (`then`) and this one."""
    if then.get("engine") != now["engine"]:
        raise InputError(
            f"{path} was made by {then.get('engine')}, this is {now['engine']}: run the sweep afresh",
            field="--resume",
        )
    if then.get("input_sha256") != now["input_sha256"]:
        before, after = str(then.get("input_sha256"))[:12], now["input_sha256"][:12]
        what = (
            f"{now['input']} has changed since"
            if then.get("input") == now["input"]
            else f"{now['input']} is not the file {then.get('input')} was when"
        )
        raise InputError(
            f"{what} {path} was made (SHA-256 {before}... then, {after}... now): run the sweep afresh",
            field="--resume",
        )
    if [v.partition("=")[0] for v in then.get("vary", [])] != [v.partition("=")[0] for v in now["vary"]]:
        raise InputError(
            f"{path} was run with --vary {' '.join(then.get('vary', []))}, not {' '.join(now['vary'])}",
            field="--resume",
        )
    for key, option in (("exact", "--exact"), ("method", "--method"), ("depth", "--depth")):
        if then.get(key) != now[key]:
            raise InputError(
                f"{path} was run with {option} {short_repr(then.get(key))}, not {short_repr(now[key])}",
                field="--resume",
            )
    for key, option in (("seed", "--seed"), ("n", "-n"), ("measure", "--measure")):
        if then.get(key) != now[key]:
            raise InputError(
                f"{path} was run with {option} {then.get(key)}, not {now[key]} (leave {option} out to resume it)",
                field="--resume",
            )
