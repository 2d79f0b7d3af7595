"""Run every benchmark module and print one table: `python -m benchmarks [--quick] [--long] [NAME ...]`."""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.common import Row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a fast look")
    parser.add_argument("--long", action="store_true", help="the long runs (server_load: 60 s of attacks)")
    parser.add_argument("names", nargs="*", help="only these modules (e.g. kaiser for bench_kaiser)")
    args = parser.parse_args()
    folder = Path(__file__).parent
    modules = sorted(m.name for m in pkgutil.iter_modules([str(folder)]) if m.name.startswith("bench_"))
    if args.names:
        modules = [m for m in modules if m.removeprefix("bench_") in args.names]
    rows: list[Row] = []
    console = Console(width=170)
    for name in modules:
        console.print(f"[dim]running {name}…[/]")
        module = importlib.import_module(f"benchmarks.{name}")
        takes_long = "long" in inspect.signature(module.run).parameters
        rows.extend(module.run(args.quick, long=args.long) if takes_long else module.run(args.quick))
    table = Table(title="tohit benchmarks (ratio: higher is better for tohit)")
    for col in ("group", "what", "tohit", "reference", "ratio", "target", ""):
        table.add_column(col, justify="right" if col in ("ratio", "target") else "left")
    for r in rows:
        target = "" if r.target is None else f"≥ {r.target:.3g}x"
        table.add_row(r.group, r.what, r.ours, r.reference, f"{r.ratio:.2f}x", target, r.verdict)
    console.print(table)


if __name__ == "__main__":
    main()
