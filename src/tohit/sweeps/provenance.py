"""What produced a sweep's table, enough to make it again: the input's text, the SHA-256 of its bytes and of its
parsed form (canonical JSON: a comment or a reflowed line changes the first, not the second), the settings
(`--vary`, `--measure`, `-n`, `--seed`, `--method`, the depth), `exact` (true where every row is exact: an
attack's points, or a fight's with `--exact`), the engine's version and, installed from a git checkout, its
commit, and numpy's and Python's versions. It is recorded with the table: in Parquet as the key-value metadata
key `tohit` (JSON, and under pandas' own key `PANDAS_ATTRS`, so `pd.read_parquet` shows it in `df.attrs`), beside
a CSV in the sidecar `OUT.meta.json`, in the DataFrame as `df.attrs["tohit"]`. `tohit sweep --remake TABLE`
runs the sweep again from this record alone.

`--resume` compares it with the sweep asked for and refuses, in one line naming what changed, when any of it
differs (the input by its parsed form; the engine by its version and commit); the one change it allows is a
--vary of the same paths whose points already in the table keep their places and values (a range grown at its
end), which `table.read_done` checks point by point.
"""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError, short_repr

#: The metadata key (Parquet) and the attrs key (DataFrame).
KEY = "tohit"
#: What the sidecar of `results.csv` is called: `results.csv.meta.json`.
SIDECAR = ".meta.json"


#: The metadata key under which pandas keeps a DataFrame's `attrs` in Parquet (`pd.read_parquet` restores them).
PANDAS_ATTRS = "PANDAS_ATTRS"


def canonical(document: dict[str, Any]) -> str:
    """A parsed input as canonical JSON (sorted keys, no spaces): what its hash is taken of."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)


def sha256_of(source: str | Path | dict[str, Any]) -> str:
    """The input's SHA-256: of the file's bytes, or of a mapping as canonical JSON (sorted keys)."""
    data = canonical(source).encode() if isinstance(source, dict) else Path(source).read_bytes()
    return hashlib.sha256(data).hexdigest()


def text_of(source: str | Path | dict[str, Any]) -> str:
    """The input's text as the table keeps it: the file's own text, or a mapping as JSON (indented)."""
    from tohit.core.loader import read_text

    if isinstance(source, dict):
        return json.dumps(source, sort_keys=True, indent=2, default=str)
    return read_text(source)


@functools.cache
def engine_commit() -> str | None:
    """The commit of the git checkout this engine is installed from (`pip install -e .`), else None."""
    root = Path(__file__).resolve().parents[3]  # src/tohit/sweeps/provenance.py -> the checkout
    if not (root / ".git").exists() or not (root / "pyproject.toml").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=False, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and len(commit) == 40 else None


def versions() -> dict[str, Any]:
    """The engine's version (and commit, from a checkout), numpy's and Python's."""
    import numpy

    version = sys.modules["tohit"].__version__  # the package above this one (importing it would be a circle)
    return {
        "engine": f"tohit {version}",
        "commit": engine_commit(),
        "numpy": numpy.__version__,
        "python": platform.python_version(),
    }


@dataclass(frozen=True)
class Input:
    """A sweep's input: its parsed document, its name (the file as given, `<sweep>` for a mapping), its text and
    the SHA-256 of its bytes."""

    document: dict[str, Any]
    name: str
    text: str
    sha256: str
    #: The files of a file axis (`several`), in order; empty for one input.
    files: tuple[str, ...] = ()


def read_input(source: str | Path | dict[str, Any] | Input) -> Input:
    """The input of a sweep from a file (read and parsed: an InputError naming it) or a mapping."""
    if isinstance(source, Input):
        return source
    if isinstance(source, dict):
        return Input(source, "<sweep>", text_of(source), sha256_of(source))
    from tohit.core.loader import read_document

    return Input(read_document(source), str(source), text_of(source), sha256_of(source))


def several(inputs: Sequence[Input]) -> Input:
    """Several files as one input (a file axis: `tohit sweep A.yaml B.yaml`): named by their names, its text each
    file's text under a `# file: NAME` line, its hash the SHA-256 of theirs in order, and the document hashed for
    `--resume` the files' documents by name."""
    return Input(
        {one.name: one.document for one in inputs},
        ", ".join(one.name for one in inputs),
        "".join(f"# file: {one.name}\n{one.text}\n" for one in inputs),
        hashlib.sha256("".join(one.sha256 for one in inputs).encode()).hexdigest(),
        tuple(one.name for one in inputs),
    )


def record(
    given: Input,
    *,
    vary: list[str],
    measure: str | None,
    n: int | None,
    seed: int | None,
    exact: bool,
    method: str | None,
    depth: int | None,
) -> dict[str, Any]:
    """The provenance of one sweep as plain JSON data (`n`, `seed` and `method` are null where no dice are
    rolled: an attack's points and exact fights; `exact` says every row is exact)."""
    return {
        **versions(),
        "input": given.name,
        "input_sha256": given.sha256,
        "document_sha256": hashlib.sha256(canonical(given.document).encode()).hexdigest(),
        "input_text": given.text,
        **({"files": list(given.files)} if given.files else {}),
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


def read(path: Path, option: str = "--resume") -> dict[str, Any]:
    """The provenance recorded with the table at `path` (an InputError on `option` when there is none)."""
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
        raise InputError(f"cannot read what made {path} ({type(exc).__name__}: {exc})", field=option) from None
    if not isinstance(data, dict):
        raise InputError(
            f"{path} records nothing of what made it ({where}): run the sweep afresh to another --out", field=option
        )
    return data


def check_same(path: Path, then: dict[str, Any], now: dict[str, Any]) -> None:
    """Refuse to resume, naming the first thing that changed between the table's run (`then`) and this one."""
    if then.get("engine") != now["engine"] or then.get("commit", now["commit"]) != now["commit"]:
        raise InputError(
            f"{path} was made by {engine_text(then)}, this is {engine_text(now)}: run the sweep afresh",
            field="--resume",
        )
    key = "document_sha256" if "document_sha256" in then else "input_sha256"  # a table from before it was kept
    if then.get(key) != now[key]:
        before, after = str(then.get(key))[:12], now[key][:12]
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
    every_row_exact = then.get("method") is None and now["method"] is None  # `exact` once said --exact alone
    for key, option in (("exact", "--exact"), ("method", "--method"), ("depth", "--depth")):
        if then.get(key) != now[key] and not (key == "exact" and every_row_exact):
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


def engine_text(made_by: dict[str, Any]) -> str:
    """`tohit 0.1.0` or `tohit 0.1.0 (commit 1a2b3c4d5e6f)`."""
    commit = made_by.get("commit")
    return f"{made_by.get('engine')}" + (f" (commit {str(commit)[:12]})" if commit else "")
