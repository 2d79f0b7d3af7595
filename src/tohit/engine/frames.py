"""Results in a notebook: each result of odds, simulate and fight as a tidy pandas DataFrame
(`to_dataframe()`: exact probabilities stay Fractions), as an HTML table (`_repr_html_`, which Jupyter draws), and
as a one-line `repr()`; and a fight's side by name or index. The result classes (`OddsResult`, `SimResult`,
`FightStats`, `ExactResult`, `FightLog`) take these views from `Views`; pandas is imported only when a frame is
built, so a command that never builds one never loads it.

Columns: odds `target, field, value, probability` (a Fraction) and `float`; a simulation `target, field, value,
count, share, lo, hi` (95% interval where the CLI gives one); a fight's simulation `name, measure, value, lo, hi`
(sides' wins, draws, each combatant's survival and mean damage dealt, mean rounds); exact odds of a duel `name,
measure, probability, float`; a narrated fight one row per event.

The builders take the results as `Any`: the result modules import this one, never the other way round.
"""

from __future__ import annotations

import html
import operator
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, SupportsIndex

from tohit.core.errors import InputError, short_repr
from tohit.core.exact_text import fraction_text
from tohit.engine.tally import value_key


class Views:
    """A result's notebook views from its `_frame()` (the DataFrame) and `_title()` (the table's heading); the
    class defines its own one-line `__repr__` (a dataclass keeps a `__repr__` written in its body)."""

    def _frame(self) -> Any:
        raise NotImplementedError

    def _title(self) -> str:
        raise NotImplementedError

    def to_dataframe(self) -> Any:
        """One tidy pandas DataFrame row per outcome (see the module's docstring for the columns)."""
        return self._frame()

    def _repr_html_(self) -> str | None:
        """The table a notebook draws: the title, then the rows (exact probabilities as `7/12 (58.3%)`); without
        pandas, None (the notebook shows the one-line `repr()`)."""
        try:
            return html_table(self._title(), self.to_dataframe())
        except PandasMissing:
            return None


class PandasMissing(ModuleNotFoundError):
    """pandas, which a DataFrame needs, is not installed (it comes with the `sweep` extra)."""


def _frame(rows: list[dict[str, Any]]) -> Any:
    try:
        import pandas as pd
    except ImportError:
        raise PandasMissing("to_dataframe() needs pandas: pip install 'tohit[sweep]'", name="pandas") from None
    return pd.DataFrame(rows)


def odds_frame(result: Any) -> Any:
    """`OddsResult` -> one row per target, field and value, with its exact probability."""
    rows = []
    for target in result.targets:
        for name in target.histograms:
            field = target.histograms[name].field
            if name not in ("result", "damage") and not field.in_odds:
                continue
            for value, p in target.distribution(name):
                rows.append({"target": target.name, "field": name, "value": value_key(value), "probability": p})
        rows.append({"target": target.name, "field": "beyond_depth", "value": "", "probability": target.beyond_depth})
    data = _frame(rows)
    data["float"] = [float(p) for p in data["probability"]]
    return data


def simulate_frame(result: Any) -> Any:
    """`SimResult` -> one row per target, field and value: count, share, and the 95% interval of a result."""
    rows = []
    for target in result.to_json()["targets"]:
        n = target["n"]
        for value, got in target["result"].items():
            low, high = got["ci95"]
            rows.append(_sim(target["name"], "result", value, got["count"], n, low, high))
        for value, count in target["damage"]["histogram"].items():
            rows.append(_sim(target["name"], "damage", value, count, n))
        for name, shares in target["fields"].items():
            for value, share in shares.items():
                rows.append(_sim(target["name"], name, value, round(share * n), n))
    return _frame(rows)


def _sim(target: str, field: str, value: str, count: int, n: int, lo: Any = None, hi: Any = None) -> dict[str, Any]:
    return {"target": target, "field": field, "value": value, "count": count, "share": count / n, "lo": lo, "hi": hi}


def fight_stats_frame(result: Any) -> Any:
    """`FightStats` -> sides' wins and draws (with 95% intervals), each combatant's survival and mean damage
    dealt, and the mean rounds."""
    data = result.to_json()
    rows = [_row(side["name"], "win", side["p"], side["ci95"]) for side in data["sides"]]
    rows.append(_row("", "draw", data["draws"]["p"], data["draws"]["ci95"]))
    for c in data["combatants"]:
        rows.append(_row(c["name"], "survives", c["survives"]["p"], c["survives"]["ci95"]))
        rows.append(_row(c["name"], "damage dealt (mean)", c["damage_dealt_mean"]))
    rows.append(_row("", "rounds (mean)", data["rounds"]["mean"]))
    return _frame(rows)


def _row(name: str, measure: str, value: Any, interval: Any = None) -> dict[str, Any]:
    low, high = interval if interval else (None, None)
    return {"name": name, "measure": measure, "value": value, "lo": low, "hi": high}


def exact_fight_frame(result: Any) -> Any:
    """`ExactResult` -> each side's exact chance to win, the draw and the chance beyond the depth."""
    names = result.fight.roster.side_names
    rows = [{"name": name, "measure": "win", "probability": p} for name, p in zip(names, result.wins, strict=True)]
    rows.append({"name": "", "measure": "draw", "probability": result.draw})
    rows.append({"name": "", "measure": "beyond_depth", "probability": result.beyond})
    data = _frame(rows)
    data["float"] = [float(p) for p in data["probability"]]
    return data


def fight_log_frame(result: Any) -> Any:
    """`FightLog` -> one row per event (its JSON keys as columns)."""
    return _frame([dict(event) for event in result.events])


def html_table(title: str, data: Any) -> str:
    """A titled HTML table, each exact probability written `7/12 (58.3%)`."""
    shown = data.copy()
    for column in shown.columns:
        if any(isinstance(v, Fraction) for v in shown[column]):
            shown[column] = [
                f"{fraction_text(v)} ({float(v):.1%})" if isinstance(v, Fraction) else v for v in shown[column]
            ]
    return f"<p><b>{html.escape(title)}</b></p>{shown.to_html(index=False, max_rows=60)}"


def side_index(names: tuple[str, ...], side: object) -> int:
    """A side given by name (`'Ceil'`) or index, as an index; anything else an InputError naming the sides."""
    if isinstance(side, str) and side in names:
        return names.index(side)
    if isinstance(side, SupportsIndex) and not isinstance(side, bool):  # a Python or NumPy whole number
        index = operator.index(side)
        if 0 <= index < len(names):
            return index
    raise InputError(f"no side {short_repr(side)}; the sides are {', '.join(names)}", field="side")


class SideChances(list[Fraction]):
    """Each side's exact chance to win, in the sides' order (`wins[0]`, a list as before), that also takes a side
    by name or index as `FightStats.wins` does: `wins("Ceil")`."""

    def __init__(self, values: Iterable[Fraction] = (), names: tuple[str, ...] = ()) -> None:
        super().__init__(values)
        self.names = names

    def __call__(self, side: int | str) -> Fraction:
        """The chance that `side` (a name or an index) wins; another: an InputError naming the sides."""
        return self[side_index(self.names, side)]
