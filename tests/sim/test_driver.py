"""The one decision sequence (perudo.sim.driver): what a game waits for, and the loop.

The comparison of every front end on the same seeded games is tests/test_one_driver.py.
"""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Callable

from rich.console import Console

from perudo.bots import RandomBot
from perudo.core import (
    PERUDO,
    PERUDO_CALZA,
    Bid,
    Calza,
    ChoosePalifico,
    Dudo,
    GameState,
    Pass,
    Phase,
    PlayerAction,
    Reroll,
    RuleSet,
    SetAside,
    apply,
    chance_action,
    legal_actions,
    new_game,
    start_round,
)
from perudo.sim.driver import CalzaWindow, Roll, Turn, calza_window, pending, run
from perudo.sim.match import play_game

CALZA_REROLL = dataclasses.replace(PERUDO_CALZA, set_aside=True, palifico="off")
"""Calza out of turn (P-50) with V-9's set aside and re-roll: the window after a re-roll."""


def _aside_and_reroll(seed: int = 3) -> tuple[GameState, GameState]:
    """A 4-seat game under CALZA_REROLL: (after the opening bid, after a set-aside and re-roll)."""
    rng = random.Random(seed)
    game = new_game(CALZA_REROLL, 4, rng)
    game, _ = apply(game, Bid(1, 2))
    bid_state = game
    aside = next(a for a in legal_actions(game) if isinstance(a, SetAside))
    game, _ = apply(game, aside)
    assert pending(game) == Roll(reroll=True)
    game, _ = apply(game, chance_action(game, rng))
    return bid_state, game


def test_pending_a_new_round_waits_for_the_deal_p3() -> None:
    game = start_round(PERUDO, ((2, 2), (3, 3), (4, 4)))
    game, _ = apply(game, Bid(1, 3))
    game, _ = apply(game, Dudo())
    assert game.phase is Phase.DEAL
    assert pending(game) == Roll(reroll=False)


def test_pending_the_seat_to_act_decides() -> None:
    game = new_game(PERUDO, 3, random.Random(1))
    assert pending(game) == Turn(game.to_act, palifico_choice=False)  # type: ignore[arg-type]


def test_pending_the_two_player_palifico_choice_is_a_turn_p34() -> None:
    game = start_round(PERUDO, ((2, 2), (3, 3, 3)))
    game, _ = apply(game, Bid(3, 2))
    game, _ = apply(game, Dudo())  # seat 0 is down to one die, heads-up
    assert game.phase is Phase.CHOOSE_PALIFICO
    assert pending(game) == Turn(0, palifico_choice=True)
    game, _ = apply(game, ChoosePalifico(True))
    assert pending(game) == Roll(reroll=False)


def test_pending_a_calza_window_opens_after_a_bid_p50_p53() -> None:
    game = new_game(PERUDO_CALZA, 4, random.Random(3))
    bidder = game.to_act
    assert bidder is not None
    game, _ = apply(game, Bid(2, 5))
    n = 4
    left_first = tuple((bidder + k) % n for k in range(1, n))
    # P-50: neither the bidder nor the seat to act; P-53: left of the bidder first.
    assert pending(game) == CalzaWindow(tuple(s for s in left_first if s != game.to_act))
    assert pending(game, window_answered=True) == Turn(game.to_act, palifico_choice=False)  # type: ignore[arg-type]


def test_pending_a_calza_window_opens_after_a_v9_reroll_too() -> None:
    bid_state, game = _aside_and_reroll()
    assert game.must_raise and game.bid is not None
    window = pending(game)
    assert isinstance(window, CalzaWindow)
    assert window.seats == calza_window(bid_state)
    assert game.to_act not in window.seats  # the re-rolling seat must raise (P-50, V-9)
    assert pending(game, window_answered=True) == Turn(game.to_act, palifico_choice=False)  # type: ignore[arg-type]


def test_pending_no_window_without_out_of_turn_calza_v7() -> None:
    for calza in ("off", "to_act"):
        rules = dataclasses.replace(PERUDO, calza=calza)
        game = new_game(rules, 4, random.Random(3))
        game, _ = apply(game, Bid(2, 5))
        assert calza_window(game) == ()
        assert pending(game) == Turn(game.to_act, palifico_choice=False)  # type: ignore[arg-type]


