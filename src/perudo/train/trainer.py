"""``perudo train``: the learned policy's training loop (PyTorch, CPU, one thread).

Method: advantage-based regret minimization over a learned action-value network (the CFR family
for sampled play). Every iteration plays ``rounds_per_iteration`` self-play rounds with the
current network (:mod:`perudo.train.selfplay`), keeps their samples in a replay buffer of the
latest ``buffer`` rows, and takes ``steps_per_iteration`` Adam steps on the squared error
between the network's value of each row and the round's outcome. The policy played is regret
matching over those values (:func:`perudo.bots.learned_bot.regret_matching`).

Everything is seeded (the deals, the exploration, the network's initialisation, the batches),
and the run stops after ``rounds`` rounds, so the same configuration gives the same weights
(``minutes`` caps the wall time as a safety net; a run it stops says so). Every
``eval_every`` rounds it measures (:mod:`perudo.train.evaluate`) and saves a checkpoint; at the
end it writes the weights (``.npz`` and manifest), ``curves.json``, ``curves.png`` and
``report.md`` into the output directory.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from perudo.bots.learned_bot import FEATURES, Network
from perudo.registry import make_bot

from .evaluate import duel, exploitability, learned, solved_rounds
from .selfplay import TableDistribution, play_round

__all__ = ["TrainConfig", "train"]


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 1
    rounds: int = 60_000
    """Self-play rounds in all (the run's length)."""
    minutes: float = 75.0
    """Wall-time cap (a safety net; the run is reproducible only when ``rounds`` ends it)."""
    hidden: int = 64
    layers: int = 2
    lr: float = 1e-3
    batch: int = 256
    buffer: int = 200_000
    rounds_per_iteration: int = 200
    steps_per_iteration: int = 100
    explore: float = 0.1
    eval_every: int = 10_000
    """Rounds between checkpoints (measured and saved)."""
    eval_rounds: int = 400
    """Heads-up rounds against each reference per checkpoint."""
    exploit: bool = True
    """Measure exact exploitability at 1v1 at each checkpoint."""
    references: tuple[str, ...] = ("medium", "balanced")
    seats: tuple[int, ...] = TableDistribution().seats
    rule_sets: tuple[str, ...] = ()
    """Preset names to train on (empty: every preset and the joker game)."""
    max_dice: int = 5
    extra: dict[str, Any] = field(default_factory=dict)


def _model(config: TrainConfig) -> Any:
    import torch
    from torch import nn

    torch.manual_seed(config.seed)
    dims = [len(FEATURES)] + [config.hidden] * config.layers
    mods: list[nn.Module] = []
    for a, b in itertools.pairwise(dims):
        mods += [nn.Linear(a, b), nn.ReLU()]
    mods.append(nn.Linear(dims[-1], 1))
    return nn.Sequential(*mods)


def _network(model: Any, version: str) -> Network:
    layers = []
    for mod in model:
        if hasattr(mod, "weight"):
            w = mod.weight.detach().numpy().astype(np.float64).T.copy()
            b = mod.bias.detach().numpy().astype(np.float64).copy()
            layers.append((w, b))
    return Network(tuple(layers), version)


def _distribution(config: TrainConfig) -> TableDistribution:
    from perudo.core import find_ruleset

    from .selfplay import JOKER

    if config.rule_sets:
        sets = tuple(JOKER if n == "joker" else find_ruleset(n) for n in config.rule_sets)
    else:
        sets = TableDistribution().rule_sets
    return TableDistribution(rule_sets=sets, seats=config.seats, max_dice=config.max_dice)


def train(
    config: TrainConfig,
    out: Path,
    *,
    progress: Callable[[str], None] = print,
) -> Network:
    """Run the training of ``config``; write weights, curves and report into ``out``."""
    import torch

    torch.set_num_threads(1)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(config.seed)
    batch_rng = np.random.default_rng(config.seed)
    dist = _distribution(config)
    model = _model(config)
    opt = torch.optim.Adam(model.parameters(), lr=config.lr)
    width = len(FEATURES)
    xs = np.zeros((config.buffer, width), dtype=np.float32)
    ys = np.zeros(config.buffer, dtype=np.float32)
    filled = 0
    head = 0
    if config.exploit:
        progress("solving the 1v1 rounds that each checkpoint's exploitability is measured in")
    solutions = solved_rounds() if config.exploit else {}
    curves: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    played = 0
    decisions = 0
    loss_avg = float("nan")
    stopped_by = "rounds"
    next_eval = 0

    def checkpoint() -> None:
        net = _network(model, f"{config.seed}-{played}")
        point: dict[str, Any] = {
            "rounds": played,
            "decisions": decisions,
            "seconds": round(time.perf_counter() - t0, 1),
            "loss": loss_avg,
        }
        if solutions:
            bot = learned(net)
            for e in exploitability(bot.policy, solutions):
                point[f"exploit_{e.game}"] = [e.opener, e.responder]
        for i, ref in enumerate(config.references):
            d = duel(learned(net, seed=1), make_bot(ref, seed=2), config.eval_rounds, 1000 + i)
            point[f"vs_{ref}"] = [d.rate, *d.interval]
        curves.append(point)
        net.save(out / "checkpoints" / f"learned-{played:08d}.npz")
        progress(
            "checkpoint "
            + ", ".join(
                f"{k} {_fmt(v)}" for k, v in point.items() if k not in ("decisions", "seconds")
            )
        )

    while played < config.rounds:
        if played >= next_eval:
            checkpoint()
            next_eval += config.eval_every
        net = _network(model, "training")
        for _ in range(min(config.rounds_per_iteration, config.rounds - played)):
            sample = play_round(net, rng, dist, explore=config.explore)
            played += 1
            decisions += sample.decisions
            for row, target in zip(sample.rows, sample.targets, strict=True):
                xs[head] = row
                ys[head] = target
                head = (head + 1) % config.buffer
                filled = min(filled + 1, config.buffer)
        losses = []
        for _ in range(config.steps_per_iteration):
            idx = batch_rng.integers(0, filled, size=min(config.batch, filled))
            x = torch.from_numpy(xs[idx])
            y = torch.from_numpy(ys[idx])
            loss = torch.mean((model(x)[:, 0] - y) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        loss_avg = float(np.mean(losses))
        elapsed = time.perf_counter() - t0
        progress(
            f"rounds {played:,}/{config.rounds:,}  decisions {decisions:,}  "
            f"loss {loss_avg:.4f}  {elapsed:.0f}s"
        )
        if elapsed > config.minutes * 60:
            stopped_by = "minutes"
            progress(f"stopped by the {config.minutes:g}-minute cap at {played:,} rounds")
            break
    checkpoint()
    final = _network(model, f"{config.seed}-{played}")
    digest = final.save(out / "learned.npz")
    (out / "curves.json").write_text(
        json.dumps({"config": asdict(config), "stopped_by": stopped_by, "curves": curves}, indent=1)
        + "\n"
    )
    from .report import write_report

    write_report(out, config, curves, stopped_by, digest, final)
    progress(f"weights {out / 'learned.npz'} (sha256 {digest[:16]}…), report {out / 'report.md'}")
    return final


def _fmt(v: Any) -> str:
    if isinstance(v, list):
        return "/".join(f"{x:.3f}" for x in v[:2]) if len(v) == 2 else f"{v[0]:.3f}"
    if isinstance(v, float):
        return f"{v:.4f}"
    return str(v)
