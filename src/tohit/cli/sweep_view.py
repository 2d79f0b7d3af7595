"""A sweep's table as the terminal shows it: the measure first, then the varied fields, then
the other main measures while they fit the terminal's width; numbers at display precision (a probability as a
percentage with its 95% interval when it has one, other numbers to 4 significant figures), never float noise.
The file and `--json` keep every column at full precision."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from tohit.sweeps.measure import CHANCES, is_chance

__all__ = ["CHANCES", "cell", "is_chance", "main_measures", "view"]

if TYPE_CHECKING:
    from rich.table import Table as RichTable

#: Rows the terminal shows (the file and --json have them all).
SHOWN_ROWS = 40
#: The widest a varied field's header is drawn before it wraps.
HEADER = 22


def cell(column: str, value: Any, low: Any = None, high: Any = None) -> str:
    """One value at display precision: `58.3%`, `58.3% (45.1-70.2%)` with an interval, `3.639`, `-` for none."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if is_chance(column):
        text = f"{float(value):.1%}"
        if isinstance(low, (int, float)) and isinstance(high, (int, float)) and not math.isnan(float(low)):
            text += f" ({max(0.0, float(low)):.1%}-{min(1.0, float(high)):.1%})"
        return text
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:.4g}"


def main_measures(columns: list[str]) -> list[str]:
    """The measures worth a glance, in order: wins and draws of a fight, the mean damage of an attack; then
    rounds, survivors and the chances in the table's order (an attack's results first)."""
    order: list[str] = []
    for start in ("win_", "draw", "mean_damage", "mean_rounds", "survives_", "p_", "dealt_", "survivors_", "health_"):
        order.extend(c for c in columns if c.startswith(start) and c not in order and not c.endswith(("_lo", "_hi")))
    return order


def view(data: Any, varied: list[str], measure: str, width: int) -> RichTable:
    """The table for a terminal `width` columns wide."""
    from rich.table import Table as RichTable

    records = data.head(SHOWN_ROWS).to_dict("records")
    columns = [str(c) for c in data.columns]
    chosen = [measure, *varied, *(["target"] if "target" in columns else [])]
    chosen += [c for c in main_measures(columns) if c not in chosen]

    def text(record: dict[str, Any], column: str) -> str:
        return cell(column, record.get(column), record.get(f"{column}_lo"), record.get(f"{column}_hi"))

    cells = {c: [text(r, c) for r in records] for c in chosen}
    shown: list[str] = []
    used = 0
    for column in chosen:
        header = min(len(column), HEADER) if column in varied else len(column)
        need = max([header, *(len(t) for t in cells[column])]) + 3
        if shown and used + need > width and column not in varied:
            continue
        shown.append(column)
        used += need
    table = RichTable(show_edge=False)
    for column in shown:
        if column in varied:
            table.add_column(column, max_width=HEADER, overflow="fold")
        else:
            table.add_column(column, no_wrap=True)
    for k in range(len(records)):
        table.add_row(*(cells[c][k] for c in shown))
    hidden = len([c for c in chosen if c not in shown])
    notes = []
    if len(data) > SHOWN_ROWS:
        notes.append(f"{len(data) - SHOWN_ROWS:,} more rows")
    if hidden:
        notes.append(f"{hidden} more measures")
    if notes:
        table.caption = f"{' and '.join(notes)}: --out or --json has them all"
    return table
