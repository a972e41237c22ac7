"""The rules core: every rule of docs/rules.md, pure and standard-library only.

Nothing here imports outside the standard library or from perudo's other packages; the
layering test in ``tests/test_layers.py`` checks it.
"""

from __future__ import annotations

from .actions import (
    Action,
    Bid,
    Calza,
    ChanceAction,
    ChoosePalifico,
    Deal,
    Dudo,
    Pass,
    PlayerAction,
    Reroll,
    SetAside,
    parse_action,
)
from .bidding import bid_refusal, count_bid, count_hand, ordered_bids, raise_error, raises_after
from .chance import chance_action, deal, new_game, roll_off
from .engine import (
    LegalActions,
    apply,
    calza_callers,
    check_action,
    is_legal,
    legal_actions,
    start_game,
    start_round,
)
from .errors import IllegalActionError, NotationError, PerudoError, Refusal
from .events import (
    ActionTaken,
    DiceDealt,
    DiceRerolled,
    Event,
    GameOver,
    PalificoChosen,
    Reveal,
    RoundResolved,
    RoundStarted,
    event_to_json,
    visible_to,
)
from .record import GameRecord
from .resolve import next_seat, reveal_order
from .rules import (
    BLUFF,
    LIARS_DICE,
    LIARS_DICE_OPENSPIEL,
    PERUDO,
    PERUDO_CALZA,
    PRESETS,
    SWITCHES,
    RuleSet,
    find_ruleset,
    preset_name,
    unsupported,
)
from .state import GameState, LogEntry, Phase, RoundRecord
from .views import PlayerView, round_to_json, view

__all__ = [
    "BLUFF",
    "LIARS_DICE",
    "LIARS_DICE_OPENSPIEL",
    "PERUDO",
    "PERUDO_CALZA",
    "PRESETS",
    "SWITCHES",
    "Action",
    "ActionTaken",
    "Bid",
    "Calza",
    "ChanceAction",
    "ChoosePalifico",
    "Deal",
    "DiceDealt",
    "DiceRerolled",
    "Dudo",
    "Event",
    "GameOver",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "LegalActions",
    "LogEntry",
    "NotationError",
    "PalificoChosen",
    "Pass",
    "PerudoError",
    "Phase",
    "PlayerAction",
    "PlayerView",
    "Refusal",
    "Reroll",
    "Reveal",
    "RoundRecord",
    "RoundResolved",
    "RoundStarted",
    "RuleSet",
    "SetAside",
    "apply",
    "bid_refusal",
    "calza_callers",
    "chance_action",
    "check_action",
    "count_bid",
    "count_hand",
    "deal",
    "event_to_json",
    "find_ruleset",
    "is_legal",
    "legal_actions",
    "new_game",
    "next_seat",
    "ordered_bids",
    "parse_action",
    "preset_name",
    "raise_error",
    "raises_after",
    "reveal_order",
    "roll_off",
    "round_to_json",
    "start_game",
    "start_round",
    "unsupported",
    "view",
    "visible_to",
]
