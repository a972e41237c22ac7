"""The interactive game: one person against bots, in the terminal.

The session is the table's trusted side (like a server's table worker): it holds the
:class:`~perudo.core.GameState`, rolls the dice with its generator (seeded, or
:class:`secrets.SystemRandom`), asks the bots and the person for actions, and applies them with
:func:`perudo.core.apply`. What it shows the person comes only from ``view(state, me)`` and from
events that :func:`~perudo.core.visible_to` lets through (P-70); a bot gets only its own view.

The order of decisions is :func:`perudo.sim.driver.run`'s, the same as in the arena, the RL
environments and the server: the session only supplies the decisions and shows what happened.
Calza out of turn (P-50): in each calza window (after a bid, and after a V-9 re-roll under a
standing bid), the seats that may call calza are asked in the order of
:func:`~perudo.core.calza_callers` (P-53, left of the bidder first); the person is asked with a
short prompt that takes Enter to go on. The two-player palifico choice (P-34) is asked of the
person when it is theirs and announced when a bot makes it. Whether the person is offered calza
at all is their setting (``calza_ask``): ``likely`` (the default) stops the game only when the
standing bid has at least a 1 in 4 chance of being exactly right from what they see, ``always``
after every bid, ``never`` not at all.

While a bot decides, a transient "Bot 2 is thinking…" line shows (the expert may take seconds).
When the person is knocked out and two or more bots are left, they choose to watch the rest,
skip to the result, or leave.

Leaving: ``quit``, end of input and Ctrl-C all end the game cleanly; when the person sits at a
terminal they are offered to save the record on the way out, then told goodbye. Saving never
overwrites a file without asking, and after a failed save the question is asked again; a
``--save`` that fails at the end (without a terminal to ask) exits with status 1. A record keeps
who sat where (names, the person's seat, the bots' levels) and the program's version.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.text import Text

from perudo import __version__
from perudo.bots import Bot
from perudo.core import (
    Action,
    ActionTaken,
    Calza,
    DiceDealt,
    DiceRerolled,
    Event,
    GameOver,
    GameRecord,
    GameState,
    IllegalActionError,
    PalificoChosen,
    PerudoError,
    Phase,
    PlayerAction,
    RoundResolved,
    RoundStarted,
    RuleSet,
    SeatInfo,
    apply,
    check_action,
    roll_off,
    start_game,
    view,
    visible_to,
)
from perudo.core.views import refusal_seen
from perudo.i18n import LANGS, load_catalog, refusal_text
from perudo.registry import make_bot
from perudo.sim.driver import run

from .hint import chance
from .line_input import read_line
from .render import Painter
from .words import Command, InputError, read_input

__all__ = ["CALZA_ASK", "CALZA_LIKELY", "PlayConfig", "Session"]

CALZA_ASK: Final = ("likely", "always", "never")
"""When the person is offered calza out of turn (``PlayConfig.calza_ask``)."""
CALZA_LIKELY: Final = 0.25
"""``likely``: offer calza when the bid is exactly right with at least this chance."""


@dataclass(frozen=True, slots=True)
class PlayConfig:
    """Everything ``perudo play`` was asked for."""

    rules: RuleSet
    players: int
    level: str = "medium"
    seed: int | None = None
    """Seed for the dice and the bots; ``None``: dice from :class:`secrets.SystemRandom`."""
    memory: bool = False
    """Memory mode (P-40): other seats' dice counts are not displayed."""
    name: str | None = None
    delay: float = 0.8
    """Seconds of pause before each bot acts, so the person can follow."""
    save: Path | None = None
    lang: str = "en"
    ascii_only: bool = False
    seat: int = 0
    """The person's seat."""
    start: GameRecord | None = None
    """Continue from this record instead of a new game (``perudo play --resume``); its seats
    (names, levels) are kept."""
    calza_ask: str = "likely"
    """When to offer the person calza out of turn: one of :data:`CALZA_ASK`."""


def _fresh_name() -> Path:
    """A file name for the record when the person answers "yes" to the save question:
    ``perudo-<date>-<time>.json`` in the current folder, never one that exists."""
    stem = time.strftime("perudo-%Y-%m-%d-%H%M")
    path, n = Path(f"{stem}.json"), 1
    while path.exists():
        n += 1
        path = Path(f"{stem}-{n}.json")
    return path


class _Quit(Exception):
    """The person asked to leave."""


def _release_output(console: Console) -> None:
    """Let what is printed from now on reach the screen.

    rich buffers a print between entering and leaving its console (a ``with`` block); a ^C
    that lands between the two (CPython checks signals there) skips the leaving, and every
    later print would wait in the buffer for good — the goodbye and the save message of
    :meth:`Session.run` included. Leaving each such level flushes the buffer.
    """
    while console._buffer_index > 0:
        console._exit_buffer()


