"""The match driver: whole games through the core, views only, out-of-turn calza (P-50, P-53)."""

from __future__ import annotations

import random

import pytest

from perudo import (
    PERUDO,
    PERUDO_CALZA,
    Bid,
    Calza,
    Dudo,
    PlayerAction,
    PlayerView,
    calza_callers,
)
from perudo.bots import RandomBot
from perudo.bots.base import BotBase
from perudo.sim.match import IllegalBotAction, play_game


class Lowest(BotBase):
    """Bids the lowest legal bid, or doubts when no bid is left; logs every calza question."""

    name = "lowest"

    def __init__(self, seat: int, log: list[tuple[int, Bid | None]], says: bool) -> None:
        super().__init__(0)
        self.seat = seat
        self.log = log
        self.says = says

    def act(self, view: PlayerView) -> PlayerAction:
        assert type(view) is PlayerView
        bids = [a for a in view.legal if isinstance(a, Bid)]
        return bids[0] if bids else view.legal[0]

    def call_calza(self, view: PlayerView) -> bool:
        assert type(view) is PlayerView and view.seat == self.seat
        assert Calza() in view.legal and not view.my_turn
        self.log.append((self.seat, view.bid))
        return self.says


def test_calza_is_offered_left_of_the_bidder_first_and_the_first_yes_wins_P53() -> None:
    log: list[tuple[int, Bid | None]] = []
    says = [False, False, True, True, True]
    bots = [Lowest(s, log, says[s]) for s in range(5)]
    result = play_game(PERUDO_CALZA, bots, random.Random(3))
    moves = [(seat, a) for seat, a in result.record.moves if seat is not None]
    opener, first_bid = moves[0]
    assert isinstance(first_bid, Bid)
    # After the first bid the engine's P-53 order is asked until someone says yes.
    state = result.record.replay(upto=result.record.moves.index(moves[0]) + 1)
    order = calza_callers(state)
    first_yes = next(s for s in order if says[s])
    asked = [s for s, _ in log[: order.index(first_yes) + 1]]
    assert asked == list(order[: order.index(first_yes) + 1])
    assert moves[1] == (first_yes, Calza())


def test_no_calza_question_without_calza_rules() -> None:
    log: list[tuple[int, Bid | None]] = []
    bots = [Lowest(s, log, True) for s in range(3)]
    play_game(PERUDO, bots, random.Random(1))
    assert log == []


def test_places_are_elimination_order_reversed_P23() -> None:
    result = play_game(PERUDO, [RandomBot(s) for s in range(4)], random.Random(11))
    assert result.places[result.winner] == 1
    out_order = [s for out in result.eliminated for s in out]
    assert sorted([*out_order, result.winner]) == [0, 1, 2, 3]
    for rank, seat in enumerate(reversed(out_order), start=2):
        assert result.places[seat] == rank
    assert result.record.replay().winner == result.winner


def test_seats_knocked_out_together_share_a_place_V4() -> None:
    import dataclasses

    rules = dataclasses.replace(PERUDO_CALZA, loss="difference", dice_per_player=1)
    for seed in range(200):
        result = play_game(rules, [RandomBot(seed * 10 + s) for s in range(5)], random.Random(seed))
        together = [out for out in result.eliminated if len(out) > 1]
        if together:
            places = {result.places[s] for s in together[0]}
            assert len(places) == 1
            return
    pytest.fail("no seeded game knocked out two seats at once")


def test_same_seed_same_game() -> None:
    a = play_game(PERUDO_CALZA, [RandomBot(s) for s in range(4)], random.Random(5))
    b = play_game(PERUDO_CALZA, [RandomBot(s) for s in range(4)], random.Random(5))
    assert a.record == b.record and a.places == b.places


class Cheater(BotBase):
    name = "cheater"

    def act(self, view: PlayerView) -> PlayerAction:
        return Bid(1, 1) if view.bid is None else Dudo()


def test_an_illegal_action_names_the_bot_and_seat() -> None:
    with pytest.raises(IllegalBotAction, match=r"bot 'cheater' at seat \d returned Bid\(1, 1\)"):
        play_game(PERUDO, [Cheater(), Cheater()], random.Random(2))
