"""A sweep's table as a chart: a line with its 95% band for one varied field, a heatmap for two, small multiples
(one heatmap per value of the third) for three; and `compare --vary`'s B - A along its axis. Axes are named in
the rulebook's terms: a field's last name as words (`targets[0].evasion` -> "Evasion"), a count as "copies of
<combatant>", a win as "<side> win"."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from tohit.core.errors import InputError, short_repr
from tohit.sweeps.spec import Vary

if TYPE_CHECKING:
    from tohit.sweeps.compare import Along

#: The most panels of a small-multiples chart.
MAX_PANELS = 12


def field_label(vary: Vary, document: dict[str, Any]) -> str:
    """`targets[0].evasion` -> "Evasion (targets[0].evasion)"; `count:...` -> "copies of <its name>"."""
    if vary.count:
        node: Any = document
        for step in vary.steps:
            node = node[step]
        name = node.get("name", "combatants") if isinstance(node, dict) else "combatants"
        return f"copies of {name}"
    if not vary.steps:  # a file axis or a build (--zip): its column says it
        return "build" if vary.zipped else vary.text
    last = next(s for s in reversed(vary.steps) if isinstance(s, str))
    words = last.upper() if len(last) <= 3 else last.replace("_", " ").capitalize()  # lp -> LP, ac -> AC
    return f"{words} ({vary.text})"


def how_measured(data: Any) -> str:
    """How the table's rows were measured, for a title: "exact", or "n = 1,000 fights per point"."""
    methods = set(data["method"]) if "method" in data.columns else set()
    if methods == {"exact"} or ("n" not in data.columns and not methods):
        return "exact"
    n = int(data["n"].iloc[0]) if "n" in data.columns and len(data) else 0
    return f"n = {n:,} fights per point" if n else "simulated"


def measure_label(column: str, how: str = "") -> str:
    """`win_Party` -> "Party win (share of 1,000 fights)" with `how` "n = 1,000 fights per point" ("Party win
    (exact)" for exact rows), `p_hit` -> "P(hit)" ("P(hit) (exact)"), `mean_rounds` -> "mean rounds, n = 1,000
    fights per point"."""
    share = "share of fights"
    if how == "exact":
        share = "exact"
    elif how.startswith("n = "):
        share = f"share of {how[4:].removesuffix(' per point')}"
    if column.startswith("win_"):
        return f"{column[4:]} win ({share})"
    if column.startswith("survives_"):
        return f"{column[9:]} standing at the end ({share})"
    if column.startswith("dealt_"):
        label = f"damage {column[6:]} deals (mean)"
    elif column.startswith("p_"):
        label = f"P({column[2:]})"
    elif column.startswith("survivors_"):
        label = f"{column[10:]} standing at the end (mean)"
    elif column.startswith("health_"):
        label = f"{column[7:]} health left (mean)"
    else:
        label = column.replace("_", " ")
    if how == "exact":
        return f"{label} (exact)"
    return f"{label}, {how}" if how.startswith("n = ") else label


def default_measure(data: Any, kind: str) -> str:
    """The first side's win rate for a fight, the mean damage for an attack."""
    if kind == "fight":
        wins = [c for c in data.columns if c.startswith("win_") and not c.endswith(("_lo", "_hi"))]
        return str(wins[0])
    return "mean_damage"


class _Figures:
    """`plt.subplots` without pyplot: a `Figure` of its own (no backend chosen, nothing global kept), which
    `savefig` writes and a notebook shows (`Chart`)."""

    @staticmethod
    def subplots(
        *grid: int, figsize: tuple[float, float], layout: Literal["constrained"], squeeze: bool = True
    ) -> tuple[Any, Any]:
        from matplotlib.figure import Figure

        fig = Figure(figsize=figsize, layout=layout)
        return fig, fig.subplots(*grid, squeeze=squeeze)


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
    sweep_figure(data, varies, document, kind, measure=measure, title=title).savefig(path, dpi=100)


def sweep_figure(
    data: Any, varies: list[Vary], document: dict[str, Any], kind: str, *, measure: str | None = None, title: str = ""
) -> Any:
    """The chart of the table `data` (one row per point) as a matplotlib `Figure`."""
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
    plt = _Figures()
    labels = [field_label(v, document) for v in varies]
    how = how_measured(data)
    if len(varies) == 1:
        fig = _line(plt, data, varies[0].text, labels[0], column, how)
    elif len(varies) == 2:
        fig, ax = plt.subplots(figsize=(8, 6), layout="constrained")
        _heatmap(fig, ax, data, varies, labels, column, _scale(data, column), how=how)
    else:
        fig = _multiples(plt, data, varies, labels, column, how)
    fig.suptitle(f"{title} ({how})" if title.strip() else how, fontsize=10)
    return fig


