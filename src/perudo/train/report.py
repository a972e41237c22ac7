"""The training report: learning curves as a PNG (matplotlib, Agg) and ``report.md``."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from perudo.bots.learned_bot import Network

    from .trainer import TrainConfig

__all__ = ["plot_curves", "write_report"]


def plot_curves(curves: list[dict[str, Any]], path: Path) -> None:
    """Exploitability per seat (left) and win rates with 95% intervals (right) by rounds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    xs = [p["rounds"] for p in curves]
    for key in sorted({k for p in curves for k in p if k.startswith("exploit_")}):
        game = key.removeprefix("exploit_")
        for i, seat in enumerate(("opener", "responder")):
            ys = [p[key][i] for p in curves if key in p]
            ax1.plot(xs[: len(ys)], ys, marker="o", label=f"{game} 1v1 {seat}")
    ax1.axhline(0.15, color="grey", linestyle=":", label="hard's target 0.15")
    ax1.set_xlabel("self-play rounds")
    ax1.set_ylabel("exact exploitability (gain per round)")
    ax1.set_title("Best response against the learned policy")
    ax1.legend(fontsize=7)  # the target line always has a label
    for key in sorted({k for p in curves for k in p if k.startswith("vs_")}):
        rate = [p[key][0] for p in curves]
        lo = [p[key][1] for p in curves]
        hi = [p[key][2] for p in curves]
        ax2.plot(xs, rate, marker="o", label=key.replace("_", " "))
        ax2.fill_between(xs, lo, hi, alpha=0.2)
    ax2.axhline(0.5, color="grey", linestyle=":")
    ax2.set_xlabel("self-play rounds")
    ax2.set_ylabel("heads-up rounds won (95% CI)")
    ax2.set_title("Against fixed references (Perudo, 1–5 dice each)")
    if ax2.get_legend_handles_labels()[0]:
        ax2.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_report(
    out: Path,
    config: TrainConfig,
    curves: list[dict[str, Any]],
    stopped_by: str,
    digest: str,
    network: Network,
) -> None:
    """``curves.png`` and ``report.md`` in ``out``."""
    plot_curves(curves, out / "curves.png")
    lines = [
        "# Training report (`perudo train`)",
        "",
        f"Weights `learned.npz`, version `{network.version}`, {network.parameters:,} parameters, "
        f"SHA-256 `{digest}`. Stopped by: {stopped_by}.",
        "",
        "![learning curves](curves.png)",
        "",
        "| rounds | seconds | loss | "
        + " | ".join(k for k in curves[-1] if k.startswith(("exploit_", "vs_")))
        + " |",
        "|---" * (3 + sum(1 for k in curves[-1] if k.startswith(("exploit_", "vs_")))) + "|",
    ]
    for p in curves:
        cells = [str(p["rounds"]), str(p["seconds"]), f"{p['loss']:.4f}"]
        for k in curves[-1]:
            if k.startswith("exploit_"):
                cells.append("{:.4f} / {:.4f}".format(*p.get(k, [float("nan")] * 2)))
            elif k.startswith("vs_"):
                v = p.get(k, [float("nan")] * 3)
                cells.append(f"{v[0]:.1%} ({v[1]:.1%}–{v[2]:.1%})")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Configuration:", "", "```", *(f"{k} = {v}" for k, v in asdict(config).items())]
    lines += ["```", ""]
    (out / "report.md").write_text("\n".join(lines))
