"""One driver, every front end: the same seeded games, move for move.

The arena (:func:`perudo.sim.match.play_game`), the terminal (a
:class:`~perudo.cli.tui.session.Session` driven in-process, its person's seat answered from
the prompts by the same bot the other front ends seat there), the RL table
(:class:`perudo.research.table.Table`, under the PettingZoo, Gymnasium and OpenSpiel adapters)
and the server (a :class:`~perudo.server.tables.LiveTable` in-process, chance from a seeded
generator) all follow :mod:`perudo.sim.driver`; given the same dice generator and the same
seeded bots they must produce the same game record, roll for roll and move for move.

Rule sets: every preset, and a pairwise covering set of every switch of
:class:`~perudo.core.RuleSet` (:func:`tests.strategies.pairwise_rulesets`, derived from the
fields), on 4 seats of 2 dice so that calza (P-50, 3 players or more), the P-34 choice and
V-9 re-rolls all come up.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console
from tests.strategies import pairwise_rulesets

from perudo.bots import Bot, RandomBot
from perudo.cli.tui.session import PlayConfig, Session
from perudo.core import (
    PRESETS,
    Bid,
    Calza,
    ChoosePalifico,
    Dudo,
    GameRecord,
    Pass,
    Phase,
    PlayerAction,
    PlayerView,
    Reroll,
    RuleSet,
    SetAside,
    view,
)
from perudo.registry import BOTS, make_bot
from perudo.research.table import Table
from perudo.sim.driver import calza_window
from perudo.sim.match import play_game

LEVEL = "driver_check"
"""A random bot that calls calza often (30% when allowed), so that windows get answered."""

SEATS = 4
DICE = 2


@pytest.fixture(autouse=True, scope="module")
def _driver_check_bot() -> Iterator[None]:
    BOTS[LEVEL] = lambda seed: RandomBot(seed, calza_rate=0.3)
    yield
    del BOTS[LEVEL]


def _bots(seed: int, n: int) -> list[Bot]:
    # The seeds the terminal gives its bots (PlayConfig.seed * 100 + seat).
    return [make_bot(LEVEL, seed * 100 + s) for s in range(n)]


def _players(rules: RuleSet) -> int:
    return min(SEATS, rules.max_players)


def via_arena(rules: RuleSet, seed: int) -> GameRecord:
    return play_game(rules, _bots(seed, _players(rules)), random.Random(seed)).record


def _typed(action: PlayerAction) -> str:
    """What a person types for ``action`` (the terminal's English words)."""
    if isinstance(action, ChoosePalifico):
        return "palifico" if action.palifico else "normal"
    if isinstance(action, SetAside):
        return "aside " + "".join(map(str, action.dice))
    if isinstance(action, Dudo):
        return "dudo"
    if isinstance(action, Calza):
        return "calza"
    if isinstance(action, Pass):
        return "pass"
    return str(action)


def via_terminal(rules: RuleSet, seed: int) -> GameRecord:
    n = _players(rules)
    # calza_ask="always": the person is asked in every calza window, as the arena asks its bots.
    config = PlayConfig(rules=rules, players=n, level=LEVEL, seed=seed, delay=0, calza_ask="always")
    me = make_bot(LEVEL, seed * 100 + config.seat)
    session: Session

    def read(prompt: str) -> str:
        state = session.state
        assert state is not None
        seat_view = view(state, session.me)
        if state.to_act == session.me:
            return _typed(me.act(seat_view))
        return "calza" if me.call_calza(seat_view) else ""  # the calza window's prompt

    console = Console(file=io.StringIO(), width=80, color_system=None)
    session = Session(config, console, read=read, sleep=lambda s: None)
    assert session.run() == 0
    assert session.state is not None and session.state.is_over
    return GameRecord.from_state(session.state)


def via_table(rules: RuleSet, seed: int) -> GameRecord:
    n = _players(rules)
    rng = random.Random(seed)
    bots = _bots(seed, n)
    table = Table.new(rules, n, rng)
    while not table.is_over:
        if table.needs_chance:
            table.roll(rng)
            continue
        seat = table.actor
        assert seat is not None
        seat_view = table.view(seat)
        if table.asking:
            says = bots[seat].call_calza(seat_view)
            assert table.no_calza is not None
            table.play(seat, table.enc.action_to_id(Calza()) if says else table.no_calza)
        else:
            table.play(seat, table.enc.action_to_id(bots[seat].act(seat_view)))
    return GameRecord.from_state(table.state)


def via_server(
    rules: RuleSet,
    seed: int,
    tmp: Path,
    bots: list[Bot] | None = None,
    person: int | None = None,
) -> GameRecord:
    """A table on the server, in-process: the lobby, the store (SQLite), the table's scheduler
    and its one action path, with the dice from a seeded generator. ``bots`` play the seats
    (default :func:`_bots`); ``person`` is a seat of a person instead, whose turns the test
    plays through the table with that seat's bot's actions once the scheduler waits for them,
    and who never calls calza (the scheduler's windows do not wait for people)."""
    from perudo.server.lobby import Lobby
    from perudo.server.settings import Settings
    from perudo.server.store import Store
    from perudo.server.tables import TableConfig
    from perudo.server.tables.config import Seat
    from perudo.sim.driver import Turn

    n = _players(rules)
    players = bots if bots is not None else _bots(seed, n)

    async def go() -> GameRecord:
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{tmp / 'one-driver.db'}",
            bot_delay=0,
            round_pause=0,
            drop_grace=3600,
        )
        store = Store(settings.database_url)
        await store.open()
        lobby = Lobby(store, settings)
        await lobby.open()
        try:
            config = TableConfig("custom", rules, n, turn_seconds=0)
            table, _, _ = await lobby.create(name="t", player="p", config=config, private=False)
            table.seats = [
                Seat("human", "ann", token_hash="-", connections=1)
                if s == person
                else Seat("bot", f"bot {s}", level=LEVEL, bot=players[s])
                for s in range(n)
            ]
            table.rng = random.Random(seed)
            await table.start(None)
            for _ in range(200_000):
                if table.status == "finished":
                    break
                async with table.lock:
                    st = table.state
                    if (
                        st is not None
                        and not st.is_over
                        and table.schedule.pending()
                        == Turn(person, st.phase is Phase.CHOOSE_PALIFICO)
                    ):
                        assert person is not None
                        await table.apply_move(person, players[person].act(view(st, person)))
                await asyncio.sleep(0)
            assert table.state is not None and table.state.is_over
            return GameRecord.from_state(table.state)
        finally:
            await lobby.close()
            await store.close()

    return asyncio.run(go())


