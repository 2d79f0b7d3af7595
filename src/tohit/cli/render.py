"""Rich rendering of roll, odds and simulate results for the terminal."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tohit.cli.errors import raise_if_signalled
from tohit.core.exact_text import fraction_text, is_long
from tohit.engine.stats import mean_sd, percentile, wilson

if TYPE_CHECKING:  # the views read results; `tohit roll` need not load the odds or simulation engines
    from tohit.engine.odds import OddsResult, TargetOdds
    from tohit.engine.roll import RollResult
    from tohit.engine.simulate import SimResult

BAR_WIDTH = 40
MAX_BARS = 30
RARE = 0.001


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


#: A roll on more targets than this traces the first ones and lists the rest in one table (`--json` has all).
TRACED_TARGETS = 20


def roll_view(result: RollResult) -> Group:
    parts: list[Any] = []
    for t in result.targets[:TRACED_TARGETS]:
        summary = Table.grid(padding=(0, 2))
        summary.add_column(style="bold")
        summary.add_column()
        for key, value in t.row.items():
            summary.add_row(key, _fmt(value))
        trace = Text()
        for step in t.steps:
            trace.append(f"{step.text}", style="")
            trace.append(f"  [{step.clause}]\n", style="dim")
        dice = ", ".join(f"{k}={v}{' (forced)' if k in t.forced else ''}" for k, v in t.faces.items())
        title = f"{t.name}: {_fmt(t.row.get('result'))}"
        parts.append(Panel(Group(trace, summary, Text(f"dice: {dice}", style="dim")), title=title, expand=False))
    rest = result.targets[TRACED_TARGETS:]
    if rest:
        parts.append(
            Text(f"{len(rest):,} more targets, one line each (their traces: --json)", style="bold", no_wrap=True)
        )
        lines = [f"{t.name}: {_fmt(t.row.get('result'))}, damage {_fmt(t.row.get('damage'))}" for t in rest]
        parts.append(Text("\n".join(lines), no_wrap=True, overflow="ellipsis"))
    parts.append(Text(f"seed {result.seed}", style="dim"))
    return Group(*parts)


def _bars(rows: list[tuple[str, float]]) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(justify="right")
    table.add_column()
    table.add_column(justify="right")
    peak = max((p for _, p in rows), default=0.0) or 1.0
    for label, p in rows:
        table.add_row(label, "█" * max(0, round(BAR_WIDTH * p / peak)), f"{100 * p:.2f}%")
    return table


def _damage_rows(pairs: list[tuple[int, float]]) -> list[tuple[str, float]]:
    """Damage bars: each value of at least 0.1% on its own, the rare rest folded into one row.

    When even the common values are too many for one screen, they are grouped into equal ranges.
    """
    common = [(v, p) for v, p in pairs if p >= RARE]
    rare = [(v, p) for v, p in pairs if p < RARE]
    if len(common) > MAX_BARS:
        low, high = common[0][0], common[-1][0]
        width = -(-(high - low + 1) // MAX_BARS)
        buckets: dict[int, float] = {}
        for v, p in common:
            start = low + (v - low) // width * width
            buckets[start] = buckets.get(start, 0.0) + p
        rows = [(f"{s}-{s + width - 1}", p) for s, p in sorted(buckets.items())]
    else:
        rows = [(str(v), p) for v, p in common]
    if rare:
        rows.append((f"{len(rare)} rarer values ({rare[0][0]}..{rare[-1][0]})", sum(p for _, p in rare)))
    return rows


def _exact(x: Fraction) -> str:
    return fraction_text(x) if is_long(x) else str(x)


def odds_target_view(t: TargetOdds) -> Panel:
    table = Table(title="result", show_edge=False)
    table.add_column("outcome")
    table.add_column("exact", justify="right")
    table.add_column("%", justify="right")
    for value, p in t.distribution("result"):
        table.add_row(
            _fmt(value),
            fraction_text(p),
            f"{100 * float(p):.3f}",
        )
    others = Table(title="other outcomes", show_edge=False)
    others.add_column("field")
    others.add_column("distribution")
    for name, hist in t.histograms.items():
        if name in ("result", "damage") or not hist.field.in_odds:
            continue
        dist = t.distribution(name)
        text = ", ".join(f"{_fmt(v)}: {100 * float(p):.2f}%" for v, p in dist[:12])
        others.add_row(name, text + (" …" if len(dist) > 12 else ""))
    dmg = [(int(v), float(p)) for v, p in t.distribution("damage")]
    body: list[Any] = [table, Text(f"mean damage {float(t.mean_damage):.4f}  ({_exact(t.mean_damage)})"[:120])]
    if t.remainder:
        body.append(Text(f"beyond depth {t.depth}: {float(t.beyond_depth):.3g} (reported, not dropped)", style="dim"))
    body += [Text("damage distribution", style="bold"), _bars(_damage_rows(dmg)), others]
    return Panel(Group(*body), title=t.name, expand=False)


def odds_view(result: OddsResult) -> Group:
    return Group(*(odds_target_view(t) for t in result.targets))


def sim_view(result: SimResult) -> Group:
    from tohit.engine.simulate import PERCENTILES

    parts: list[Any] = []
    for t in result.targets:
        table = Table(show_edge=False)
        table.add_column("outcome")
        table.add_column("count", justify="right")
        table.add_column("%", justify="right")
        table.add_column("95% CI", justify="right")
        for value, count in t.histograms["result"].items(t.outcome):
            low, high = wilson(count, t.n)
            table.add_row(_fmt(value), f"{count:,}", f"{100 * count / t.n:.3f}", f"{100 * low:.3f} – {100 * high:.3f}")
        dmg = t.histograms["damage"].counts
        mean, sd = mean_sd(dmg)
        pct = "  ".join(f"p{q}={percentile(dmg, q)}" for q in PERCENTILES)
        text = Text(f"damage mean {mean:.4f}  sd {sd:.4f}\n{pct}")
        bars = _bars(_damage_rows([(v, c / t.n) for v, c in sorted(dmg.items())]))
        parts.append(Panel(Group(table, text, bars), title=f"{t.name}: {t.n:,} attacks", expand=False))
    parts.append(Text(f"seed {result.seed}, sampler {result.method}", style="dim"))
    return Group(*parts)


@contextmanager
def delayed_progress(
    label: str, unit: str, total: int, *, after: float, quiet: bool
) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr that appears only once the work has run `after` seconds (never when quiet).

    Yields the `advance(count)` callback the engine calls as work is done.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    start = time.perf_counter()
    bar = Progress(
        TextColumn(label),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,}" + (f" {unit}" if unit else "")),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=total)
    shown = False

    def advance(m: int) -> None:
        nonlocal shown
        raise_if_signalled()  # a Ctrl-C or SIGTERM dropped on its way stops the work here
        if not shown and not quiet and time.perf_counter() - start > after:
            bar.start()
            shown = True
        bar.advance(task, m)

    try:
        yield advance
    finally:
        if shown:
            bar.stop()


def console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)
