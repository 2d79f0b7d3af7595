"""`tohit fight` and `tohit replay`: whole fights, narrated, simulated or exact, and their event logs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Group
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from tohit.cli import render
from tohit.cli.output import write_file
from tohit.core.exact_text import digit_count, is_long
from tohit.engine.fight.context import Method
from tohit.engine.fight.exact import MAX_SECONDS, MAX_STATES, ExactResult, exact_duel
from tohit.engine.fight.model import LoadedFight, load_fight
from tohit.engine.fight.replay import Replay, chained, replay, state_rows
from tohit.engine.fight.run import FightLog, FightStats, narrate, simulate_fights
from tohit.engine.fight.state import Roster, State

MAX_FIGHTS = 100_000_000
LONG_FRACTION = 40


def register(app: typer.Typer) -> None:
    """Add the `fight` and `replay` commands to the CLI."""
    app.command(name="fight")(fight)
    app.command(name="replay")(replay_command)


def fight(
    file: Annotated[Path, typer.Argument(help="Fight file (YAML or JSON).", show_default=False)],
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Seed (else the file's, else fresh).")] = None,
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
            "--workers", min=1, max=64, help="-n: processes to share the fights (same seed and W: same result)."
        ),
    ] = 1,
) -> None:
    """One fight narrated round by round (each roll traced); -n N to simulate N fights; --exact for duels."""
    from tohit.cli.app import fail, guarded

    if method not in ("table", "direct"):
        fail(f"--method: must be table or direct, got {method!r}")
    if exact and n is not None:
        fail("--exact and -n: choose one (exact odds, or a simulation)")
    if log is not None and (exact or n is not None):
        fail("--log: only a single narrated fight writes an event log")
    if workers > 1 and n is None:
        fail("--workers: only a simulation (-n N) shares its fights among processes")
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
        stats = _simulate(loaded, n, seed, quiet=as_json, method=chosen, workers=workers)
        if as_json:
            _print_json(stats.to_json())
        else:
            render.console().print(stats_view(stats))
        return
    played = guarded(lambda: narrate(loaded, seed))
    if log is not None:
        guarded(lambda: write_log(played, log))
    if as_json:
        _print_json(
            {"seed": played.seed, "winner": played.winner_name, "rounds": played.rounds, "events": played.events}
        )
        return
    console = render.console()
    console.print(narration_view(played))
    if log is not None:
        console.print(f"wrote {len(played.events)} events to {log}", style="dim")


def replay_command(
    events: Annotated[Path, typer.Argument(help="Event log (JSON lines) from `tohit fight --log`.")],
    until: Annotated[int | None, typer.Option("--until", min=0, help="Show the state after event N.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Rebuild a fight's state from its event log, check it against the recorded end, show the state after N."""
    from tohit.cli.app import guarded

    result = guarded(lambda: replay(events, until))
    if as_json:
        _print_json(
            {
                "events": len(result.events),
                "until": result.until,
                "state": result.state_at.row(result.roster),
                "matches_recorded_end": result.matches,
                "mismatches": result.mismatches,
            }
        )
    else:
        render.console().print(replay_view(result))
    if not result.matches:
        raise typer.Exit(1)


# -- helpers ----------------------------------------------------------------------------------------------------
def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2))


def write_log(played: FightLog, path: Path) -> None:
    """The events as JSON lines, each chained to the one before by `prev` (replay.chained), written whole."""

    def write(temporary: Path) -> None:
        with temporary.open("w", encoding="utf-8") as out:
            for event in chained(played.events):
                out.write(json.dumps(event, separators=(",", ":")) + "\n")

    write_file(path, write, field="--log")


def _simulate(
    loaded: LoadedFight, n: int, seed: int | None, *, quiet: bool, method: Method, workers: int = 1
) -> FightStats:
    from tohit.cli.app import guarded

    with render.delayed_progress("fighting", "fights", n, after=0.5, quiet=quiet) as advance:
        return guarded(lambda: simulate_fights(loaded, n, seed, progress=advance, method=method, workers=workers))


def _pct(p: float) -> str:
    return f"{100 * p:.2f}%"


def _fraction(x: Any) -> str:
    if is_long(x):
        return f"{digit_count(x.denominator):,}-digit denominator (too long to print)"
    text = f"{x.numerator}/{x.denominator}"
    if len(text) <= LONG_FRACTION:
        return text
    return f"{len(str(x.denominator))}-digit denominator (--json)"


def state_table(roster: Roster, state: State, health: str | None = None) -> Table:
    rows = state_rows(roster, state)
    table = Table(show_edge=False)
    keys = [k for k in rows[0] if k not in ("name", "side")] if rows else []
    for col in ["combatant", "side", *keys]:
        table.add_column(col, justify="left" if col in ("combatant", "side") else "right")
    for r in rows:
        table.add_row(r["name"], r["side"], *(str(r[k]) for k in keys))
    return table


