"""`tohit demo`, fights part: each bundled fight narrated, simulated, and (for a duel) solved exactly."""

from __future__ import annotations

from pathlib import Path

from rich.rule import Rule

from tohit.cli import render
from tohit.cli.fight_views import exact_view, narration_view, stats_view
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate, simulate_fights

#: Fights per simulation in the demo (at most; the demo's -n caps it).
DEMO_FIGHTS = 20_000


def run_fights(files: list[Path], folder: Path, n: int) -> None:
    console = render.console()
    for path in files:
        fight = load_fight(path)
        console.print(Rule(f"{fight.system.title} fight: {path.relative_to(folder)}"))
        console.print("[bold]fight[/] (one, narrated)")
        console.print(narration_view(narrate(fight)))
        fights = min(n, DEMO_FIGHTS)
        console.print(f"[bold]fight -n {fights:,}[/]")
        console.print(stats_view(simulate_fights(fight, fights, seed=fight.spec.seed or 1)))
        if fight.roster.size == 2:
            console.print("[bold]fight --exact[/]")
            console.print(exact_view(exact_duel(fight)))
