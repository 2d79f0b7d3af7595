"""`tohit.solve` and `tohit.compare` in a notebook: their answers as tidy DataFrames (`to_dataframe()`, exact values
kept as Fractions) and as HTML tables (`_repr_html_`) whose values read as the terminal's do: a chance as a
percentage, any other measure at display precision, an exact value with its fraction beside it (`83.3% (5/6)`)
where the fraction is short enough to read."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from tohit.core.exact_text import fraction_text
from tohit.engine.frames import html_table

#: The longest exact fraction written beside its decimal.
LONGEST = 15


def display(measure: str, value: Any, signed: bool = False) -> str:
    """One value of `measure` as a person reads it: `83.3% (5/6)`, `2.792 (67/24)`, `47.9%`, `-`; `signed`, a
    difference: `+0.7%`."""
    from tohit.cli.sweep_view import cell

    sign = "+" if signed and isinstance(value, (int, float, Fraction)) and value > 0 else ""
    if isinstance(value, Fraction):
        decimal = cell(measure, float(value))
        text = fraction_text(value)
        return sign + (decimal if len(text) > LONGEST or value.denominator == 1 else f"{decimal} ({sign}{text})")
    return sign + cell(measure, value)


def answer_html(
    title: str, data: Any, columns: list[str], measure: Callable[[dict[str, Any]], str], signed: tuple[str, ...] = ()
) -> str:
    """The titled table of `data`, each value of `columns` shown as `display` shows the row's measure (with its
    sign in the columns `signed`: differences)."""
    shown = data.copy()
    rows = data.to_dict("records")
    for column in columns:
        shown[column] = [display(measure(row), row[column], column in signed) for row in rows]
    return html_table(title, shown)
