"""Charts as PNGs (matplotlib, without a display): the damage distribution of exact odds, a simulation's
outcome frequencies with their 95% intervals, and a Monte Carlo of fights' win rates and rounds."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError
from tohit.engine.odds import OddsResult

#: Damage values less likely than this, past the last more likely one, are cut from the chart (and it says so).
TAIL_CUT = 1e-6


def write_png(path: Path, option: str, draw: Any) -> None:
    """`draw(a path)` written whole to `path` (`cli/output.write_file`), a PNG (else an InputError on `option`)."""
    from tohit.cli.output import write_file

    if path.suffix.lower() != ".png":
        raise InputError(f"the plot is written as PNG: give a file name ending in .png, not {path}", field=option)
    write_file(path, draw, field=option)


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _integer_ticks(ax: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def shown_distribution(dist: list[tuple[int, Fraction]]) -> tuple[list[tuple[int, Fraction]], Fraction]:
    """The damage values a chart shows (up to the last with probability >= TAIL_CUT) and the probability cut."""
    last = max((i for i, (_, p) in enumerate(dist) if p >= TAIL_CUT), default=len(dist) - 1)
    cut = sum((p for _, p in dist[last + 1 :]), Fraction(0))
    return dist[: last + 1], cut


def damage_plot(result: OddsResult, path: Path, *, log: bool = False) -> None:
    """The exact damage distribution of each target, its long tail cut below TAIL_CUT (said on the chart)."""
    plt = _pyplot()
    fig, axes = plt.subplots(len(result.targets), 1, figsize=(8, 3 * len(result.targets)), squeeze=False)
    for ax, target in zip(axes[:, 0], result.targets, strict=True):
        dist = [(int(v), Fraction(p)) for v, p in target.distribution("damage")]
        shown, cut = shown_distribution(dist)
        ax.bar([v for v, _ in shown], [100 * float(p) for _, p in shown], color="#4472c4")
        ax.set_title(f"{result.system}: {target.name} (mean damage {float(target.mean_damage):.2f})")
        ax.set_xlabel("damage")
        ax.set_ylabel("probability (%)" + (", log scale" if log else ""))
        if log:
            ax.set_yscale("log")
        _integer_ticks(ax)
        if cut:
            ax.text(
                0.99,
                0.95,
                f"tail beyond {shown[-1][0]} cut: {float(cut):.2e} in all (each value < {TAIL_CUT:g})",
                transform=ax.transAxes,
                ha="right",
                va="top",
                fontsize=8,
            )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def simulation_plot(data: dict[str, Any], path: Path) -> None:
    """`simulate --json` as a chart: each target's outcome frequencies with 95% intervals, and its damage
    histogram."""
    plt = _pyplot()
    targets = data["targets"]
    fig, axes = plt.subplots(len(targets), 2, figsize=(11, 3 * len(targets)), squeeze=False)
    for (left, right), target in zip(axes, targets, strict=True):
        labels = list(target["result"])
        p = [100 * target["result"][k]["p"] for k in labels]
        low = [100 * target["result"][k]["ci95"][0] for k in labels]
        high = [100 * target["result"][k]["ci95"][1] for k in labels]
        left.bar(
            labels,
            p,
            color="#4472c4",
            yerr=[
                [max(0.0, a - b) for a, b in zip(p, low, strict=True)],
                [max(0.0, b - a) for a, b in zip(p, high, strict=True)],
            ],
            capsize=4,
        )
        left.set_title(f"{data['system']}: {target['name']} (n = {data['n']:,})")
        left.set_ylabel("frequency (%), 95% CI")
        hist = target["damage"]["histogram"]
        values = sorted(int(v) for v in hist)
        right.bar(values, [100 * hist[str(v)] / target["n"] for v in values], color="#ed7d31")
        right.set_title(f"damage: mean {target['damage']['mean']:.2f}, sd {target['damage']['sd']:.2f}")
        right.set_xlabel("damage")
        right.set_ylabel("frequency (%)")
        _integer_ticks(right)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def fights_plot(data: dict[str, Any], rounds: dict[int, int], path: Path) -> None:
    """`fight -n --json` as a chart: each side's win rate and the draws with 95% intervals, and how many rounds
    the fights lasted."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.5))
    names = [s["name"] for s in data["sides"]] + ["draw"]
    parts = [*data["sides"], data["draws"]]
    p = [100 * s["p"] for s in parts]
    err = [
        [max(0.0, a - 100 * s["ci95"][0]) for a, s in zip(p, parts, strict=True)],
        [max(0.0, 100 * s["ci95"][1] - a) for a, s in zip(p, parts, strict=True)],
    ]
    left.bar(names, p, yerr=err, capsize=4, color=["#4472c4", "#ed7d31", "#a5a5a5", "#70ad47"][: len(names)])
    left.set_title(f"{data['system']}: who wins ({data['n']:,} fights)")
    left.set_ylabel("share of fights (%), 95% CI")
    values = sorted(rounds)
    total = sum(rounds.values()) or 1
    right.bar(values, [100 * rounds[v] / total for v in values], color="#4472c4")
    right.set_title(f"rounds: mean {data['rounds']['mean']:.2f}")
    right.set_xlabel("rounds")
    right.set_ylabel("share of fights (%)")
    _integer_ticks(right)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
