"""Server CPU of one move's messages, in this process: the states of random 6-seat Perudo
games (a seat to bid has a legal list of 150 and more bids), after each move every seat's view
drawn from the state and the six ``update`` messages written
(:func:`perudo.server.wirejson.write_each`), as the server does after each move; beside it,
the same messages validated and encoded by their pydantic model one by one (what the server
did at first). Prints, per move, the median and the fastest of ``--rounds`` passes over the
same moves, for the views alone and for the messages alone (docs/scaling.md).

    .venv/bin/python benchmarks/encode_move.py [--moves 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from perudo.core import PRESETS, GameState, apply, chance_action, new_game, view
from perudo.core.events import event_to_json
from perudo.server import protocol as p
from perudo.server.wirejson import write_each

SEATS = 6


def moves(count: int, seed: int = 1) -> list[tuple[GameState, list[dict[str, Any]]]]:
    """``count`` states of random games, each with the events of the move that made it."""
    rng = random.Random(seed)
    out: list[tuple[GameState, list[dict[str, Any]]]] = []
    version = 0
    while len(out) < count:
        state = new_game(PRESETS["perudo"], SEATS, rng)
        while not state.is_over and len(out) < count:
            seat = state.to_act
            action = (
                chance_action(state, rng)
                if seat is None
                else rng.choice(list(view(state, seat).legal))
            )
            state, events = apply(state, action, seat)
            batch = []
            for e in events:
                version += 1
                if e.audience is None:
                    batch.append({**event_to_json(e), "version": version})
            out.append((state, batch))
    return out


def messages(state: GameState, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "version": 1,
            "events": events,
            "view": view(state, seat).to_json(past=False),
            "hint": None,
            "timer": None,
            "past_tail": [],
        }
        for seat in range(SEATS)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    played = moves(args.moves)
    drawn = [messages(state, events) for state, events in played]

    def views() -> None:
        for state, _ in played:
            for seat in range(SEATS):
                view(state, seat).to_json(past=False)

    def written() -> None:
        for ms in drawn:
            write_each(p.Update, ms)

    def by_pydantic() -> None:
        for ms in drawn:
            for m in ms:
                p.Update.model_validate(m).model_dump_json()

    print(f"one move's six seats, over {len(played)} moves of random 6-seat Perudo games:")
    for name, one_pass in (
        ("the views (view(...).to_json())", views),
        ("the updates written (wirejson)", written),
        ("the updates by pydantic, one by one", by_pydantic),
    ):
        times = _per_move(one_pass, len(played), args.rounds)
        print(f"  {name}: median {statistics.median(times):.1f} µs, fastest {min(times):.1f} µs")


def _per_move(one_pass: Callable[[], None], count: int, rounds: int) -> list[float]:
    one_pass()
    times = []
    for _ in range(rounds):
        start = time.thread_time()
        one_pass()
        times.append((time.thread_time() - start) / count * 1e6)
    return times


if __name__ == "__main__":
    main()
