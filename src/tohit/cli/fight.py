"""`tohit fight` and `tohit replay`: whole fights, narrated, simulated or exact, and their event logs."""

from __future__ import annotations

import json
import tempfile
import textwrap
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tohit.cli.errors import fail, guarded
from tohit.engine.requests import MAX_FIGHTS, MAX_SECONDS, MAX_SEED, MAX_STATES, MAX_WORKERS

if TYPE_CHECKING:
    from tohit.core.fight.contract import FightRules, LoadedFight
    from tohit.engine.fight.modes import Method
    from tohit.engine.fight.run import FightLog, FightStats


def register(app: typer.Typer) -> None:
    """Add the `fight` and `replay` commands to the CLI."""
    app.command(name="fight")(fight)
    app.command(name="replay")(replay_command)


def fight(
    file: Annotated[Path, typer.Argument(help="Fight file (YAML or JSON).", show_default=False)],
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed (else the file's, else fresh).")
    ] = None,
    log: Annotated[Path | None, typer.Option("--log", help="Write every event as a JSON line.")] = None,
    n: Annotated[
        int | None, typer.Option("-n", "--n", min=1, max=MAX_FIGHTS, help="Monte Carlo: simulate N fights.")
    ] = None,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact", help=f"Exact odds of a duel (Markov chain, at most {MAX_STATES:,} states and {MAX_SECONDS:g} s)."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    method: Annotated[
        str, typer.Option("--method", help="-n: table (attacks drawn from exact tables) or direct (dice).")
    ] = "table",
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            max=MAX_WORKERS,
            help="-n: processes to share the fights (same seed and W: same result).",
        ),
    ] = 1,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="-n: write the win rates (95% CIs) and rounds as a PNG.")
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="-n: run on the Dask cluster at this address (tcp://host:8786), split as --workers W splits it"
            " (W: the cluster's workers unless given).",
        ),
    ] = None,
) -> None:
    """One fight narrated round by round (each roll traced); -n N to simulate N fights; --exact for duels."""
    if method not in ("table", "direct"):
        fail(f"--method: must be table or direct, got {method!r}")
    if exact and n is not None:
        fail("--exact and -n: choose one (exact odds, or a simulation)")
    if log is not None and (exact or n is not None):
        fail("--log: only a single narrated fight writes an event log")
    if plot is not None and n is None:
        fail("--plot: only a simulation (-n N) draws its win rates")
    if workers > 1 and n is None:
        fail("--workers: only a simulation (-n N) shares its fights among processes")
    if scheduler is not None and n is None:
        fail("--scheduler: only a simulation (-n N) runs on a cluster")
    from tohit.cli import render
    from tohit.cli.fight_views import exact_view, stats_view
    from tohit.engine.fight.exact import exact_duel
    from tohit.engine.fight.load import load_fight

    loaded = guarded(lambda: load_fight(file))
    if exact:
        result = guarded(lambda: exact_duel(loaded))
        if as_json:
            _print_json(result.to_json())
        else:
            render.console().print(exact_view(result))
        return
    if n is not None:
        chosen: Method = "direct" if method == "direct" else "table"
        if scheduler is not None:
            stats = _on_cluster(file, scheduler, n, seed, quiet=as_json, method=chosen, workers=workers)
        else:
            stats = _simulate(loaded, n, seed, quiet=as_json, method=chosen, workers=workers)
        if plot is not None:
            from tohit.cli.plot import fights_plot, write_png

            guarded(lambda: write_png(plot, "--plot", lambda p: fights_plot(stats.to_json(), stats.tally.rounds, p)))
            if not as_json:
                render.console().print(f"wrote {plot}")
        if as_json:
            _print_json(stats.to_json())
        else:
            render.console().print(stats_view(stats))
        return
    if as_json or log is not None:
        _narrate_whole(loaded, seed, log, as_json)
        return
    _narrate_streaming(loaded, seed)


