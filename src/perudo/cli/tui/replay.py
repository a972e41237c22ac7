"""Playing a saved game record back, round by round.

A record holds every hand, revealed or not (it is the table's trusted side,
:class:`~perudo.core.GameRecord`), so the replay shows them all, but it marks which hands were
actually revealed at the table after the challenge (P-21: in order, until the bid was proven)
and which stayed hidden from the players for good.

Players are named as the record says (``seats``: names, who was the person, the bots' levels);
a record without them shows "Seat 1" … "Seat N". A record that does not replay stops at the
first move that is not legal ("Move 12 (…) is not legal: …", in the viewer's language) after
showing the round so far, with exit status 1.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from perudo.core import (
    ActionTaken,
    DiceDealt,
    DiceRerolled,
    GameOver,
    GameRecord,
    GameState,
    IllegalActionError,
    PalificoChosen,
    RoundResolved,
    RoundStarted,
    RuleSet,
    preset_name,
)
from perudo.i18n import Catalog, refusal_text

from .line_input import read_line
from .render import Painter, _pad
from .words import Command, InputError, read_input

__all__ = ["Replayer"]


@dataclass(slots=True)
class _Round:
    number: int
    opener: int
    palifico: bool
    before: list[Text] = field(default_factory=list)
    """Lines from before the deal (the two-player palifico choice, P-34)."""
    moves: list[Text] = field(default_factory=list)
    last: GameState | None = None
    """The state just before the round ended: every hand as it was at the challenge."""
    result: RoundResolved | None = None
    after: tuple[int, ...] = ()


class Replayer:
    """Shows a record; with ``pause`` it waits for Enter after each round."""

    def __init__(
        self,
        record: GameRecord,
        console: Console,
        cat: Catalog,
        *,
        read: Callable[[str], str] = read_line,
        pause: bool = True,
        ascii_only: bool = False,
    ) -> None:
        self.record = record
        self.console = console
        self.cat = cat
        self.read = read
        self.pause = pause
        names = [cat.t("seat.generic", n=s + 1) for s in range(record.num_players)]
        if record.seats:
            names = [cat.recorded_name(i.name, human=i.kind == "human") for i in record.seats]
        self.painter = Painter(
            cat, record.rules, names, me=None, ascii_only=ascii_only, width=min(console.width, 100)
        )

    def run(self) -> int:
        """Show the whole record (0), or stop early when asked (also 0); 1 for a bad record."""
        try:
            return self._run()
        except (KeyboardInterrupt, EOFError, _Stop):
            self.console.print()
            self.console.print(self.cat.t("bye"), style="bold")
            return 0

    def _rules_name(self) -> str:
        """The preset's name; a preset with another number of dice says so ("perudo_calza
        with 2 dice each"); other rules are "custom rules", in the viewer's language."""
        rules = self.record.rules
        name = preset_name(rules)
        if name is not None:
            return name
        name = preset_name(dataclasses.replace(rules, dice_per_player=RuleSet().dice_per_player))
        if name is not None:
            return self.cat.t("replay.rules_dice", name=name, n=rules.dice_per_player)
        return self.cat.t("replay.rules_custom")

    def _level(self, level: str | None) -> str:
        """A bot level in the viewer's language (a bot's own name as it is)."""
        if level is None:
            return "?"
        key = f"level.{level}"
        return self.cat.t(key) if key in self.cat.messages else level

    def _run(self) -> int:
        rec = self.record
        cat = self.cat
        p = self.painter
        self.console.print(
            Text(
                cat.t(
                    "replay.title",
                    rules=self._rules_name(),
                    players=rec.num_players,
                    moves=len(rec.moves),
                ),
                style="bold",
            )
        )
        if rec.seats:
            seats = [
                cat.t("replay.human", who=info.name)
                if info.kind == "human"
                else cat.t("replay.bot", who=info.name, level=self._level(info.level))
                for info in rec.seats
            ]
            self.console.print(cat.t("replay.seats", seats=" · ".join(seats)))
        if rec.software:
            self.console.print(cat.t("replay.software", software=rec.software), style="dim")
        try:
            state = rec.start()
        except IllegalActionError as err:
            self.console.print(Text(cat.t("replay.bad", error=self._why(err)), style="bold red"))
            return 1
        for throw in state.rolloff:
            dice = " · ".join(f"{p.who(s)} {d}" for s, d in enumerate(throw))
            self.console.print(cat.t("rolloff.throw", dice=dice))
        self.console.print(cat.t("rolloff.opens", who=p.who(state.opener)))
        current: _Round | None = None
        waiting: list[Text] = []
        n = 0  # the moves replayed
        try:
            for step in rec.steps():
                n, before, state = step.n, step.before, step.after
                for event in step.events:
                    if isinstance(event, RoundStarted):
                        current = _Round(event.round, event.opener, event.palifico, before=waiting)
                        waiting = []
                    elif isinstance(event, PalificoChosen):
                        key = "palifico.chosen" if event.palifico else "palifico.declined"
                        who = p.who(event.seat)
                        waiting.append(
                            Text(
                                cat.t(key, who=who, palifico=cat.t("word.palifico")),
                                style="magenta",
                            )
                        )
                    elif isinstance(event, DiceRerolled):
                        assert current is not None
                        current.moves.append(
                            Text(
                                cat.t(
                                    "replay.reroll",
                                    who=p.who(event.seat),
                                    dice=p.dice_text(event.dice),
                                )
                            )
                        )
                    elif isinstance(event, ActionTaken):
                        assert current is not None
                        current.moves.append(p.move(event.seat, event.action))
                    elif isinstance(event, RoundResolved):
                        assert current is not None
                        current.last, current.result, current.after = (
                            before,
                            event,
                            state.dice_counts,
                        )
                        self._show_round(current)
                        current = None
                        self._wait(last=step.n == len(rec.moves))
                    elif isinstance(event, GameOver):
                        self.console.print()
                        self.console.print(
                            Text(cat.t("over.winner", who=p.who(event.winner)), style="bold green")
                        )
                    else:
                        assert isinstance(event, DiceDealt)
        except IllegalActionError as err:
            if current is not None:
                current.last = state  # the round as far as it went
                self._show_round(current)
            self._bad_move(err, n + 1)
            return 1
        if current is not None:
            current.last = state
            self._show_round(current)
        if not state.is_over:
            self.console.print(Text(cat.t("replay.unfinished"), style="bold"))
        self.console.print(cat.t("replay.end"))
        return 0

    def _bad_move(self, err: IllegalActionError, n: int) -> None:
        """Say that the rules refuse move ``n`` (from 1) of the record (``err``, whose cause
        is the core's refusal), and why."""
        cat = self.cat
        seat, action = self.record.moves[n - 1]
        if seat is None:
            who = cat.t("replay.chance")
        elif 0 <= seat < self.record.num_players:
            who = self.painter.who(seat)
        else:
            who = cat.t("seat.generic", n=seat + 1)
        cause = err.__cause__ if isinstance(err.__cause__, IllegalActionError) else err
        why = self._why(cause)
        self.console.print(
            Text(
                cat.t("replay.bad_move", n=n, who=who, action=str(action), error=why),
                style="bold red",
            )
        )

    def _why(self, err: IllegalActionError) -> str:
        """The core's refusal in the viewer's language, naming the record's players."""
        names = self.painter.names
        return refusal_text(
            self.cat.lang,
            err.code,
            err.params,
            lambda s: names[s] if 0 <= s < len(names) else self.cat.t("seat.generic", n=s + 1),
            about=True,  # told of the record's player, not to the reader
        )

    def _show_round(self, rnd: _Round) -> None:
        cat, p = self.cat, self.painter
        self.console.print()
        title = cat.t("replay.round", round=rnd.number)
        if rnd.palifico:
            title += " · " + cat.t("word.palifico")
        self.console.rule(Text(title), style="bold blue")
        for line in rnd.before:
            self.console.print(line)
        self.console.print(cat.t("round.opens", who=p.who(rnd.opener)))
        state = rnd.last
        assert state is not None
        result = rnd.result
        order = {r.seat: k for k, r in enumerate(result.reveals, 1)} if result else {}
        width = max(cell_len(p.who(s)) for s in range(len(state.hands)))
        face = result.bid.face if result is not None and result.bid is not None else None
        hands = {
            seat: p.revealed_hand(tuple(sorted(hand + state.shown[seat])), face, state.palifico)
            for seat, hand in enumerate(state.hands)
            if hand or state.shown[seat]
        }
        hand_width = max((h.cell_len for h in hands.values()), default=0)
        for seat, drawn in hands.items():
            line = Text("  " + _pad(p.who(seat), width) + "  ")
            line.append_text(drawn)
            line.append(" " * (hand_width - drawn.cell_len) + "  ")
            if result is None:
                line.append(cat.t("replay.in_play"), style="dim")
            elif seat in order:
                line.append(cat.t("replay.revealed", n=order[seat]), style="green")
            else:
                line.append(cat.t("replay.hidden"), style="dim")
            self.console.print(line)
        if rnd.moves:
            talk = Text()
            for k, move in enumerate(rnd.moves):
                if k:
                    talk.append(" · ")
                talk.append_text(move)
            self.console.print(talk)
        if result is not None:
            for out in p.resolution(result, rnd.after):
                self.console.print(out)

    def _wait(self, *, last: bool) -> None:
        if not self.pause or last:
            return
        while True:
            try:
                got = read_input(self.read(self.cat.t("replay.next")))
            except UnicodeDecodeError as err:  # a line the input's encoding cannot read
                self.console.print(self.cat.t("err.encoding", encoding=err.encoding), style="red")
                continue
            except InputError:
                got = Command("skip")
            if isinstance(got, Command) and got.kind == "quit":
                raise _Stop
            if isinstance(got, Command) and got.kind == "help":
                self.console.print(self.cat.t("replay.help"))
                continue
            return


class _Stop(Exception):
    """The viewer asked to stop."""
