"""Showing an arena's figures: a rich table, a JSON file and a matplotlib chart."""

from __future__ import annotations

import json
from pathlib import Path

from rich import box
from rich.table import Table

from .runner import ArenaResult

__all__ = ["figures_table", "plot", "write_json"]


def figures_table(result: ArenaResult) -> Table:
    """One row per bot: seat-games, wins, win rate with its 95% Wilson interval, mean place,
    OpenSkill rating."""
    title = f"{result.rules} · {result.players} players · {result.games} games · seed {result.seed}"
    # No vertical rules and two spaces between columns: the table fits 80 columns whole (a
    # boxed one cut the names and intervals to "medi…", "4.7%…"); headers may wrap, data not.
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1, 0, 0))
    for col in ("bot", "seats", "games", "wins", "win rate", "95% CI", "mean place"):
        table.add_column(
            col, justify="left" if col == "bot" else "right", no_wrap=col in ("bot", "95% CI")
        )
    for col in ("μ", "σ", "μ − 3σ"):
        table.add_column(col, justify="right")
    for f in result.figures:
        table.add_row(
            f.bot,
            str(f.seats_per_game),
            str(f.games),
            str(f.wins),
            f"{f.win_rate:.1%}",
            f"{f.ci_low:.1%}–{f.ci_high:.1%}",
            f"{f.mean_place:.2f}",
            f"{f.mu:.2f}",
            f"{f.sigma:.2f}",
            f"{f.ordinal:.2f}",
        )
    table.caption = (
        f"fair share of wins: {1 / result.players:.1%} per seat · μ, σ: OpenSkill rating"
    )
    return table


def write_json(result: ArenaResult, path: Path) -> None:
    """Write :meth:`ArenaResult.to_json` to ``path``."""
    path.write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")


def plot(result: ArenaResult, path: Path) -> None:
    """Draw win rates (with 95% intervals and the fair share) and OpenSkill ratings."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [f.bot for f in result.figures]
    xs = list(range(len(names)))
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    rates = [f.win_rate for f in result.figures]
    errs = [
        [max(0.0, f.win_rate - f.ci_low) for f in result.figures],
        [max(0.0, f.ci_high - f.win_rate) for f in result.figures],
    ]
    left.bar(xs, rates, yerr=errs, capsize=6, color="#4878a8")
    left.axhline(1 / result.players, color="#c44", linestyle="--", label="fair share")
    left.set_xticks(xs, names)
    left.set_ylabel("win rate per seat (95% Wilson interval)")
    left.set_ylim(0, 1)
    left.legend()
    mus = [f.mu for f in result.figures]
    sigmas = [f.sigma for f in result.figures]
    right.bar(xs, mus, yerr=sigmas, capsize=6, color="#6a9f58")
    right.set_xticks(xs, names)
    right.set_ylabel("OpenSkill μ ± σ")
    fig.suptitle(
        f"{result.rules}, {result.players} players, {result.games} games (seed {result.seed})"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
