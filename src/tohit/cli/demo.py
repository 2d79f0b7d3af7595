"""`tohit demo`: every bundled example through roll, odds and simulate (and each fight, in fight_demo);
`tohit examples [DIR]`: the bundled examples copied out, to read, change and run.

The examples are the package's own (`tohit.bundled`): a wheel carries them, a checkout reads its `examples/`.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated

import typer

from tohit.bundled import examples_folder
from tohit.cli.errors import fail, guarded
from tohit.core.errors import InputError

#: Where `tohit examples` copies them: ./examples, where the README's paths (examples/<game>/...) expect them.
COPIES = Path("examples")


def default_examples() -> Path:
    """The bundled examples (the installed package's, or a checkout's `examples/`)."""
    folder = examples_folder()
    if folder is None:
        raise InputError("no bundled examples in this installation; give a folder", field="--examples")
    return folder


def scenario_files(folder: Path) -> list[Path]:
    """Attack scenarios under `folder` (fights, in examples/fights, are not single attacks)."""
    files = [p for p in sorted(folder.rglob("*")) if p.suffix in (".yaml", ".yml", ".json")]
    return [p for p in files if "fights" not in p.relative_to(folder).parts]


def fight_files(folder: Path) -> list[Path]:
    """Fight files under `folder`/fights."""
    return [p for p in sorted((folder / "fights").glob("*")) if p.suffix in (".yaml", ".yml", ".json")]


def register(app: typer.Typer) -> None:
    """Add `demo` to the `tohit` command line."""
    app.command(name="demo")(demo)
    app.command(name="examples")(examples)


def demo(
    examples: Annotated[Path | None, typer.Option("--examples", help="Folder of example scenarios.")] = None,
    n: Annotated[int, typer.Option("-n", min=1, help="Attacks per target in the simulations.")] = 100_000,
) -> None:
    """Run every bundled example through roll, odds and simulate."""
    guarded(lambda: run_demo(examples, n))


def run_demo(folder: Path | None, n: int) -> None:
    from rich.rule import Rule

    from tohit.cli import render
    from tohit.cli.fight_demo import run_fights
    from tohit.engine.odds import odds
    from tohit.engine.roll import roll
    from tohit.engine.scenario import load
    from tohit.engine.simulate import simulate

    console = render.console()
    folder = folder or default_examples()
    if not folder.is_dir():
        raise InputError(f"folder {folder} does not exist", field="--examples")
    files = scenario_files(folder)
    if not files and not fight_files(folder):
        console.print(f"no example scenarios under {folder}")
        return
    console.print(f"the examples in {folder}")
    for path in files:
        loaded = load(path)
        console.print(Rule(f"{loaded.system.title}: {path.relative_to(folder)}"))
        console.print("[bold]roll[/]")
        console.print(render.roll_view(roll(loaded)))
        console.print("[bold]odds[/]")
        console.print(render.odds_view(odds(loaded)))
        console.print(f"[bold]simulate[/] ({n:,} attacks per target)")
        console.print(render.sim_view(simulate(loaded, n, seed=loaded.scenario.seed or 1)))
    fights = fight_files(folder)
    if fights:
        run_fights(fights, folder, n)
    console.print(summary(len(files), len(fights)), highlight=False)


def summary(examples: int, fights: int) -> str:
    """The demo's last line. An example or a fight that fails stops the demo at once with its error line and
    exit code 2, so a demo that reaches this line ran every one of them to the end."""
    return f"demo: {plural(examples, 'example')} and {plural(fights, 'fight')} ran, all passed"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def examples(
    folder: Annotated[Path, typer.Argument(help="Where to copy them (made if missing).")] = COPIES,
    force: Annotated[bool, typer.Option("--force", help="Replace files of the same name that differ.")] = False,
) -> None:
    """Copy the bundled examples (scenarios by game, fights in fights/) into a folder, ./examples unless given:
    to read, change and run (`tohit roll examples/<game>/<file>.yaml`)."""
    source = guarded(default_examples)
    files = sorted(p for p in source.rglob("*") if p.is_file() and not _hidden(p.relative_to(source)))
    if folder.exists() and not folder.is_dir():
        fail(f"{folder}: not a folder")
    if folder.is_dir() and folder.resolve() == source.resolve():
        print(f"{folder}: the bundled examples are already here ({len(files)} files)")
        return
    plan = [(path, folder / path.relative_to(source)) for path in files]
    differ = [out for path, out in plan if out.exists() and not _same(path, out)]
    if differ and not force:
        shown = ", ".join(str(out) for out in differ[:3]) + (", ..." if len(differ) > 3 else "")
        fail(
            f"{folder}: {len(differ)} of its files differ from the bundled ones ({shown}); nothing copied"
            " (--force replaces them)"
        )
    copied = 0
    try:
        for path, out in plan:
            if out.exists() and _same(path, out):
                continue
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, out)
            copied += 1
    except OSError as exc:
        fail(f"{folder}: cannot write: {exc.strerror or exc}")
    same = len(plan) - copied
    print(f"{folder}: {copied} example files copied" + (f", {same} already there" if same else ""))
    scenario = next((out for path, out in plan if path.parent.name != "fights" and path.suffix == ".yaml"), None)
    tried = f"tohit roll {scenario}   or: " if scenario is not None else ""
    print(f"try: {tried}tohit demo --examples {folder}")


def _hidden(relative: Path) -> bool:
    """A file `tohit examples` leaves out: a hidden one, or Python's cache (an example folder holds neither)."""
    return any(part.startswith(".") or part == "__pycache__" for part in relative.parts)


def _same(path: Path, out: Path) -> bool:
    """Whether `out` is already a copy of the bundled file `path`."""
    return out.is_file() and out.read_bytes() == path.read_bytes()