FRONT_ENDS: dict[str, Callable[[RuleSet, int], GameRecord]] = {
    "terminal": via_terminal,
    "rl_table": via_table,
}

CALZA_REROLL = dataclasses.replace(PRESETS["perudo_calza"], set_aside=True)
"""Where the copies disagreed before the one driver: a calza window after a V-9 re-roll."""

CASES = [
    *((name, rules, seed) for name, rules in PRESETS.items() for seed in (1, 2)),
    *(("calza_reroll", CALZA_REROLL, seed) for seed in (18, 21, 22)),
    *(
        (f"pairwise{i}", rules, 10 + i)
        for i, rules in enumerate(pairwise_rulesets(dice_per_player=DICE))
    ),
]


@pytest.mark.parametrize(("name", "rules", "seed"), CASES, ids=[c[0] for c in CASES])
def test_every_front_end_plays_the_same_game(
    name: str, rules: RuleSet, seed: int, tmp_path: Path
) -> None:
    rules = dataclasses.replace(rules, dice_per_player=DICE)
    reference = via_arena(rules, seed)
    fronts = {**FRONT_ENDS, "server": lambda r, s: via_server(r, s, tmp_path)}
    for front, play in fronts.items():
        record = play(rules, seed)
        assert record.rolloff == reference.rolloff, front
        for i, (got, want) in enumerate(zip(record.moves, reference.moves, strict=False)):
            assert got == want, f"{front} differs from the arena at move {i + 1}: {got} != {want}"
        assert len(record.moves) == len(reference.moves), front


