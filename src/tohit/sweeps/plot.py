"""A sweep's table as a chart: a line with its 95% band for one varied field, a heatmap for two, small multiples
(one heatmap per value of the third) for three. Axes are named in the rulebook's terms: a field's last name
as words (`targets[0].evasion` -> "Evasion"), a count as "number of <combatant>", a win as "<side> win"."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.sweeps.spec import Vary

#: The most panels of a small-multiples chart.
MAX_PANELS = 12


def field_label(vary: Vary, document: dict[str, Any]) -> str:
    """`targets[0].evasion` -> "Evasion (targets[0].evasion)"; `count:...` -> "number of <its name>"."""
    if vary.count:
        node: Any = document
        for step in vary.steps:
            node = node[step]
        name = node.get("name", "combatants") if isinstance(node, dict) else "combatants"
        return f"number of {name}"
    last = next(s for s in reversed(vary.steps) if isinstance(s, str))
    words = last.upper() if len(last) <= 3 else last.replace("_", " ").capitalize()  # lp -> LP, ac -> AC
    return f"{words} ({vary.text})"


def measure_label(column: str) -> str:
    """`win_Party` -> "Party win (share of fights)", `p_hit` -> "P(hit)", `mean_damage` -> "mean damage"."""
    if column.startswith("win_"):
        return f"{column[4:]} win (share of fights)"
    if column.startswith("p_"):
        return f"P({column[2:]})"
    if column.startswith("survivors_"):
        return f"{column[10:]} standing at the end (mean)"
    if column.startswith("health_"):
        return f"{column[7:]} health left (mean)"
    return column.replace("_", " ")


def default_measure(data: Any, kind: str) -> str:
    """The first side's win rate for a fight, the mean damage for an attack."""
    if kind == "fight":
        wins = [c for c in data.columns if c.startswith("win_") and not c.endswith(("_lo", "_hi"))]
        return str(wins[0])
    return "mean_damage"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def sweep_plot(
    data: Any,
    varies: list[Vary],
    document: dict[str, Any],
    kind: str,
    path: Path,
    *,
    measure: str | None = None,
    title: str = "",
) -> None:
    """Draw the table `data` (one row per point) to the PNG at `path`."""
    if not 1 <= len(varies) <= 3:
        raise InputError(f"--plot draws one, two or three varied fields, not {len(varies)}", field="--plot")
    column = measure or default_measure(data, kind)
    if column not in data.columns:
        known = ", ".join(c for c in data.columns if c not in {v.text for v in varies})
        raise InputError(f"no measure {short_repr(column)} in this sweep; measures: {known}", field="--measure")
    if "target" in data.columns:
        first = data["target"].iloc[0]
        data = data[data["target"] == first]
        title = f"{title}: target {first}" if title else f"target {first}"
    plt = _pyplot()
    labels = [field_label(v, document) for v in varies]
    if len(varies) == 1:
        fig = _line(plt, data, varies[0].text, labels[0], column)
    elif len(varies) == 2:
        fig, ax = plt.subplots(figsize=(8, 6), layout="constrained")
        _heatmap(fig, ax, data, varies, labels, column)
    else:
        fig = _multiples(plt, data, varies, labels, column)
    if title.strip():
        fig.suptitle(title, fontsize=10)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _line(plt: Any, data: Any, x: str, xlabel: str, column: str) -> Any:
    """One varied field: the measure as a line, with its 95% band where it has one (`<measure>_lo/_hi`);
    for a win rate, every side's."""
    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    data = data.sort_values(x)
    if column.startswith("win_") and f"{column}_lo" in data.columns:
        columns = [c for c in data.columns if c.startswith("win_") and not c.endswith(("_lo", "_hi"))]
        ylabel = "win rate (share of fights), 95% CI"
    elif column.startswith("p_"):
        columns = [c for c in data.columns if c.startswith("p_")]
        ylabel = "probability"
    else:
        columns = [column]
        ylabel = measure_label(column)
    for c in columns:
        (line,) = ax.plot(data[x], data[c], marker="o", label=measure_label(c))
        if f"{c}_lo" in data.columns:
            ax.fill_between(data[x], data[f"{c}_lo"], data[f"{c}_hi"], color=line.get_color(), alpha=0.2)
        elif c == "mean_damage" and "damage_p25" in data.columns:
            band = (data["damage_p25"], data["damage_p75"])
            ax.fill_between(data[x], *band, color=line.get_color(), alpha=0.2, label="damage p25-p75")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    if len(columns) > 1 or "damage_p25" in data.columns:
        ax.legend(fontsize=8)
    return fig


def _grid_of(data: Any, xs: str, ys: str, column: str) -> tuple[list[Any], list[Any], list[list[float]]]:
    xv = sorted(set(data[xs]), key=_order)
    yv = sorted(set(data[ys]), key=_order)
    cells = {(r[xs], r[ys]): float(r[column]) for r in data[[xs, ys, column]].to_dict("records")}
    z = [[cells.get((x, y), math.nan) for x in xv] for y in yv]
    return xv, yv, z


def _order(value: Any) -> tuple[int, Any]:
    return (0, value) if isinstance(value, (int, float)) else (1, str(value))


def _heatmap(fig: Any, ax: Any, data: Any, varies: list[Vary], labels: list[str], column: str, bar: bool = True) -> Any:
    """Two varied fields: the first across, the second up, each cell the measure (written in it)."""
    xv, yv, z = _grid_of(data, varies[0].text, varies[1].text, column)
    probability = column.startswith(("win_", "p_")) or column == "draw"
    low, high = (0.0, 1.0) if probability else (None, None)
    image = ax.imshow(z, origin="lower", aspect="auto", cmap="viridis", vmin=low, vmax=high)
    ax.set_xticks(range(len(xv)), [str(v) for v in xv])
    ax.set_yticks(range(len(yv)), [str(v) for v in yv])
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    if len(xv) * len(yv) <= 150:
        for j, row in enumerate(z):
            for i, value in enumerate(row):
                if not math.isnan(value):
                    text = f"{value:.0%}" if probability else f"{value:.3g}"
                    ax.text(i, j, text, ha="center", va="center", fontsize=9, color="white" if value < 0.5 else "black")
    if bar:
        fig.colorbar(image, ax=ax, label=measure_label(column))
    return image


def _multiples(plt: Any, data: Any, varies: list[Vary], labels: list[str], column: str) -> Any:
    """Three varied fields: one heatmap of the first two per value of the third, sharing one colour scale."""
    third = varies[2].text
    values = sorted(set(data[third]), key=_order)
    if len(values) > MAX_PANELS:
        raise InputError(
            f"small multiples draw at most {MAX_PANELS} panels; {third} has {len(values)} values (list fewer)",
            field="--plot",
        )
    cols = min(3, len(values))
    rows = math.ceil(len(values) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols + 1, 3.6 * rows), squeeze=False, layout="constrained")
    image = None
    for ax, value in zip(axes.flat, values, strict=False):
        image = _heatmap(fig, ax, data[data[third] == value], varies, labels, column, bar=False)
        ax.set_title(f"{labels[2].split(' (')[0]} = {value}", fontsize=9)
    for ax in list(axes.flat)[len(values) :]:
        ax.axis("off")
    fig.colorbar(image, ax=axes.ravel().tolist(), label=measure_label(column))
    return fig