def _line(plt: Any, data: Any, x: str, xlabel: str, column: str, how: str) -> Any:
    """One varied field: the measure as a line, with its 95% band where it has one (`<measure>_lo/_hi`): for a
    fight, every side's win rate; for an attack, the probability of each result beside the mean damage."""
    from matplotlib.ticker import PercentFormatter

    data = data.sort_values(x)
    results = any(str(c).startswith("p_") for c in data.columns)
    if column.startswith("win_") or (results and (column.startswith("p_") or column == "mean_damage")):
        prefix = "win_" if column.startswith("win_") else "p_"
        columns = [c for c in data.columns if c.startswith(prefix) and not c.endswith(("_lo", "_hi"))]
    else:
        columns = []
    attack = bool(columns) and columns[0].startswith("p_")
    fig, axes = plt.subplots(
        1, 2 if attack else 1, figsize=(11 if attack else 8, 4.5), layout="constrained", squeeze=False
    )
    ax = axes[0, 0]
    if columns:
        for c in columns:
            (line,) = ax.plot(data[x], data[c], marker="o", label=measure_label(c, how))
            if f"{c}_lo" in data.columns:
                ax.fill_between(data[x], data[f"{c}_lo"], data[f"{c}_hi"], color=line.get_color(), alpha=0.2)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_ylabel("probability (exact)" if how == "exact" else "share of fights, 95% CI")
        ax.legend(fontsize=8)
    else:
        ax.plot(data[x], data[column], marker="o")
        ax.set_ylabel(measure_label(column, how))
    if attack:
        right = axes[0, 1]
        right.plot(data[x], data["mean_damage"], marker="o", color="#ed7d31")
        right.set_ylabel("mean damage (exact)")
        right.set_xlabel(xlabel)
        right.grid(alpha=0.3)
    ax.set_xlabel(xlabel)
    ax.grid(alpha=0.3)
    return fig


def _grid_of(data: Any, xs: str, ys: str, column: str) -> tuple[list[Any], list[Any], list[list[float]]]:
    xv = sorted(set(data[xs]), key=_order)
    yv = sorted(set(data[ys]), key=_order)
    cells = {(r[xs], r[ys]): float(r[column]) for r in data[[xs, ys, column]].to_dict("records")}
    z = [[cells.get((x, y), math.nan) for x in xv] for y in yv]
    return xv, yv, z


def _order(value: Any) -> tuple[int, Any]:
    return (0, value) if isinstance(value, (int, float)) else (1, str(value))


def _heatmap(
    fig: Any,
    ax: Any,
    data: Any,
    varies: list[Vary],
    labels: list[str],
    column: str,
    scale: tuple[float, float],
    bar: bool = True,
    how: str = "",
) -> Any:
    """Two varied fields: the first across, the second up, each cell the measure (written in it), coloured on
    `scale` (low, high)."""
    xv, yv, z = _grid_of(data, varies[0].text, varies[1].text, column)
    probability = column.startswith(("win_", "p_", "survives_")) or column in ("draw", "beyond_depth")
    low, high = scale
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
                    dark = (value - low) < 0.5 * (high - low)
                    ax.text(i, j, text, ha="center", va="center", fontsize=9, color="white" if dark else "black")
    if bar:
        fig.colorbar(image, ax=ax, label=measure_label(column, how))
    return image


def _scale(data: Any, column: str) -> tuple[float, float]:
    """The colour scale: 0 to 1 for a probability, else the measure's range over the whole table."""
    if column.startswith(("win_", "p_", "survives_")) or column in ("draw", "beyond_depth"):
        return 0.0, 1.0
    values = [float(v) for v in data[column] if v is not None and not math.isnan(float(v))]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    return (low, high) if high > low else (low, low + 1.0)


def _multiples(plt: Any, data: Any, varies: list[Vary], labels: list[str], column: str, how: str) -> Any:
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
        part = data[data[third] == value]
        image = _heatmap(fig, ax, part, varies, labels, column, _scale(data, column), bar=False, how=how)
        ax.set_title(f"{labels[2].split(' (')[0]} = {value}", fontsize=9)
    for ax in list(axes.flat)[len(values) :]:
        ax.axis("off")
    fig.colorbar(image, ax=axes.ravel().tolist(), label=measure_label(column, how))
    return fig


def difference_plot(result: Along, measure: str, path: Path) -> None:
    """`compare --vary ... --plot`: B - A of one measure along the axis (its first target), with its 95% band
    where simulated, and the line of no difference; a text axis (files, builds) is drawn in its order."""
    if len(result.columns) != 1:
        raise InputError(f"--plot draws B - A along one axis, not {len(result.columns)}", field="--plot")
    from matplotlib.ticker import PercentFormatter

    xs, ys, lows, highs = [], [], [], []
    for values, rows in result.points:
        d = next((d for d in rows[0][1] if d.measure == measure), None) if rows else None
        if d is None or d.difference is None:
            continue
        xs.append(values[0])
        ys.append(float(d.difference))
        lows.append(float(d.lo) if d.lo is not None else math.nan)
        highs.append(float(d.hi) if d.hi is not None else math.nan)
    text = any(isinstance(x, str) for x in xs)
    at = list(range(len(xs))) if text else xs
    fig, ax = _Figures().subplots(figsize=(8, 4.5), layout="constrained")
    (line,) = ax.plot(at, ys, marker="o", label="B - A")
    if not all(math.isnan(v) for v in lows):
        ax.fill_between(at, lows, highs, color=line.get_color(), alpha=0.2, label="95% CI (paired)")
    ax.axhline(0, color="grey", linewidth=1)
    if text:
        ax.set_xticks(at, [str(x) for x in xs])
    if measure.startswith(("win_", "p_", "survives_")) or measure in ("draw", "beyond_depth"):
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    pair = result.pair
    ax.set_xlabel(field_label(pair.axis.varies[0], pair.axis.document))
    ax.set_ylabel(f"B - A: {measure_label(measure, 'exact' if not pair.simulated else '')}")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    b = "B: by file" if pair.b.grid.files else f"B: {Path(pair.b.grid.source).name}"
    how = "exact" if not pair.simulated else f"n = {pair.n:,} fights each, paired"
    fig.suptitle(f"A: {Path(pair.a.grid.source).name}, {b} ({how})", fontsize=10)
    fig.savefig(path, dpi=100)