def test_the_cases_reach_every_decision_of_the_driver() -> None:
    """The comparison means something only if the games meet calza windows (after a bid and
    after a V-9 re-roll), the P-34 choice and passes."""
    seen: set[str] = set()
    for _, rules, seed in CASES:
        moves = via_arena(dataclasses.replace(rules, dice_per_player=DICE), seed).moves
        for i, (_seat, action) in enumerate(moves):
            if isinstance(action, Calza) and rules.calza == "on":
                before = moves[i - 1][1]
                seen.add("calza after re-roll" if isinstance(before, Reroll) else "calza")
            elif isinstance(action, (ChoosePalifico, Pass, Reroll)):
                seen.add(type(action).__name__)
    assert seen >= {"calza", "calza after re-roll", "ChoosePalifico", "Pass", "Reroll"}, seen


class Failing:
    """A bot with bugs, the same in every front end: of its turns, the first of every three
    raises and the second returns an action the core refuses (more dice than are in play,
    P-16); every third calza question raises."""

    name = "failing"

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.turns = self.questions = 0
        self.raised = self.illegal = self.calza_raised = 0

    def act(self, view: PlayerView) -> PlayerAction:
        self.turns += 1
        if self.turns % 3 == 1:
            self.raised += 1
            raise RuntimeError("a bug in act")
        if self.turns % 3 == 2:
            self.illegal += 1
            return Bid(99, 2)
        return self.bot.act(view)

    def call_calza(self, view: PlayerView) -> bool:
        self.questions += 1
        if self.questions % 3 == 0:
            self.calza_raised += 1
            raise RuntimeError("a bug in call_calza")
        return self.bot.call_calza(view)


class NeverCalza:
    """The arena's stand-in for a person who lets every calza window pass (the server's windows
    ask only bots): the seat's bot's turns, and no to calza."""

    name = "person"

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def act(self, view: PlayerView) -> PlayerAction:
        return self.bot.act(view)

    def call_calza(self, view: PlayerView) -> bool:
        return False


PERSON, FAILING = 0, 1


def _mixed(seed: int, n: int) -> list[Bot]:
    bots = _bots(seed, n)
    bots[FAILING] = Failing(bots[FAILING])
    return bots


@pytest.mark.parametrize("seed", [3, 4])
def test_the_server_plays_a_person_and_a_failing_bot_as_the_driver_does(
    seed: int, tmp_path: Path
) -> None:
    """The driver's policies on the server (perudo.sim.driver): a calza window asks the bots
    only (P-50: a person calls when they like), so one with no bot in it passes as if its people
    declined; a bot that raises or returns an illegal action plays its first legal action
    (``faults="first_legal"``), a calza question that raises is a no. The arena under the same
    policies, with the person's seat a bot that never calls calza, plays the same game."""
    rules = dataclasses.replace(PRESETS["perudo_calza"], dice_per_player=3)
    n = _players(rules)
    arena_bots = _mixed(seed, n)
    arena_bots[PERSON] = NeverCalza(arena_bots[PERSON])
    reference = play_game(rules, arena_bots, random.Random(seed), faults="first_legal").record
    server_bots = _mixed(seed, n)
    record = via_server(rules, seed, tmp_path, bots=server_bots, person=PERSON)
    assert record.rolloff == reference.rolloff
    assert record.moves == reference.moves
    # The branches were reached: each failure, on both sides alike.
    failing = arena_bots[FAILING]
    assert isinstance(failing, Failing)
    assert failing.raised and failing.illegal and failing.calza_raised
    server_failing = server_bots[FAILING]
    assert isinstance(server_failing, Failing)
    assert (server_failing.raised, server_failing.illegal, server_failing.calza_raised) == (
        failing.raised,
        failing.illegal,
        failing.calza_raised,
    )
    # ... and a calza window of the person's alone.
    assert any(
        calza_window(reference.replay(i)) == (PERSON,) for i in range(len(reference.moves))
    ), "no calza window held only the person"
