"""The damage distribution as a PNG (matplotlib, without a display)."""

from __future__ import annotations

from pathlib import Path

from tohit.engine.odds import OddsResult


def damage_plot(result: OddsResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(result.targets), 1, figsize=(8, 3 * len(result.targets)), squeeze=False)
    for ax, target in zip(axes[:, 0], result.targets, strict=True):
        dist = [(int(v), float(p)) for v, p in target.distribution("damage")]
        ax.bar([v for v, _ in dist], [100 * p for _, p in dist], color="#4472c4")
        ax.set_title(f"{result.system}: {target.name} (mean {float(target.mean_damage):.2f})")
        ax.set_xlabel("damage")
        ax.set_ylabel("probability (%)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
