"""`tohit demo`: every bundled example through roll, odds and simulate (and each fight, in fight_demo)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tohit.cli.errors import guarded
from tohit.core.errors import InputError


def default_examples() -> Path:
    """The `examples/` folder of a source checkout (the demo runs from the repository)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "examples"
        if candidate.is_dir():
            return candidate
    return Path("examples")


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
