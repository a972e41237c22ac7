"""Training the learned policy (``perudo train``): self-play, the PyTorch loop, the report.

Needs the ``train`` extra (PyTorch's CPU build); playing with the trained weights does not
(:mod:`perudo.bots.learned_bot` runs them in numpy).
"""

from __future__ import annotations

from .trainer import TrainConfig, train

__all__ = ["TrainConfig", "train"]
