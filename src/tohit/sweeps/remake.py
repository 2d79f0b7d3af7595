"""`tohit sweep --remake TABLE`: a sweep made again from the record its table keeps (sweeps/provenance.py) and
nothing else: the input's text (parsed as when it was read; a map file it names is read again, beside the
input's recorded name), `--vary`, `--measure`, `-n`, `--seed`, `exact`, `--method` and the depth. The parsed input
must hash as recorded (a map file changed since is refused); the same engine, numpy and Python give the same
rows, and `differences` names what is not the same as when the table was made.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.sweeps import provenance
from tohit.sweeps.grid import kind_of
from tohit.sweeps.limits import MAX_POINTS_LIMIT
from tohit.sweeps.run import Sweep, plan

#: What the record must hold to make the table again.
NEEDED = ("input", "input_text", "input_sha256", "document_sha256", "vary")


def recorded_input(made_by: dict[str, Any], table: Path) -> provenance.Input:
    """The input as the table records it, parsed; an InputError naming what is missing or has changed."""
    from tohit.core.grid.uvtt import expand
    from tohit.core.loader import parse_document, read_bytes

    if made_by.get("files"):
        raise InputError(
            f"{table} was made from several files as one axis ({', '.join(map(str, made_by['files']))}):"
            " run `tohit sweep` on those files again",
            field="--remake",
        )
    missing = [key for key in NEEDED if key not in made_by]
    if missing:
        raise InputError(
            f"{table} records no {', '.join(missing)} (made by a tohit that kept less): it cannot be made again",
            field="--remake",
        )
    name, text = str(made_by["input"]), str(made_by["input_text"])
    document = parse_document(text, source=f"{table} (its input {name})", json_only=name.lower().endswith(".json"))
    document = expand(document, Path(name), read_bytes)
    if hashlib.sha256(provenance.canonical(document).encode()).hexdigest() != made_by["document_sha256"]:
        raise InputError(
            f"{table}: its input {name} no longer reads as it did (a map file it names has changed)",
            field="--remake",
        )
    return provenance.Input(document, name, text, str(made_by["input_sha256"]))


def remake(table: Path, *, out: Path | None = None) -> tuple[Sweep, dict[str, Any]]:
    """The sweep that made `table`, planned again from its record alone (to `out`, when given), and the record."""
    if not table.exists():
        raise InputError(f"no table at {table}", field="--remake")
    made_by = provenance.read(table, "--remake")
    given = recorded_input(made_by, table)
    vary = made_by["vary"]
    if not isinstance(vary, list) or not all(isinstance(v, str) for v in vary):
        raise InputError(f"{table} records --vary as {short_repr(vary)}, not a list of PATH=SPEC", field="--remake")
    fight = kind_of(given.document) == "fight"
    zips = [v.removeprefix("--zip ") for v in vary if v.startswith("--zip ")]
    planned = plan(
        given,
        [v for v in vary if not v.startswith("--zip ")],
        zips=zips,
        n=_whole(made_by.get("n")),
        seed=_whole(made_by.get("seed")),
        exact=fight and bool(made_by.get("exact")),
        method="direct" if made_by.get("method") == "direct" else "table",
        depth=_whole(made_by.get("depth")),
        out=out,
        max_points=MAX_POINTS_LIMIT,
        measure=None if made_by.get("measure") is None else str(made_by["measure"]),
    )
    return planned, made_by


def _whole(value: Any) -> int | None:
    """A whole number as the record keeps it (a seed as text), or None."""
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InputError(
            f"the record holds {short_repr(value)} where a whole number belongs", field="--remake"
        ) from None


def differences(then: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """What made the table and what makes it now, where they differ: `numpy 2.4.6, now 2.5.0`."""
    out = []
    for key in ("engine", "commit", "numpy", "python"):
        if key in then and then.get(key) != now.get(key):
            out.append(f"{key} {then.get(key)}, now {now.get(key)}")
    return out
