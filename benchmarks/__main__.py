"""Run every benchmark module and print one table: `python -m benchmarks [--quick] [--long] [--against REF] [NAME
...]`."""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.common import Row
from benchmarks.fight_ab import RefError


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a fast look")
    parser.add_argument("--long", action="store_true", help="the long runs (server_load: 60 s of attacks)")
    parser.add_argument(
        "--against",
        metavar="REF",
        help="the fights bench: this tree against REF (a git ref or a directory), in turns in the same run",
    )
    folder = Path(__file__).parent
    modules = sorted(m.name for m in pkgutil.iter_modules([str(folder)]) if m.name.startswith("bench_"))
    # an unknown name: one line and exit 2 (argparse's), not an empty table
    known = [m.removeprefix("bench_") for m in modules]
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"only these ({', '.join(known)})")
    args = parser.parse_args()
    unknown = [n for n in args.names if n not in known]
    if unknown:  # argparse's `choices` refuses no names at all with `nargs="*"` (Python 3.11)
        parser.error(f"no benchmark named {', '.join(map(repr, unknown))} (choose from {', '.join(known)})")
    if args.names:
        modules = [m for m in modules if m.removeprefix("bench_") in args.names]
    rows: list[Row] = []
    console = Console(width=170)
    for name in modules:
        console.print(f"[dim]running {name}…[/]")
        module = importlib.import_module(f"benchmarks.{name}")
        takes = inspect.signature(module.run).parameters
        options = {"long": args.long} if "long" in takes else {}
        if "against" in takes:
            options["against"] = args.against
        try:
            rows.extend(module.run(args.quick, **options))
        except RefError as err:  # --against a REF that is neither a tree nor a git ref: one line, exit 2
            print(f"error: {err}", file=sys.stderr)
            raise SystemExit(2) from None
    table = Table(title="tohit benchmarks (ratio: higher is better for tohit)")
    also = any(r.also for r in rows)
    for col in ("group", "what", "tohit", "reference", "ratio", "target", "", *(["also"] if also else [])):
        table.add_column(col, justify="right" if col in ("ratio", "target") else "left")
    for r in rows:
        target = "" if r.target is None else f"≥ {r.target:.3g}x"
        cells = [r.group, r.what, r.ours, r.reference, f"{r.ratio:.2f}x", target, r.verdict]
        table.add_row(*cells, *([r.also] if also else []))
    console.print(table)


if __name__ == "__main__":
    main()
