"""How `tohit compare` shows its answers (cli/compare.py, cli/compare_along.py): values as short fractions with
their decimals, B - A as a fraction or with its interval, one table per target."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.table import Table as RichTable

    from tohit.sweeps.compare import Comparison, Difference


def simulated_note(n: int, seed: int | None, blocks: int | None) -> str:
    """How a simulated comparison ran: `--seed` repeats it."""
    paired = f", in {blocks} paired blocks (common random numbers)" if blocks and blocks > 1 else ""
    return f"simulated: {n:,} fights each, seed {seed}{paired}"


#: The longest exact fraction the terminal writes out (a longer one is shown at display precision; --json has it).
LONGEST = 15


def _fraction(value: Fraction, sign: bool = False) -> str:
    """`3/2`, `0`, or with `sign` `+3/2`; empty when too long to read."""
    text = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if len(text) > LONGEST:
        return ""
    return f"+{text}" if sign and value > 0 else text


def shown(name: str, value: Any) -> str:
    """A value of A or B: a short fraction with its decimal, else the decimal."""
    from tohit.cli.sweep_view import cell

    if isinstance(value, Fraction):
        text = _fraction(value)
        if value.denominator == 1 and text:
            return text
        return f"{text} ({cell(name, float(value))})" if text else cell(name, float(value))
    return cell(name, value)


def difference_text(d: Difference) -> str:
    """B - A as the terminal shows it: a short fraction, else a decimal; with its interval when simulated."""
    from tohit.cli.sweep_view import cell, is_chance

    if d.difference is None:
        return "-"
    if isinstance(d.difference, Fraction):
        text = _fraction(d.difference, sign=True)
        if text:
            return text
        shown = float(d.difference)
        return f"{shown:+.2%}" if is_chance(d.measure) else f"{shown:+.4g}"
    shown = 0.0 if abs(d.difference) < 0.0005 else d.difference  # no "-0.0%"
    if d.lo is not None and d.hi is not None:
        if not is_chance(d.measure):
            return f"{shown:+.3g} ({d.lo:+.3g} to {d.hi:+.3g})"
        return f"{shown:+.1%} ({d.lo:+.1%} to {d.hi:+.1%})"
    if is_chance(d.measure):
        return f"{shown:+.1%}"
    return f"{d.difference:+.4g}" if d.difference else cell(d.measure, 0)


def views(result: Comparison) -> list[RichTable]:
    """One table per target (an attack) or one (a fight): measure, A, B, B - A."""
    from rich.table import Table as RichTable

    tables = []
    simulated = result.method == "simulated"
    for target, diffs in result.rows:
        title = f"A: {Path(result.a).name}, B: {Path(result.b).name}" + (f"; target {target}" if target else "")
        table = RichTable(show_edge=False, title=title)
        for column in ("measure", "A", "B", "B - A (95% CI)" if simulated else "B - A (exact)"):
            table.add_column(column, no_wrap=True)
        if simulated:
            table.add_column("excludes 0", no_wrap=True)
        for d in diffs:
            cells = [d.measure, shown(d.measure, d.a), shown(d.measure, d.b), difference_text(d)]
            if simulated:
                cells.append("" if d.excludes_zero is None else "yes" if d.excludes_zero else "no")
            table.add_row(*cells)
        tables.append(table)
    return tables
