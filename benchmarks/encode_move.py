"""Server CPU of one move's messages, in this process: a 6-seat Perudo table where a seat is
to bid (a legal list of 150 and more bids), every seat's view drawn from the state and the
six ``update`` messages written together (:func:`perudo.server.wirejson.write_each`), as the
server does after each move; beside it, the same messages validated and encoded by their
pydantic model one by one (what the server did before). Prints the median and the fastest of
200 moves of each (docs/scaling.md).

    .venv/bin/python benchmarks/encode_move.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from perudo.core import PRESETS, apply, chance_action, new_game, view
from perudo.server import protocol as p
from perudo.server.wirejson import write_each

SEATS = 6
RUNS = 200


def main() -> None:
    rng = random.Random(1)
    state = new_game(PRESETS["perudo"], SEATS, rng)
    while state.to_act is None:  # the deal
        state, _ = apply(state, chance_action(state, rng), None)

    def messages() -> list[dict[str, Any]]:
        return [
            {
                "version": 1,
                "events": [],
                "view": view(state, seat).to_json(past=False),
                "hint": None,
                "timer": None,
                "past_tail": [],
            }
            for seat in range(SEATS)
        ]

    def written() -> None:
        write_each(p.Update, messages())

    def by_pydantic() -> None:
        for m in messages():
            p.Update.model_validate(m).model_dump_json()

    bidder = view(state, state.to_act)
    print(
        f"one move's updates for {SEATS} seats (a legal list of {len(bidder.legal)} actions), "
        f"views included, over {RUNS} moves:"
    )
    for name, one_move in (("written together", written), ("pydantic, one by one", by_pydantic)):
        times = _times(one_move)
        print(
            f"  {name}: median {statistics.median(times) * 1e3:.3f} ms, "
            f"fastest {min(times) * 1e3:.3f} ms"
        )


def _times(one_move: Callable[[], None]) -> list[float]:
    one_move()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        one_move()
        times.append(time.perf_counter() - start)
    return times


if __name__ == "__main__":
    main()
