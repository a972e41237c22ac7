"""Small rounds the solver tests run their kernels on (one die each, and three faces)."""

from __future__ import annotations

import dataclasses

from perudo import LIARS_DICE_OPENSPIEL, PERUDO

PERUDO3 = dataclasses.replace(PERUDO, faces=3)

GAMES = [
    ("perudo 1v1", PERUDO, (1, 1), False),
    ("liars_dice_openspiel 1v1", LIARS_DICE_OPENSPIEL, (1, 1), False),
    ("perudo 3 faces 2v1", PERUDO3, (2, 1), False),
    ("perudo 3 faces 1v2", PERUDO3, (1, 2), False),
    ("perudo 3 faces 1v2 palifico", PERUDO3, (1, 2), True),
]
"""``(label, rules, dice, palifico)`` of each round."""
