"""Abuse benchmark for the web app: ``python benchmarks/abuse.py [--seconds 8] [--attack NAME]``
(same as ``perudo bench-abuse``).

Starts a fresh server on 127.0.0.1 and runs the attacks of issue 14 against it (a chat crowd,
a spectator crowd, a table flood, slow headers, a message flood, sign-in floods), each for
``--seconds`` while a normal player plays; prints the player's action→event latency under
each, and checks that every game is still stored and replays and that the player's table
still moves.
"""

import argparse

from perudo.server.abusebench import main

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument(
        "--attack", action="append", help="run only this attack after the baseline (repeatable)"
    )
    args = parser.parse_args()
    main(seconds=args.seconds, only=args.attack)
