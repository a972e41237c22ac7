"""Replays of finished games: the stored record folded through the core, public frames only.

A replay shows what a spectator would have seen (``view(state, None)`` and the events
:func:`perudo.core.visible_to` gives a spectator): hands revealed by a challenge appear,
hands that P-21 kept hidden stay hidden for good, and dealt dice never show.
"""

from __future__ import annotations

from typing import Any

from perudo.analysis import every_hand
from perudo.core import (
    Deal,
    Reroll,
    view,
    visible_to,
)
from perudo.core.actions import action_to_json
from perudo.core.events import event_to_json

from .store import GameRow

__all__ = ["replay_frames"]


def replay_frames(game: GameRow, show_hands: bool = False) -> dict[str, Any]:
    """Every move of ``game`` as a frame: the move, its public events, the public view after.

    Frames carry the view without ``past`` (the finished rounds are in the frames' events);
    the last frame's view is whole. ``show_hands``: the table agreed to show every hand at the
    end; a finished game's replay then carries every hand of every round
    (:func:`perudo.analysis.every_hand`), and an unfinished one's nothing more.

    :raises ValueError: if the record does not replay (naming the move and rule), or holds
        a move the core cannot read.
    """
    record = game.record()
    state = record.start()
    first = view(state, None).to_json(past=False)
    frames: list[dict[str, Any]] = [{"n": 0, "move": None, "events": [], "view": first}]
    for step in record.steps():
        state = step.after
        action = step.action
        move: dict[str, Any]
        if isinstance(action, Deal):
            move = {"seat": None, "action": "deal"}
        elif isinstance(action, Reroll):
            move = {"seat": None, "action": "reroll"}
        else:
            move = {"seat": step.seat, "action": str(action), "action_info": action_to_json(action)}
        data = view(step.after, None).to_json(past=step.n == len(record.moves))
        frames.append(
            {
                "n": step.n,
                "move": move,
                "events": [event_to_json(e) for e in step.events if visible_to(e, None)],
                "view": data,
            }
        )
    hands = None
    if show_hands and game.finished_at is not None and state.winner is not None:
        hands = [
            {"round": r, "hands": [list(h) for h in round_hands]}
            for r, round_hands in sorted(every_hand(game.record()).items())
        ]
    return {
        "hands": hands,
        "game_id": game.key,
        "table_id": game.table_id,
        "names": game.names,
        "winner": game.winner,
        "finished": game.finished_at is not None,
        "frames": frames,
    }