class Session:
    """One game in the terminal. :meth:`run` plays it and returns the exit status."""

    def __init__(
        self,
        config: PlayConfig,
        console: Console,
        *,
        read: Callable[[str], str] = read_line,
        interactive: bool = False,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.cfg = config
        self.console = console
        self.read = read
        self.interactive = interactive
        self.sleep = sleep
        self.cat = load_catalog(config.lang)
        self.me = config.seat
        rules = config.start.rules if config.start is not None else config.rules
        players = config.start.num_players if config.start is not None else config.players
        if not 0 <= self.me < players:
            raise ValueError(f"seat {self.me} is not at a {players}-seat table")
        self.rules = rules
        self.players = players
        self.rng: random.Random = (
            random.Random(config.seed) if config.seed is not None else secrets.SystemRandom()
        )
        seats = config.start.seats if config.start is not None else ()
        self.levels = {
            s: (seats[s].level or config.level) if seats else config.level
            for s in range(players)
            if s != self.me
        }
        self.bots: dict[int, Bot] = {
            s: make_bot(level, None if config.seed is None else config.seed * 100 + s)
            for s, level in self.levels.items()
        }
        # Bots are numbered 1, 2, … around the table, skipping the person's seat.
        names = [self.cat.t("seat.bot", n=s + (s < self.me)) for s in range(players)]
        names[self.me] = config.name or self.cat.you()
        if seats:
            names = [self.cat.recorded_name(i.name, human=i.kind == "human") for i in seats]
            if config.name:
                names[self.me] = config.name
        self.names = names
        self.fast = False
        """The person, knocked out, chose to skip to the result: nothing shown until the end."""
        self.painter = Painter(
            self.cat,
            rules,
            names,
            me=self.me,
            ascii_only=config.ascii_only,
            width=min(console.width, 100),
        )
        self.state: GameState | None = None

    # The game ------------------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end (or until the person leaves): 0, or 1 when a ``--save`` failed."""
        try:
            self._play()
        except (KeyboardInterrupt, EOFError, _Quit) as why:
            _release_output(self.console)
            if not isinstance(why, _Quit):
                self.console.print()
            saved = self._save(leaving=True)
            self.console.print(self.cat.t("bye"), style="bold")
            return 0 if saved else 1
        return 0 if self._save(leaving=False) else 1

    def _play(self) -> None:
        start = self.cfg.start
        if start is not None:
            state = self.state = start.replay()
            self.console.print(self.cat.t("start.from_record", round=state.round))
            if state.winner is not None:
                self._show([GameOver(state.winner)], state)
        else:
            rolloff = roll_off(self.rules, self.players, self.rng)
            state = self.state = start_game(self.rules, self.players, rolloff)
            self._show_rolloff(state)
        if state.phase is Phase.BIDDING:
            self._show_round_start(state)
        self.state = run(state, self.rng, self._act, self._calza, step=self._step)

    def _act(self, state: GameState, seat: int) -> PlayerAction:
        if seat == self.me:
            return self._ask_turn(state)
        if not self.fast:
            self.sleep(self.cfg.delay)
        return self._thinking(seat, lambda: self.bots[seat].act(view(state, seat)))

    def _thinking(self, seat: int, decide: Callable[[], PlayerAction]) -> PlayerAction:
        """A bot's decision, with a transient "thinking…" line on a terminal."""
        if self.fast or not self.console.is_terminal:
            return decide()
        spinner = "simpleDots" if self.cfg.ascii_only else "dots"
        with self.console.status(self.cat.t("bot.thinking", who=self.names[seat]), spinner=spinner):
            return decide()

    def _calza(self, state: GameState, seat: int) -> bool:
        """Whether ``seat`` calls calza in the open window (P-50, P-53)."""
        if seat == self.me:
            if self.cfg.calza_ask == "never":
                return False
            # In memory mode "likely" asks every time: the odds would tell the dice in play.
            if self.cfg.calza_ask == "likely" and not self.cfg.memory:
                v = view(state, self.me, memory=self.cfg.memory)
                if v.bid is None or chance(v, v.bid).exactly < CALZA_LIKELY:
                    return False
            return self._ask_calza(state)
        return self.bots[seat].call_calza(view(state, seat))

    def _step(self, state: GameState, seat: int | None, action: Action) -> GameState:
        new, events = apply(state, action, seat)
        self.state = new
        if self.fast:
            self._show([e for e in events if isinstance(e, GameOver)], new)
            return new
        self._show(events, new)
        knocked_out = any(isinstance(e, RoundResolved) and self.me in e.eliminated for e in events)
        if knocked_out and not new.is_over and self.interactive:
            self._after_knock_out()
        return new

    def _after_knock_out(self) -> None:
        """Watch the bots play on (Enter), skip to the result, or leave (P-23)."""
        while True:
            got = self._prompt("prompt.out", unknown="out.help")
            if isinstance(got, Command) and got.kind == "quit":
                raise _Quit
            if isinstance(got, Command) and got.kind == "end":
                self.fast = True
                self.console.print(self.cat.t("out.skipping"))
                return
            if isinstance(got, Command) and got.kind == "skip":
                return
            self.console.print(self.cat.t("out.help"))

    # Asking the person ---------------------------------------------------------------------

    def _prompt(
        self, key: str, *, unknown: str | None = None, **fields: object
    ) -> PlayerAction | Command:
        """Read one line; a line that is neither action nor command is explained, re-asked.

        ``unknown``: the message for such a line where a bid is not what is asked (the calza
        and knocked-out prompts), instead of "type a bid such as 3x5"."""
        while True:
            text = self._line(self.cat.t(key, **fields))
            try:
                return read_input(text)
            except InputError as err:
                if unknown is not None:
                    self._error(unknown)
                elif err.refusal is not None:
                    self._refuse(err.refusal)
                else:
                    self._error(err.key, text=err.text.strip())

    def _line(self, prompt: str) -> str:
        """One line the person typed; a line the input's encoding cannot read (``3×5`` or
        Korean where the input is ASCII) is told in words and asked again, the game going on."""
        while True:
            try:
                return self.read(prompt)
            except UnicodeDecodeError as err:
                self._error("err.encoding", encoding=err.encoding)

    def _refuse(self, err: PerudoError) -> None:
        """Why the core refused, in the person's language, naming players by name."""
        memory = self.cfg.memory  # P-40: no count of the dice in play
        params, _ = refusal_seen(err.code, err.params, str(err), memory=memory)
        reason = refusal_text(
            self.cfg.lang, err.code, params, self.names.__getitem__, memory=memory
        )
        self._error("err.illegal", reason=reason)

    def _error(self, key: str, **fields: object) -> None:
        words = {
            "dudo": self.cat.t("word.dudo"),
            "calza": self.cat.t("word.calza"),
            "aces": self.painter.wild_word(),  # Bluff's example is "3 6★", not 3 aces
        }
        self.console.print(Text(self.cat.t(key, **words, **fields), style="bold red"))

    def _ask_turn(self, state: GameState) -> PlayerAction:
        v = view(state, self.me, memory=self.cfg.memory)
        self.console.rule(Text(self.cat.t("turn.rule", who=self.names[self.me])), style="green")
        if state.phase is Phase.CHOOSE_PALIFICO:
            self.console.print(self.painter.seats(v))
            self.console.print(Text(self.cat.t("palifico.choose"), style="bold magenta"))
            self.console.print(self.painter.options(v))
        else:
            # No odds in memory mode: they are computed from the dice in play (P-40).
            odds = chance(v, v.bid) if v.bid is not None and not self.cfg.memory else None
            self.console.print(self.painter.status(v, odds))
            if v.must_raise:
                self.console.print(self.cat.t("turn.must_raise"))
        while True:
            got = self._prompt("prompt.turn")
            if isinstance(got, Command):
                if got.kind == "help":
                    self._help()
                elif got.kind == "quit":
                    raise _Quit
                else:
                    self._error("err.empty")
                continue
            try:
                check_action(state, got, self.me)
            except IllegalActionError as err:
                self._refuse(err)
                continue
            return got

    def _ask_calza(self, state: GameState) -> bool:
        v = view(state, self.me, memory=self.cfg.memory)
        assert v.bid is not None
        hand = self.painter.dice_text(v.hand)
        line = Text(self.cat.t("calza.dice", dice=hand) + "  ")
        if not self.cfg.memory:  # the odds tell the dice in play (P-40)
            line.append_text(self.painter.hint(chance(v, v.bid), calza=True))
        self.console.print(line)
        calza = self.cat.t("word.calza")
        while True:
            got = self._prompt(
                "prompt.calza", unknown="calza.help", calza=calza, bid=self.painter.bid(v.bid)
            )
            if isinstance(got, Command):
                if got.kind == "skip":
                    return False
                if got.kind == "quit":
                    raise _Quit
                self._help()
                continue
            try:
                check_action(state, got, self.me)
            except IllegalActionError as err:
                self._refuse(err)
                continue
            return isinstance(got, Calza)

    def _help(self) -> None:
        self.console.print(self.painter.help())

    # Showing what happens ------------------------------------------------------------------

    def _show_rolloff(self, state: GameState) -> None:
        for throw in state.rolloff:
            dice = " · ".join(f"{self.names[s]} {d}" for s, d in enumerate(throw))
            self.console.print(self.cat.t("rolloff.throw", dice=dice))
            top = max(throw)
            tied = [self.names[s] for s, d in enumerate(throw) if d == top]
            if len(tied) > 1:  # P-2: a tie for highest, everyone rolls again
                self.console.print(self.cat.t("rolloff.tie", who=", ".join(tied), face=top))
        self.console.print(self.cat.t("rolloff.opens", who=self.names[state.opener]))

    def _show_round_start(self, state: GameState) -> None:
        v = view(state, self.me, memory=self.cfg.memory)
        self.console.print()
        self.console.rule(Text(self.painter.header(v)), style="bold blue")
        if v.palifico:
            self.console.print(
                Text(
                    self.cat.t("palifico.announce", who=self.names[v.opener]), style="bold magenta"
                )
            )
        self.console.print(self.cat.t("round.opens", who=self.names[v.opener]))
        if v.to_act == self.me:
            return  # the person's turn follows at once, with the whole table
        self.console.print(self.painter.seats(v))
        if v.hand:
            self.console.print(Text(self.cat.t("hand.title"), style="bold"))
            self.console.print(self.painter.hand(v.hand, palifico=v.palifico))

    def _show(self, events: Sequence[Event], state: GameState) -> None:
        for event in events:
            if not visible_to(event, self.me):  # P-70: only what the person may see
                continue
            if isinstance(event, RoundStarted):
                self._show_round_start(state)
            elif isinstance(event, DiceRerolled):
                self.console.print(Text(self.cat.t("hand.rerolled"), style="bold"))
                self.console.print(
                    self.painter.hand(
                        event.dice, palifico=state.palifico, shown=state.shown[event.seat]
                    )
                )
            elif isinstance(event, ActionTaken):
                self.console.print(self.painter.move(event.seat, event.action))
            elif isinstance(event, PalificoChosen):
                key = "palifico.chosen" if event.palifico else "palifico.declined"
                self.console.print(
                    Text(
                        self.cat.t(
                            key, who=self.names[event.seat], palifico=self.cat.t("word.palifico")
                        ),
                        style="bold magenta",
                    )
                )
            elif isinstance(event, RoundResolved):
                seen = view(state, self.me, memory=self.cfg.memory).counts_seen
                for line in self.painter.resolution(event, seen):
                    self.console.print(line)
            elif isinstance(event, GameOver):
                self.console.print()
                key = "over.you_win" if event.winner == self.me else "over.winner"
                self.console.rule(style="bold")
                self.console.print(
                    Text(self.cat.t(key, who=self.names[event.winner]), style="bold green")
                )
                self.console.rule(style="bold")
            else:
                assert isinstance(event, DiceDealt)  # shown with the round's start

    # Saving --------------------------------------------------------------------------------

    def _record(self, state: GameState) -> GameRecord:
        """The game so far, with who sat where and the program's version."""
        seats = tuple(
            SeatInfo(name, "human", None) if s == self.me else SeatInfo(name, "bot", self.levels[s])
            for s, name in enumerate(self.names)
        )
        return GameRecord.from_state(
            state, seats=seats, software=f"perudo {__version__}", memory=self.cfg.memory
        )

    def _save(self, *, leaving: bool) -> bool:
        """Save the record where ``--save`` says, or where the person answers; ``False`` only
        when a ``--save`` could not be written and there is nobody to ask again."""
        state = self.state
        if state is None or not state.rolloff:
            return True
        text = self._record(state).dumps() + "\n"
        if self.cfg.save is not None:
            if self._write(self.cfg.save, text):
                return True
            if not self.interactive:
                return False
        if not self.interactive:
            return True
        key = "save.prompt_partial" if leaving and not state.is_over else "save.prompt"
        while True:
            try:
                answer = self._line(self.cat.t(key)).strip()
                if not answer or answer.lower() in self._words("input.skip"):
                    return True
                # "y" answers the question rather than names a file called "y".
                yes = answer.lower() in self._words("input.yes")
                path = _fresh_name() if yes else Path(answer).expanduser()
                if path.is_file():
                    reply = self._line(self.cat.t("save.exists", path=str(path))).strip().lower()
                    if reply not in self._words("input.yes"):
                        continue
            except (KeyboardInterrupt, EOFError):
                self.console.print()
                return True
            if self._write(path, text):
                return True
            key = "save.again"

    @staticmethod
    def _words(key: str) -> frozenset[str]:
        """What a player may type for ``key``, in every language."""
        return frozenset(w.lower() for lang in LANGS for w in load_catalog(lang).words(key))

    def _write(self, path: Path, text: str) -> bool:
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as err:
            self.console.print(
                Text(self.cat.t("save.failed", path=str(path), error=err.strerror or str(err))),
                style="bold red",
                soft_wrap=True,  # a path stays whole, to copy and paste
            )
            return False
        self.console.print(self.cat.t("save.done", path=str(path)), soft_wrap=True)
        return True