def replay_command(
    events: Annotated[Path, typer.Argument(help="Event log (JSON lines) from `tohit fight --log`.")],
    until: Annotated[int | None, typer.Option("--until", min=0, help="Show the state after event N.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Rebuild a fight's state from its event log, check it against the recorded end, show the state after N. A log
    exported mid-fight is checked up to its last event, and replay says where the fight stands."""
    from tohit.cli import render
    from tohit.cli.fight_views import replay_view
    from tohit.engine.fight.replay import replay

    result = guarded(lambda: replay(events, until))
    if as_json:
        _print_json(
            {
                "events": len(result.events),
                "until": result.until,
                "state": result.state_at.row(result.roster),
                "matches_recorded_end": result.matches,
                "mismatches": result.mismatches,
                "finished": result.finished,
                "standing": result.standing,
            }
        )
    else:
        render.console().print(replay_view(result, _rules_of(result.events), render.console().width))
    if not result.matches:
        raise typer.Exit(1)


# -- helpers ----------------------------------------------------------------------------------------------------
def _rules_of(events: list[dict[str, Any]]) -> FightRules | None:
    """The fight rules of the system a log names (for showing its stats), if known."""
    from tohit.core.errors import InputError
    from tohit.core.fight.contract import rules_for
    from tohit.engine import registry

    try:
        return rules_for(registry.get(str(events[0].get("system")))) if events else None
    except InputError:
        return None


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2))


def write_log(played: FightLog, path: Path) -> None:
    """The events as JSON lines, each chained to the one before by `prev` (replay.chained), written whole."""
    write_events(played.events, path)


def write_events(events: Iterable[dict[str, Any]], path: Path) -> None:
    """`write_log` of events as they come (read back from a spool: never all in memory), written whole."""
    from tohit.cli.output import write_file
    from tohit.engine.fight.replay import chained

    def write(temporary: Path) -> None:
        with temporary.open("w", encoding="utf-8") as out:
            for event in chained(events):
                out.write(json.dumps(event, separators=(",", ":")) + "\n")

    write_file(path, write, field="--log")


def _narrate_whole(loaded: LoadedFight, seed: int | None, log: Path | None, as_json: bool) -> None:
    """A narrated fight for --json or --log, whole or nothing: its events go to a temporary
    spool file as they are made (memory stays flat however long the fight), the log is written from it before
    anything is printed (an unwritable path prints no fight, a refused fight writes no log), then the JSON or
    the narration is printed from it, the same bytes as from a list held whole."""
    from tohit.cli import render
    from tohit.cli.fight_views import event_view, item_names, narration_header, state_table
    from tohit.engine.fight.run import narrate

    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:

        def spooled(event: dict[str, Any]) -> None:
            spool.write(json.dumps(event, separators=(",", ":")) + "\n")

        def events() -> Iterator[dict[str, Any]]:
            spool.seek(0)
            for line in spool:
                yield json.loads(line)

        played = guarded(lambda: narrate(loaded, seed, on_event=spooled, keep=False))
        spool.flush()
        if log is not None:
            guarded(lambda: write_events(events(), log))
        if as_json:
            head = json.dumps({"seed": played.seed, "winner": played.winner_name, "rounds": played.rounds}, indent=2)
            typer.echo(head[:-2] + ',\n  "events": [\n', nl=False)
            for i, event in enumerate(events()):
                typer.echo(("" if i == 0 else ",\n") + textwrap.indent(json.dumps(event, indent=2), "    "), nl=False)
            typer.echo("\n  ]\n}")
            return
        console = render.console()
        for line in narration_header(loaded, played.seed):
            console.print(line)
        count = 0
        for event in events():
            count += 1
            for line in event_view(event):
                console.print(line)
        console.print(state_table(loaded.roster, played.final, loaded.rules, console.width, item_names(loaded)))
        console.print(f"wrote {count} events to {log}", style="dim")


def _narrate_streaming(loaded: LoadedFight, seed: int | None) -> FightLog:
    """A narrated fight printed event by event as it is played (a long fight shows at once, and its events are
    not kept: memory stays flat); when the narration goes to a file or a pipe, a progress bar of rounds on a
    terminal's stderr."""
    from tohit.cli import render
    from tohit.cli.fight_views import event_view, item_names, narration_header, state_table
    from tohit.engine.fight.run import narrate
    from tohit.engine.seeds import fresh_seed

    console = render.console()
    chosen = seed if seed is not None else loaded.spec.seed if loaded.spec.seed is not None else fresh_seed()
    for line in narration_header(loaded, chosen):
        console.print(line)
    quiet = console.is_terminal
    with render.delayed_progress("fighting", "rounds", loaded.max_rounds, after=0.5, quiet=quiet) as advance:

        def show(event: dict[str, Any]) -> None:
            for line in event_view(event):
                console.print(line)
            if event["kind"] == "round":
                advance(1)

        played = guarded(lambda: narrate(loaded, chosen, on_event=show, keep=False))
    console.print(state_table(loaded.roster, played.final, loaded.rules, console.width, item_names(loaded)))
    return played


def _simulate(
    loaded: LoadedFight, n: int, seed: int | None, *, quiet: bool, method: Method, workers: int = 1
) -> FightStats:
    from tohit.cli import render
    from tohit.engine.fight.run import simulate_fights

    with render.delayed_progress("fighting", "fights", n, after=0.5, quiet=quiet) as advance:
        return guarded(lambda: simulate_fights(loaded, n, seed, progress=advance, method=method, workers=workers))


def _on_cluster(
    file: Path, scheduler: str, n: int, seed: int | None, *, quiet: bool, method: Method, workers: int
) -> FightStats:
    from tohit.cli import render
    from tohit.core.loader import read_document
    from tohit.sweeps.cluster import fights_on

    document = guarded(lambda: read_document(file, what="a fight file"))
    with render.delayed_progress("fighting", "fights", n, after=0.5, quiet=quiet) as advance:
        return guarded(
            lambda: fights_on(
                scheduler,
                document,
                str(file),
                n,
                seed,
                method=method,
                workers=workers if workers > 1 else None,
                progress=advance,
            )
        )
