"""Your own bot, in the arena and everywhere a bot is named, without touching perudo.

    .venv/bin/perudo arena --rules perudo --players 4 --bots examples.mybot:MyBot,prob --jobs 2

A bot is a class (or a function) that takes a seed and has a ``name``, ``act(view)``, which
returns one of ``view.legal``, and ``call_calza(view)``, asked out of turn (``BotBase`` says no
and gives a seeded ``self.rng``). It sees only its seat's view: its own dice, every bid, the
dice counts. Name it ``module:Class`` from the folder the module's package is in, or install it
with an entry point of the group ``perudo.bots`` (docs/bots.md).
"""

from __future__ import annotations

from perudo.bots.base import BotBase
from perudo.bots.probability import bid_probability
from perudo.core import Bid, Dudo, PlayerAction, PlayerView


class MyBot(BotBase):
    """Cautious: doubts a bid it believes less than 40%, else makes its likeliest bid."""

    name = "cautious"

    def act(self, view: PlayerView) -> PlayerAction:
        if view.bid is not None and Dudo() in view.legal and bid_probability(view) < 0.4:
            return Dudo()
        bids = [a for a in view.legal if isinstance(a, Bid)]
        if not bids:  # nothing to raise to: the doubt is the only way on
            return view.legal[0]
        best = max(bid_probability(view, b) for b in bids)
        likeliest = [b for b in bids if bid_probability(view, b) >= best - 1e-9]
        return self.rng.choice(likeliest[:3])
