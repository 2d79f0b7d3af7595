"""The rich views of a fight: the narration, the simulation's table, the exact duel and a replayed state.

Shared by `tohit fight`, `tohit replay` and `tohit demo`; imports no command module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from tohit.core.exact_text import digit_count, is_long
from tohit.core.fight.contract import FightRules, LoadedFight
from tohit.core.fight.readings import NONE_TEXT, label_of, reading_of, stem
from tohit.core.fight.readings import stat_text as read_text
from tohit.core.fight.state import Roster, State
from tohit.engine.fight.exact import ExactResult
from tohit.engine.fight.replay import Replay, state_rows
from tohit.engine.fight.run import FightLog, FightStats

LONG_FRACTION = 40


def _pct(p: float) -> str:
    return f"{100 * p:.2f}%"


def _fraction(x: Any) -> str:
    if is_long(x):
        return f"{digit_count(x.denominator):,}-digit denominator (too long to print)"
    text = f"{x.numerator}/{x.denominator}"
    if len(text) <= LONG_FRACTION:
        return text
    return f"{len(str(x.denominator))}-digit denominator (--json)"


def stat_text(
    rules: FightRules | None, stat: str, value: int, names: Sequence[str] = (), stats: Mapping[str, int] | None = None
) -> str:
    """A stat as a player reads it (the rules' `readings`: "yes"/"no" for a flag, "—" for a stat the file does
    not track, a referenced combatant's name, "3 / 4" against its maximum in `stats`; without rules, the number)."""
    if rules is None:
        return f"{value:,}"
    return read_text(rules.readings, stat, value, names, stats, rules.narrate_value)


def item_names(fight: LoadedFight) -> list[dict[str, list[str]]]:
    """Per combatant, the names its per-item and per-attack stats count (`item`: the game's `item_names`;
    `attack`: its attacks'), for the state table."""
    return [
        {"item": fight.rules.item_names(fight, c), "attack": [a.name for a in fight.combatants[c].attacks]}
        for c in range(fight.roster.size)
    ]


def _head(rules: FightRules, stat: str) -> tuple[str, str | None, int | None]:
    """A stat's row or column label, and for one counted per item or attack (`durability1`) what it counts and
    its number: the label "Durability (weapon 2)", as one label stands for several combatants' own weapons."""
    reading = reading_of(rules.readings, stat)
    _, number = stem(stat)
    if reading is None or reading.per is None or number is None or stat in rules.readings:
        return label_of(rules.readings, stat), None, None
    word = rules.item_word if reading.per == "item" else "attack"
    return f"{reading.label} ({word} {number + 1})", reading.per, number


def state_table(
    roster: Roster,
    state: State,
    rules: FightRules | None = None,
    width: int | None = None,
    names: Sequence[Mapping[str, Sequence[str]]] = (),
) -> Table:
    """Each combatant's stats, headed by the game's labels (its `readings`; internal stats left out): a row per
    combatant, or, when that is wider than the terminal (`width`), a row per stat and a column per combatant,
    so names are never cut. A stat counted per item or per attack is headed by its number ("Durability (weapon
    1)") and each cell names the combatant's own (`names`, per combatant: "7 (traveler's sword)")."""
    rows = state_rows(roster, state)
    keys = [k for k in rows[0] if k not in ("name", "side")] if rows else []
    readings = rules.readings if rules is not None else {}
    if rules is not None:
        keys = [k for k in keys if (found := reading_of(readings, k)) is None or found.kind != "internal"]
    everyone = list(roster.names)
    heads_of = {k: _head(rules, k) if rules is not None else (k, None, None) for k in keys}

    def cell(c: int, r: dict[str, Any], k: str) -> str:
        text = stat_text(rules, k, r[k], everyone, r)
        _, per, number = heads_of[k]
        counted = names[c].get(per or "", ()) if c < len(names) else ()
        if number is not None and number < len(counted) and counted[number] and text != NONE_TEXT:
            return f"{text} ({counted[number]})"
        return text

    cells = [[r["name"], r["side"], *(cell(c, r, k) for k in keys)] for c, r in enumerate(rows)]
    heads = ["combatant", "side", *(heads_of[k][0] for k in keys)]
    wide = sum(max(len(h), *(len(c[i]) for c in cells)) + 3 for i, h in enumerate(heads)) if cells else 0
    table = Table(show_edge=False)
    if width is None or wide <= width:
        for col in heads:
            table.add_column(col, justify="left" if col in ("combatant", "side") else "right", no_wrap=True)
        for c in cells:
            table.add_row(*c)
        return table
    table.add_column("stat", no_wrap=True)
    for r in rows:
        table.add_column(r["name"], justify="right", overflow="fold")
    for i, head in enumerate(heads[1:], start=1):
        table.add_row(head, *(c[i] for c in cells))
    return table


def narration_header(fight: LoadedFight, seed: int) -> list[Any]:
    """The lines before the first event of a narrated fight."""
    return [
        Text(f"{fight.system.title} fight: {' vs '.join(fight.roster.side_names)}  (seed {seed})", style="bold"),
        Text(f"turn order: {fight.rules.turn_order}", style="dim"),
    ]


def event_view(event: dict[str, Any]) -> list[Any]:
    """One event of a narrated fight as it happens, numbered as in its log (every event shows its number,
    so the numbers run on without a gap: those with no words show the changes they make, dim)."""
    kind, n = event["kind"], event["n"]
    if kind == "start":
        return [Rule(f"#{n} Round 1")]
    if kind == "round":
        out: list[Any] = [Rule(f"#{n} Round {event.get('round')}")]
        if event["text"] != f"Round {event.get('round')}":
            out.append(Text(event["text"], style="dim"))
        return out
    if kind in ("attack", "counter"):
        out = [Text(f"#{n} {event['text']}", style="bold")]
        for step in event.get("trace", []):
            line = Text(f"    {step['text']}")
            line.append(f"  [{step['clause']}]", style="dim")
            out.append(line)
        return out
    if kind == "end":
        return [Rule(f"#{n} End"), Text(event["text"], style="bold green")]
    if event.get("text"):
        return [Text(f"  #{n} {event['text']}")]
    changes = ", ".join(
        f"{c['who'] + ' ' if c.get('who') else ''}{c['stat']} {c['from']} → {c['to']}" for c in event.get("changes", [])
    )
    return [Text(f"  #{n} ({kind.replace('_', ' ')}{': ' + changes if changes else ''})", style="dim")]


def narration_view(played: FightLog, width: int | None = None) -> Group:
    fight = played.fight
    parts = narration_header(fight, played.seed)
    for event in played.events:
        parts.extend(event_view(event))
    parts.append(state_table(fight.roster, played.final, fight.rules, width, item_names(fight)))
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
    for side, p in enumerate(result.wins):
        table.add_row(result.fight.roster.wins(side), _fraction(p), f"{100 * float(p):.4f}")
    table.add_row("draw", _fraction(result.draw), f"{100 * float(result.draw):.4f}")
    lines: list[Any] = [table]
    stalemate = result.stalemate_text()
    if stalemate is not None:
        lines.append(Text(stalemate, style="bold"))
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
    elif result.stalemate == "depth":
        lines.append(Text(f"expected rounds until a roll past the depth: {float(result.expected_rounds):.4g}"))
    else:
        lines.append(
            Text(f"expected rounds: {float(result.expected_rounds):.4f}  ({_fraction(result.expected_rounds)})")
        )
    lines.append(
        Text(f"{result.states:,} states; the chain has no round limit (max_rounds applies to -n only)", style="dim")
    )
    return Panel(Group(*lines), title="exact duel odds", expand=False)


def replay_view(result: Replay, rules: FightRules | None = None, width: int | None = None) -> Group:
    parts: list[Any] = []
    event = result.events[result.until]
    parts.append(Text(f"state after event {result.until} of {len(result.events) - 1}: {event.get('text', '')}"))
    parts.append(state_table(result.roster, result.state_at, rules, width))
    if result.matches and not result.finished:
        parts.append(Text(f"{result.standing}: every event checks, up to the last", style="green"))
    elif result.matches:
        parts.append(Text("the events rebuild the recorded end state exactly", style="green"))
    else:
        parts.append(Text("the rebuilt end state differs from the recorded one:", style="bold red"))
        parts.extend(Text(f"  {m}") for m in result.mismatches)
    return Group(*parts)