def narration_view(played: FightLog) -> Group:
    fight = played.fight
    roster = fight.roster
    parts: list[Any] = [
        Text(f"{fight.system.title} fight: {' vs '.join(roster.side_names)}  (seed {played.seed})", style="bold"),
        Text(f"turn order: {fight.rules.turn_order}", style="dim"),
        Rule("Round 1"),
    ]
    for event in played.events[1:]:
        kind = event["kind"]
        if kind == "round":
            parts.append(Rule(f"Round {event.get('round')}"))
            if event["text"] != f"Round {event.get('round')}":
                parts.append(Text(event["text"], style="dim"))
        elif kind in ("attack", "counter"):
            parts.append(Text(f"#{event['n']} {event['text']}", style="bold"))
            for step in event.get("trace", []):
                line = Text(f"    {step['text']}")
                line.append(f"  [{step['clause']}]", style="dim")
                parts.append(line)
        elif kind == "end":
            parts.append(Rule("End"))
            parts.append(Text(event["text"], style="bold green"))
        elif event.get("text"):
            parts.append(Text(f"  #{event['n']} {event['text']}"))
    parts.append(state_table(roster, played.final))
    return Group(*parts)


def stats_view(stats: FightStats) -> Group:
    data = stats.to_json()
    sides = Table(title=f"{data['n']:,} fights", show_edge=False)
    for col in ("side", "wins", "%", "95% CI"):
        sides.add_column(col, justify="left" if col == "side" else "right")
    for s in data["sides"]:
        low, high = s["ci95"]
        sides.add_row(s["name"], f"{s['count']:,}", _pct(s["p"]), f"{_pct(low)} – {_pct(high)}")
    d = data["draws"]
    sides.add_row("draw", f"{d['count']:,}", _pct(d["p"]), f"{_pct(d['ci95'][0])} – {_pct(d['ci95'][1])}")
    rounds = data["rounds"]
    pct = "  ".join(f"p{q}={v}" for q, v in rounds["percentiles"].items())
    who = Table(show_edge=False)
    health = data["health"]
    for col in ("combatant", "side", "survives", f"{health} if standing", f"{health} mean", "damage dealt"):
        who.add_column(col, justify="left" if col in ("combatant", "side") else "right")
    for c in data["combatants"]:
        standing = "-" if c["health_if_standing"] is None else f"{c['health_if_standing']:.2f}"
        who.add_row(
            c["name"],
            c["side"],
            _pct(c["survives"]["p"]),
            standing,
            f"{c['health_mean']:.2f}",
            f"{c['damage_dealt_mean']:.2f}",
        )
    text = Text(f"rounds: mean {rounds['mean']:.3f}  sd {rounds['sd']:.3f}  {pct}  (max_rounds {data['max_rounds']})")
    return Group(sides, text, who, Text(f"seed {data['seed']}", style="dim"))


def exact_view(result: ExactResult) -> Panel:
    table = Table(show_edge=False)
    table.add_column("outcome")
    table.add_column("exact", justify="right")
    table.add_column("%", justify="right")
    for name, p in zip(result.fight.roster.side_names, result.wins, strict=True):
        table.add_row(f"{name} wins", _fraction(p), f"{100 * float(p):.4f}")
    table.add_row("draw", _fraction(result.draw), f"{100 * float(result.draw):.4f}")
    lines: list[Any] = [table]
    if result.beyond:
        lines.append(
            Text(
                f"beyond depth {result.depth} of open rolls: {float(result.beyond):.3g} (reported, not dropped)",
                style="dim",
            )
        )
    if result.never_ends:
        lines.append(Text(f"the fight never ends (nobody can win) with probability {float(result.never_ends):.4g}"))
    if result.expected_rounds is None:
        lines.append(Text("expected rounds: unbounded (the fight may never end)"))
    else:
        lines.append(
            Text(f"expected rounds: {float(result.expected_rounds):.4f}  ({_fraction(result.expected_rounds)})")
        )
    lines.append(
        Text(f"{result.states:,} states; the chain has no round limit (max_rounds applies to -n only)", style="dim")
    )
    return Panel(Group(*lines), title="exact duel odds", expand=False)


def replay_view(result: Replay) -> Group:
    parts: list[Any] = []
    event = result.events[result.until]
    parts.append(Text(f"state after event {result.until} of {len(result.events) - 1}: {event.get('text', '')}"))
    parts.append(state_table(result.roster, result.state_at))
    if result.matches:
        parts.append(Text("the events rebuild the recorded end state exactly", style="green"))
    else:
        parts.append(Text("the rebuilt end state differs from the recorded one:", style="bold red"))
        parts.extend(Text(f"  {m}") for m in result.mismatches)
    return Group(*parts)