def test_pending_no_window_on_a_pass_v10() -> None:
    rules = RuleSet(calza="on", passing=True, palifico="off", faces=9)
    for seed in range(200):
        game = new_game(rules, 4, random.Random(seed))
        game, _ = apply(game, Bid(1, 2))
        if Pass() in legal_actions(game):
            break
    else:
        raise AssertionError("no seed gave a hand of different faces")
    game, _ = apply(game, Pass())
    assert calza_window(game) == ()
    assert isinstance(pending(game), Turn)


def test_pending_nothing_once_the_game_is_over_p23() -> None:
    game = start_round(PERUDO, ((3,), (3,)), opener=0, palifico=False)
    game, _ = apply(game, Bid(1, 3))
    game, _ = apply(game, Dudo())
    assert game.is_over
    assert pending(game) is None


def test_run_offers_calza_after_a_reroll_and_stops_at_the_first_yes() -> None:
    asked_after: list[type] = []

    def calza(state: GameState, seat: int) -> bool:
        assert state.log is not None
        asked_after.append(type(state.log[2]))
        return isinstance(state.log[2], Reroll) and len(asked_after) > 3

    def act(state: GameState, seat: int) -> object:
        legal = legal_actions(state)
        asides = [a for a in legal if isinstance(a, SetAside)]
        return asides[0] if asides else legal[0]

    rng = random.Random(5)
    end = run(new_game(CALZA_REROLL, 4, rng), rng, act, calza)  # type: ignore[arg-type]
    assert end.is_over
    assert Reroll in asked_after and Bid in asked_after
    calls = [a for s, a in end.moves() if isinstance(a, Calza)]
    assert calls, "a seat that said yes after a re-roll called calza"


class _Spy(RandomBot):
    """A random bot that records after which move it was asked about calza."""

    def __init__(self, seed: int, log: list[str]) -> None:
        super().__init__(seed)
        self.log = log

    def call_calza(self, view):  # type: ignore[no-untyped-def]
        last = view.actions[-1][1] if view.actions else None
        self.log.append("bid" if isinstance(last, Bid) else "reroll")
        return False


def test_arena_offers_calza_after_a_v9_reroll() -> None:
    """The arena's play_game asked only after bids before the one driver."""
    log: list[str] = []
    play_game(CALZA_REROLL, [_Spy(s, log) for s in range(4)], random.Random(2))
    assert "reroll" in log and "bid" in log


def test_terminal_offers_calza_after_a_v9_reroll() -> None:
    """The terminal asked only after bids before the one driver (P-50, V-9)."""
    from perudo.cli.tui.session import PlayConfig, Session

    config = PlayConfig(
        rules=CALZA_REROLL, players=4, level="random", seed=4, delay=0, calza_ask="always"
    )
    session: Session
    asked: list[str] = []

    def read(prompt: str) -> str:
        st = session.state
        assert st is not None
        if st.to_act != session.me:  # the calza prompt
            assert st.log is not None
            asked.append(type(st.log[2]).__name__)
            return ""
        asides = [a for a in legal_actions(st) if isinstance(a, SetAside)]
        if asides:
            return "aside " + "".join(map(str, asides[0].dice))
        return str(legal_actions(st)[-1] if st.bid is not None else Bid(1, 2))

    console = Console(file=io.StringIO(), width=80, color_system=None)
    session = Session(config, console, read=read, sleep=lambda s: None)
    assert session.run() == 0
    assert session.state is not None and session.state.is_over
    assert "Reroll" in asked


def _random_game(
    rules: RuleSet, seed: int, calza: Callable[[GameState, int], bool] | None
) -> tuple[list[tuple[int, PlayerAction]], int | None, int]:
    rng = random.Random(seed)
    moves: list[tuple[int, PlayerAction]] = []

    def act(state: GameState, seat: int) -> PlayerAction:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        moves.append((seat, action))
        return action

    end = run(new_game(rules, 5, rng), rng, act, calza)
    return moves, end.winner, end.round


def test_run_with_nobody_asked_makes_the_moves_of_every_window_declined_p50() -> None:
    """``calza=None``: no window is opened (none worked out), and the game is the one in which
    every seat offered calza declines."""
    rules = dataclasses.replace(PERUDO_CALZA, dice_per_player=3)
    for seed in range(20):
        asked: list[int] = []

        def decline(state: GameState, seat: int, asked: list[int] = asked) -> bool:
            asked.append(seat)
            return False

        assert _random_game(rules, seed, None) == _random_game(rules, seed, decline)
        assert asked, "the declining seats were offered windows"
