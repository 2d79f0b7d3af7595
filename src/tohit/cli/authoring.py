"""`tohit new SYSTEM [--fight]` and `tohit reference SYSTEM`: what a newcomer writes a file from."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from tohit.cli.errors import fail, guarded


def register(app: typer.Typer) -> None:
    """Add `new` and `reference` to the `tohit` command line."""
    app.command(name="new")(new)
    app.command(name="reference")(reference)


def new(
    system: Annotated[str, typer.Argument(help="System id (`tohit systems`).")],
    fight: Annotated[bool, typer.Option("--fight", help="A starter fight file instead of a scenario.")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write it here (never over a file).")] = None,
) -> None:
    """Print (or write) a commented starter scenario, or with --fight a starter fight, for a game."""
    from tohit.engine import registry

    found = guarded(lambda: registry.get(system))
    text = found.starter(fight=fight)
    if text is None:
        fail(f"system: {system!r} ships no starter {'fight' if fight else 'scenario'}")
    if out is None:
        sys.stdout.write(text)
        return
    if out.exists():
        fail(f"{out}: exists already; choose another --out (tohit new never writes over a file)")
    try:
        with out.open("x", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        fail(f"{out}: cannot write: {exc.strerror or exc}")
    print(f"wrote {out}: edit it, then `tohit {'fight' if fight else 'roll'} {out}`")


def reference(system: Annotated[str, typer.Argument(help="System id (`tohit systems`).")]) -> None:
    """Print a game's field reference (Markdown): every field, its type, default and meaning."""
    from tohit.engine import registry
    from tohit.engine.reference import field_reference

    found = guarded(lambda: registry.get(system))
    sys.stdout.write(field_reference(found))
