"""Server CPU of one move's messages, in this process: a 6-seat Perudo table where a seat is
to bid (a legal list of 150 and more bids), every seat's view drawn from the state and its
``update`` encoded (:func:`perudo.server.tables.presenter.encode`), as the server does after
each move. Prints the median and the fastest of 200 moves (docs/scaling.md).

    .venv/bin/python benchmarks/encode_move.py
"""

from __future__ import annotations

import random
import statistics
import time

from perudo.core import PRESETS, apply, chance_action, new_game, view
from perudo.server import protocol as p
from perudo.server.tables.presenter import encode

SEATS = 6
RUNS = 200


def main() -> None:
    rng = random.Random(1)
    state = new_game(PRESETS["perudo"], SEATS, rng)
    while state.to_act is None:  # the deal
        state, _ = apply(state, chance_action(state, rng), None)

    def one_move() -> None:
        for seat in range(SEATS):
            data = view(state, seat).to_json(past=False)
            message = {"version": 1, "events": [], "view": data, "hint": None, "timer": None}
            encode(p.Update, {**message, "past_tail": []})

    one_move()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        one_move()
        times.append(time.perf_counter() - start)
    bidder = view(state, state.to_act)
    print(
        f"one move's updates for {SEATS} seats (a legal list of {len(bidder.legal)} actions): "
        f"median {statistics.median(times) * 1e3:.3f} ms, fastest {min(times) * 1e3:.3f} ms "
        f"over {RUNS} moves"
    )


if __name__ == "__main__":
    main()
