"""Drawing the game with ``rich``: dice, the table, the bids, the options, the reveal.

Everything drawn comes from a :class:`~perudo.core.PlayerView` or from public events (P-70);
every word comes from the catalog (:mod:`perudo.i18n`). Output fits an 80-column terminal
and reads without colour (``NO_COLOR``, or a plain pipe): styles only add emphasis, and the
facts are always in the text too (a wild die carries a ``★``, a counting die a ``*``).

>>> from perudo.i18n import load_catalog
>>> from perudo import PERUDO, Bid
>>> p = Painter(load_catalog("en"), PERUDO, ["You", "Bot 1"], me=0)
>>> p.bid(Bid(3, 5)), p.bid(Bid(2, 1))
('3 × 5', '2 aces')
>>> print("\\n".join(die_lines(5, ascii_only=True)))
+-----+
|o   o|
|  o  |
|o   o|
+-----+
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from perudo.core import (
    Bid,
    Calza,
    ChoosePalifico,
    Dudo,
    Pass,
    Phase,
    PlayerAction,
    PlayerView,
    RoundResolved,
    RuleSet,
    SetAside,
    count_hand,
)
from perudo.core.bidding import wild_active
from perudo.i18n import Catalog, bid_text, face_text

from .hint import Chance

__all__ = ["Painter", "die_lines"]

# Pip positions on a 3x3 grid (0 top-left … 8 bottom-right), for faces 1–9 (V-12: up to 9).
_PIPS: Final[dict[int, frozenset[int]]] = {
    1: frozenset({4}),
    2: frozenset({0, 8}),
    3: frozenset({0, 4, 8}),
    4: frozenset({0, 2, 6, 8}),
    5: frozenset({0, 2, 4, 6, 8}),
    6: frozenset({0, 2, 3, 5, 6, 8}),
    7: frozenset({0, 2, 3, 4, 5, 6, 8}),
    8: frozenset({0, 1, 2, 3, 5, 6, 7, 8}),
    9: frozenset(range(9)),
}
_DIE_WIDTH: Final = 7
_WILD_MARK: Final = "★"
_COUNT_MARK: Final = "*"


def die_lines(face: int, *, ascii_only: bool = False) -> list[str]:
    """A die drawn in five lines of seven cells (box drawing, or plain ASCII)."""
    pip = "o" if ascii_only else "●"
    top, bottom, side = ("+-----+", "+-----+", "|") if ascii_only else ("┌─────┐", "└─────┘", "│")
    pips = _PIPS[face]
    rows = []
    for r in range(3):
        cells = [pip if 3 * r + c in pips else " " for c in range(3)]
        rows.append(f"{side}{cells[0]} {cells[1]} {cells[2]}{side}")
    return [top, *rows, bottom]


def _percent(p: float) -> str:
    """A chance to one decimal, never rounded to a certainty it is not: ``>99.9%`` for
    0.9997 (not ``100.0%``), ``<0.1%`` for 0.0003 (not ``0.0%``).

    >>> _percent(0.5), _percent(1.0), _percent(0.99996), _percent(0.00004), _percent(0.0)
    ('50.0%', '100.0%', '>99.9%', '<0.1%', '0.0%')
    """
    if 0.999 < p < 1 and f"{100 * p:.1f}" == "100.0":
        return ">99.9%"
    if 0 < p < 0.001 and f"{100 * p:.1f}" == "0.0":
        return "<0.1%"
    return f"{100 * p:.1f}%"


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


class Painter:
    """Draws for one person at the table (``me``; ``None`` for a replay or a spectator)."""

    def __init__(
        self,
        cat: Catalog,
        rules: RuleSet,
        names: Sequence[str],
        *,
        me: int | None,
        ascii_only: bool = False,
        width: int = 80,
    ) -> None:
        self.cat = cat
        self.rules = rules
        self.names = tuple(names)
        self.me = me
        self.ascii_only = ascii_only
        self.width = width

    # Words ---------------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        return self.names[seat]

    def face_word(self, face: int) -> str:
        """The rule set's wild face by its name (aces where 1 is wild, ``6★`` in Bluff), any
        other face as its digit."""
        return face_text(self.cat, face, wild=self.rules.wild_face)

    def bid(self, bid: Bid) -> str:
        return bid_text(self.cat, bid.quantity, bid.face, wild=self.rules.wild_face)

    def action(self, action: PlayerAction) -> str:
        if isinstance(action, Bid):
            return self.bid(action)
        if isinstance(action, Dudo):
            return self.cat.t("act.dudo", dudo=self.cat.t("word.dudo"))
        if isinstance(action, Calza):
            return self.cat.t("act.calza", calza=self.cat.t("word.calza"))
        if isinstance(action, Pass):
            return self.cat.t("act.pass")
        if isinstance(action, SetAside):
            return self.cat.t("act.aside", dice=self.dice_text(action.dice))
        key = "act.choose_palifico" if action.palifico else "act.choose_normal"
        return self.cat.t(key, palifico=self.cat.t("word.palifico"))

    def move(self, seat: int, action: PlayerAction) -> Text:
        """One line of the table talk: ``Bot 2 ▸ 3 × 5``."""
        line = Text(self.who(seat), style="bold" if seat == self.me else "")
        line.append(" ▸ " if not self.ascii_only else " > ")
        style = "bold red" if isinstance(action, (Dudo, Calza)) else "cyan"
        line.append(self.action(action), style=style)
        return line

    def dice_text(self, dice: Sequence[int]) -> str:
        return " ".join(str(d) for d in dice)

    def wild_word(self) -> str:
        """What to call the wild face in help and examples: aces, ``6★``, or (no wild face)
        aces as the plain ones they are."""
        wild = self.rules.wild_face
        return self.face_word(wild) if wild is not None else self.cat.t("word.aces")

    def help(self) -> Group:
        """How to play, one line per thing that can be typed under these rules, in two
        aligned columns that wrap within the terminal's width."""
        cat, rules = self.cat, self.rules
        wild = rules.wild_face
        word = self.wild_word()

        def first(key: str) -> str:
            return cat.words(key)[0]

        rows: list[tuple[str, str]] = [
            ("3x5, 3 5", cat.t("help.bid" if wild is not None else "help.bid_no_wild", wild=word))
        ]
        if wild == 1 and rules.wild_conversion != "none":
            rows.append((f"3 {word}", cat.t("help.aces", wild=word)))
        elif wild is not None and rules.wild_conversion != "none":
            rows.append((f"3x{wild}", cat.t("help.star", wild=word)))
        rows.append((cat.t("word.dudo"), cat.t("help.dudo")))
        if rules.calza != "off":
            rows.append((cat.t("word.calza"), cat.t("help.calza")))
        if rules.palifico != "off":
            palifico = f"{cat.t('word.palifico')}, {first('input.normal')}"
            rows.append((palifico, cat.t("help.palifico")))
        if rules.passing:
            rows.append((first("input.pass"), cat.t("help.pass")))
        if rules.set_aside:
            rows.append((f"{first('input.aside')} 55", cat.t("help.aside")))
        rows.append((f"{first('input.help')} · {first('input.quit')}", cat.t("help.commands")))
        grid = Table.grid(padding=(0, 2), pad_edge=True)
        grid.add_column(no_wrap=True)
        grid.add_column()
        for example, meaning in rows:
            grid.add_row(example, meaning)
        return Group(Text(cat.t("help.title"), style="bold"), grid)

    # Dice ----------------------------------------------------------------------------------

    def hand(self, dice: Sequence[int], *, palifico: bool, shown: Sequence[int] = ()) -> Group:
        """The person's dice drawn as dice, wild ones starred, dice shown face up (V-9) apart."""
        wild = wild_active(self.rules, palifico)
        faces = [(d, False) for d in dice] + [(d, True) for d in shown]
        per_row = max(1, (self.width + 1) // (_DIE_WIDTH + 1))
        parts: list[RenderableType] = []
        for start in range(0, len(faces), per_row):
            chunk = faces[start : start + per_row]
            lines = [Text() for _ in range(6)]
            for i, (face, is_shown) in enumerate(chunk):
                gap = " " if i else ""
                is_wild = wild is not None and face == wild
                style = "bold yellow" if is_wild else ("dim" if is_shown else "bold")
                for line, art in zip(
                    lines, die_lines(face, ascii_only=self.ascii_only), strict=False
                ):
                    line.append(gap)
                    line.append(art, style=style)
                caption = str(face) + (_WILD_MARK if is_wild else "") + ("↑" if is_shown else "")
                lines[5].append(gap)
                lines[5].append(caption.center(_DIE_WIDTH), style=style)
            parts.extend(lines)
        if wild is not None:  # "★ = aces", or "★ = 6" where 6 is wild (not "★ = 6★")
            name = self.face_word(wild) if wild == 1 else str(wild)
            parts.append(Text(self.cat.t("hand.wild", mark=_WILD_MARK, aces=name)))
        elif palifico and self.rules.wild_face is not None:
            parts.append(
                Text(self.cat.t("hand.not_wild", aces=self.face_word(self.rules.wild_face)))
            )
        if shown:
            parts.append(Text(self.cat.t("hand.shown", dice=self.dice_text(shown))))
        return Group(*parts)

    # The table -----------------------------------------------------------------------------

    def seats(self, view: PlayerView) -> Group:
        """One line per seat: name, dice (``?`` where the view hides the count, P-40), shown
        dice, turn."""
        width = max(cell_len(self._seat_name(s)) for s in range(view.num_players))
        lines: list[RenderableType] = []
        for seat, count in enumerate(view.counts_seen):
            line = Text("  " + _pad(self._seat_name(seat), width) + "  ")
            if count == 0:
                line.append(self.cat.t("table.out"), style="dim")
            elif count is None:
                line.append(_pad("?", self.rules.dice_per_player + 4), style="bold")
            else:
                dots = ("#" if self.ascii_only else "●") * count
                line.append(_pad(f"{dots} {count}", self.rules.dice_per_player + 4), style="bold")
            if view.shown[seat]:
                line.append("  " + self.cat.t("table.shown", dice=self.dice_text(view.shown[seat])))
            if view.to_act == seat and count:
                line.append("  ◀ " if not self.ascii_only else "  < ", style="bold green")
                line.append(self.cat.t("table.to_act"), style="bold green")
            lines.append(line)
        return Group(*lines)

    def _seat_name(self, seat: int) -> str:
        name = self.who(seat)
        if seat == self.me and name != self.cat.t("seat.you"):
            return f"{name} {self.cat.t('seat.you_mark')}"
        return name

    def header(self, view: PlayerView) -> str:
        total = view.total_seen
        if total is None:  # memory mode (P-40): the view tells no total
            return self.cat.t("round.header_memory", round=view.round)
        return self.cat.t("round.header", round=view.round, total=total)

    def palifico_note(self, view: PlayerView) -> Text | None:
        """Palifico rules in force this round (P-31, P-32, P-33)."""
        if not view.palifico:
            return None
        if view.bid is None:
            text = self.cat.t("palifico.open", who=self.who(view.opener))
        else:
            text = self.cat.t("palifico.locked", face=self.face_word(view.bid.face))
        return Text(text, style="magenta")

    def bids(self, view: PlayerView) -> Text:
        """This round's public actions, in order."""
        line = Text(self.cat.t("bids.title") + " ", style="bold")
        if not view.actions:
            line.append(self.cat.t("bids.none"), style="dim")
            return line
        for i, (seat, action) in enumerate(view.actions):
            if i:
                line.append(" · ")
            line.append_text(self.move(seat, action))
        return line

    def current_bid(self, view: PlayerView) -> Text:
        if view.bid is None or view.bidder is None:
            return Text(self.cat.t("bid.opening", who=self.who(view.to_act or 0)))
        line = Text(self.cat.t("bid.current_label") + " ", style="bold")
        line.append(self.bid(view.bid), style="bold cyan")
        line.append(" " + self.cat.t("bid.by", who=self.who(view.bidder)))
        return line

    def hint(self, odds: Chance, *, calza: bool = False) -> Text:
        """The exact chance that the standing bid is true, as the person sees it."""
        key = "hint.calza" if calza else "hint.bid"
        pct = odds.exactly if calza else odds.at_least
        return Text(
            self.cat.t(
                key,
                pct=_percent(pct),
                mine=odds.mine,
                unseen=odds.unseen,
                expected=f"{odds.expected:.1f}",
            ),
            style="yellow",
        )

    def options(self, view: PlayerView) -> Text:
        """What the person may do now, compactly: the lowest raise per face, then the calls."""
        cat = self.cat
        legal = view.legal
        bids = [a for a in legal if isinstance(a, Bid)]
        converts = self.rules.wild_conversion != "none"
        wild = wild_active(self.rules, view.palifico) if converts else None
        lowest: dict[int, Bid] = {}
        for b in bids:
            if b.face not in lowest or b.quantity < lowest[b.face].quantity:
                lowest[b.face] = b
        parts: list[str] = []
        plain = [str(lowest[f]) for f in sorted(lowest) if f != wild]
        if plain:
            parts.append(cat.t("may.bid", bids=" ".join(plain)))
        if wild is not None and wild in lowest:
            label = self.face_word(wild)
            parts.append(cat.t("may.wild", aces=label, bid=str(lowest[wild])))
        # (In memory mode the view offers the bids up to the dice at the start, P-40.)
        if view.bid is not None and not bids and view.phase is Phase.BIDDING:
            parts.append(cat.t("may.no_raise"))
        if Dudo() in legal:
            parts.append(cat.t("word.dudo"))
        if Calza() in legal:
            parts.append(cat.t("word.calza"))
        if Pass() in legal:
            parts.append(cat.t("may.pass"))
        if any(isinstance(a, SetAside) for a in legal):
            parts.append(cat.t("may.aside"))
        if ChoosePalifico(True) in legal:
            parts.append(cat.t("word.palifico"))
            parts.append(cat.t("may.normal"))
        line = Text(cat.t("may.title") + " ", style="bold green")
        line.append(" · ".join(parts))
        return line

    def status(self, view: PlayerView, odds: Chance | None) -> Group:
        """The screen at the person's turn: table, dice, bids, current bid, hint, options."""
        parts: list[RenderableType] = [self.seats(view)]
        if view.hand or (view.seat is not None and view.shown[view.seat]):
            parts.append(Text(self.cat.t("hand.title"), style="bold"))
            shown = view.shown[view.seat] if view.seat is not None else ()
            parts.append(self.hand(view.hand, palifico=view.palifico, shown=shown))
        note = self.palifico_note(view)
        if note is not None:
            parts.append(note)
        parts.append(self.bids(view))
        parts.append(self.current_bid(view))
        if odds is not None:
            parts.append(self.hint(odds))
        parts.append(self.options(view))
        return Group(*parts)

    # The reveal ----------------------------------------------------------------------------

    def revealed_hand(self, hand: Sequence[int], face: int | None, palifico: bool) -> Text:
        """A revealed hand, the dice that count toward the bid in bold with a ``*``."""
        text = Text()
        for i, d in enumerate(hand):
            if i:
                text.append(" ")
            counts = face is not None and count_hand(self.rules, (d,), face, palifico) > 0
            text.append(f"{d}{_COUNT_MARK}" if counts else str(d), style="bold" if counts else "")
        return text

    def resolution(
        self, result: RoundResolved, counts: Sequence[int | None]
    ) -> list[RenderableType]:
        """The challenge told in order (P-21): who revealed what, the running count, who kept
        their dice hidden, the verdict, dice lost or gained, eliminations, the next opener.

        ``counts`` are the dice counts after the round as the person's view shows them
        (:attr:`~perudo.core.PlayerView.counts_seen`: ``None`` where memory mode hides one,
        P-40).
        """
        cat = self.cat
        out: list[RenderableType] = []
        face = result.bid.face if result.bid is not None else None
        if result.kind == "concede":  # P-24: the round is void, nobody reveals
            out.append(Text(cat.t("reveal.concede", who=self.who(result.caller)), style="bold"))
            return [*out, *self._aftermath(result, counts)]
        if result.kind == "pass":
            title = cat.t(
                "reveal.pass", caller=self.who(result.caller), who=self.who(result.target)
            )
        else:
            assert result.bid is not None
            word = cat.t("word.dudo" if result.kind == "dudo" else "word.calza")
            title = cat.t(
                "reveal.title",
                caller=self.who(result.caller),
                call=word,
                bid=self.bid(result.bid),
                who=self.who(result.target),
            )
        out.append(Text(title, style="bold"))
        running = 0
        width = max((cell_len(self.who(r.seat)) for r in result.reveals), default=0)
        hands = [self.revealed_hand(r.hand, face, result.palifico) for r in result.reveals]
        hand_width = max((h.cell_len for h in hands), default=0)
        for reveal, hand in zip(result.reveals, hands, strict=True):
            running += reveal.count
            line = Text("  " + _pad(self.who(reveal.seat), width) + "  ")
            line.append_text(hand)
            line.append(" " * (hand_width - hand.cell_len))
            if result.kind == "pass":
                line.append("  " + cat.t("reveal.distinct", n=reveal.count))
            else:
                line.append("  " + cat.t("reveal.count", n=reveal.count, running=running))
            out.append(line)
        if result.hidden:
            names = ", ".join(self.who(s) for s in result.hidden)
            out.append(Text("  " + cat.t("reveal.hidden", who=names), style="dim"))
        out.append(Text(self._verdict(result), style="bold"))
        why = self._loss_reason(result)
        if why is not None:
            out.append(Text(why))
        return [*out, *self._aftermath(result, counts)]

    def _aftermath(
        self, result: RoundResolved, counts: Sequence[int | None]
    ) -> list[RenderableType]:
        """Dice lost or gained, who is out, who opens next."""
        cat = self.cat
        out: list[RenderableType] = []
        for seat, change in result.changes:
            out.append(Text(self._change(seat, change, counts[seat]), style="yellow"))
        left = sum(1 for c in counts if c != 0)  # a hidden count (None) is a seat still in
        for seat in result.eliminated:
            # "the bots play on" only when two or more are left to play
            you = "elim.you" if left >= 2 else "elim.you_last"
            key = "elim.other" if seat != self.me else you
            out.append(Text(cat.t(key, who=self.who(seat)), style="bold red"))
        if result.next_opener is not None:
            out.append(Text(cat.t("next_opener", who=self.who(result.next_opener))))
        return out

    def _verdict(self, result: RoundResolved) -> str:
        cat = self.cat
        if result.kind == "pass":
            return cat.t("verdict.pass_true" if result.holds else "verdict.pass_false")
        assert result.bid is not None
        fields = {"count": result.count, "bid": self.bid(result.bid)}
        if result.kind == "calza":
            return cat.t("verdict.calza_exact" if result.holds else "verdict.calza_wrong", **fields)
        if result.holds:
            return cat.t("verdict.dudo_holds", **fields)
        return cat.t("verdict.dudo_fails", **fields)

    def _loss_reason(self, result: RoundResolved) -> str | None:
        """Why the dice were lost under Bluff's loss by the difference (V-4): a loss larger
        than the dice the loser had takes what they had, and is told so."""
        if self.rules.loss != "difference" or result.kind != "dudo" or result.bid is None:
            return None
        q, count = result.bid.quantity, result.count
        if count == q:
            return self.cat.t("loss.exact", who=self.who(result.target))
        key, n, loser = ("loss.short", q - count, result.target)
        if count > q:
            key, n, loser = ("loss.over", count - q, result.caller)
        had = next((-change for seat, change in result.changes if seat == loser), n)
        if had < n:
            return self.cat.t(f"{key}_capped", n=n, had=had, who=self.who(loser))
        return self.cat.t(key, n=n, who=self.who(loser))

    def _change(self, seat: int, change: int, left: int | None) -> str:
        cat = self.cat
        who = self.who(seat)
        if change == 0:
            return cat.t("change.capped", who=who, max=self.rules.dice_per_player)
        key = "change.gain" if change > 0 else ("change.lose" if change == -1 else "change.lose_n")
        text = cat.t(key, who=who, n=abs(change))
        # No count where memory mode hides it (P-40), nor for a seat that is out: the line after
        # says so.
        if left:
            text += " " + cat.t("change.now" if change > 0 else "change.left", n=left)
        return text
