"""``perudo analyze``: every decision of a saved game judged, the chart, the turning points.

``--seat N`` judges seat N's decisions from what seat N saw (its own dice, every bid and call,
the hands lifted at the table); without it the game is judged from what everybody saw (P-70).
``--json`` prints the analysis as JSON (docs/analysis.md) instead of the words.
``--every-hand`` also shows, for each call, every seat's dice of its round and what the call
met with every die known (a record holds every hand; they are shown only for a game that is
over, as a table that agreed to show every hand at the end shows them). A file that is not a
game record, a seat the game does not have, or ``--every-hand`` for a game not over, gets a
clear message and exit status 1.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from perudo.analysis import Analysis
    from perudo.cli.tui.render import Painter
    from perudo.i18n import Catalog

__all__ = ["analyze", "register"]


def analyze(
    file: Annotated[
        Path, typer.Argument(help="A game record (JSON), as written by perudo play --save.")
    ],
    seat: Annotated[
        int | None,
        typer.Option(help="Judge this seat's decisions from its own view (seats from 1)."),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(help="Language: en, ko or it (default: from the locale, else en)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", metavar="", help="Print the analysis as JSON.")
    ] = False,
    rollouts: Annotated[
        int, typer.Option(min=0, help="Rollouts per decision no solved round covers.")
    ] = 32,
    jobs: Annotated[int, typer.Option(min=0, help="Worker processes (0: every core).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the rollouts and the chart's games.")] = 0,
    ascii_only: Annotated[
        bool, typer.Option("--ascii", metavar="", help="Draw with plain ASCII.")
    ] = False,
    every_hand: Annotated[
        bool,
        typer.Option(
            "--every-hand",
            metavar="",
            help="Show every hand of each call's round and what it met (a finished game).",
        ),
    ] = False,
) -> None:
    """Judge every decision of a saved game, draw the chance of winning round by round."""
    from concurrent.futures import ProcessPoolExecutor

    from rich.console import Console

    from perudo.analysis import analyze as run_analysis
    from perudo.core import GameRecord, IllegalActionError, NotationError, Phase
    from perudo.i18n import refusal_text

    from .reading import open_reading

    language, cat, console, plain = open_reading(lang, ascii_only)
    err = Console(file=sys.stderr, highlight=False, emoji=False)

    def who_generic(s: int) -> str:
        return cat.t("seat.generic", n=s + 1)

    try:
        record = GameRecord.loads(file.read_text(encoding="utf-8"))
        record.replay()
    except NotationError as e:
        why = refusal_text(language, e.code, e.params, who_generic)
        _fail(console, cat.t("replay.unreadable", path=str(file), error=why))
    except IllegalActionError as e:
        why = refusal_text(language, e.code, e.params, who_generic)
        _fail(console, cat.t("replay.bad", error=why))
    except UnicodeDecodeError:
        _fail(console, cat.t("replay.not_text", path=str(file)))
    except OSError as e:
        _fail(console, cat.t("replay.unreadable", path=str(file), error=e.strerror or e))
    if seat is not None and not 1 <= seat <= record.num_players:
        _fail(console, cat.t("analysis.bad_seat", n=seat, players=record.num_players))
    if every_hand and record.replay().phase is not Phase.GAME_OVER:
        _fail(console, cat.t("analysis.not_over"))
    viewer = None if seat is None else seat - 1

    def progress(done: int, total: int) -> None:
        if not as_json:
            err.print(cat.t("analysis.progress", done=done, total=total), end="\r")

    workers = jobs or os.cpu_count() or 1
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            result = run_analysis(
                record,
                viewer,
                rollouts=rollouts,
                seed=seed,
                progress=progress,
                executor=pool,
                show_hands=every_hand,
            )
    else:
        result = run_analysis(
            record, viewer, rollouts=rollouts, seed=seed, progress=progress, show_hands=every_hand
        )
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
        return
    err.print(" " * 40, end="\r")
    _show(console, cat, result, record.rules, plain)


def _pct(x: float) -> str:
    return f"{100.0 * x:.1f}%"


def _show(console: Console, cat: Catalog, a: Analysis, rules: object, ascii_only: bool) -> None:
    from rich.text import Text

    from perudo.core import RuleSet

    from .tui.render import Painter

    assert isinstance(rules, RuleSet)
    names = [
        n if n and not n.isdigit() else cat.t("seat.generic", n=s + 1)
        for s, n in enumerate(a.names)
    ]
    paint = Painter(cat, rules, names, me=a.viewer, ascii_only=ascii_only)
    console.print(Text(cat.t("analysis.title", players=a.players), style="bold"))
    if a.viewer is not None:
        console.print(cat.t("analysis.own", who=names[a.viewer]), soft_wrap=True)
    else:
        console.print(cat.t("analysis.public"), soft_wrap=True)
    current = -1
    for d in a.decisions:
        if d.round != current:
            current = d.round
            console.rule(cat.t("replay.round", round=d.round), style="dim")
        _decision(console, cat, paint, d)
    console.print()
    for s, acc in a.accuracy.items():
        if acc is None:
            console.print(cat.t("analysis.accuracy_none", who=names[s]))
        else:
            console.print(
                Text(cat.t("analysis.accuracy", who=names[s], value=f"{acc:.0f}"), style="bold")
            )
    _chart(console, cat, a, names)
    console.print(Text(cat.t("analysis.moments"), style="bold"))
    for m in a.moments:
        console.print(
            "  "
            + cat.t(
                "analysis.moment",
                round=m["round"],
                who=names[m["seat"]],
                before=_pct(m["before"]),
                after=_pct(m["after"]),
            )
        )
    if not a.moments:
        console.print("  " + cat.t("analysis.none"))
    console.print(Text(cat.t("analysis.calls"), style="bold"))
    for c in a.calls:
        key = "analysis.call_worked" if c["worked"] else "analysis.call_failed"
        kind = cat.t("word.dudo" if c["kind"] == "dudo" else "word.calza")
        bid = _bid_word(paint, c["bid"])
        console.print(
            "  " + cat.t(key, round=c["round"], who=names[c["caller"]], kind=kind, bid=bid)
        )
        if "hands" in c:
            quantity = c["bid_info"]["quantity"]
            console.print("    " + cat.t("analysis.true_count", count=c["true_count"], q=quantity))
            for s, hand in enumerate(c["hands"]):
                if hand:
                    console.print(f"      {names[s]}: [{paint.dice_text(tuple(hand))}]")
    if not a.calls:
        console.print("  " + cat.t("analysis.none"))
    console.print(Text(cat.t("analysis.bluffs"), style="bold"))
    for b in a.bluffs:
        key = "analysis.bluff_worked" if b["worked"] else "analysis.bluff_caught"
        console.print(
            "  "
            + cat.t(
                key,
                round=b["round"],
                who=names[b["seat"]],
                bid=_bid_word(paint, b["bid"]),
                p=_pct(b["chance"]),
            )
        )
    if not a.bluffs:
        console.print("  " + cat.t("analysis.none"))


def _bid_word(paint: Painter, notation: str | None) -> str:
    from perudo.core import Bid, parse_action

    if notation is None:
        return ""
    action = parse_action(notation)
    return paint.bid(action) if isinstance(action, Bid) else notation


_STYLE = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def _decision(console: Console, cat: Catalog, paint: Painter, d: object) -> None:
    from rich.text import Text

    from perudo.analysis import Decision

    assert isinstance(d, Decision)
    line = Text(cat.t("analysis.decision", who=paint.who(d.seat), action=paint.action(d.action)))
    if d.hand is not None:
        line.append(f"  [{paint.dice_text(d.hand)}]", style="dim")
    if d.label is not None:
        line.append("  " + cat.t(f"analysis.label.{d.label}"), style=_STYLE[d.label])
    console.print(line)
    if d.bid is not None and d.holds is not None:
        bid = paint.bid(d.bid)
        if d.holds_beliefs is not None:
            text = cat.t("analysis.holds", bid=bid, p=_pct(d.holds), q=_pct(d.holds_beliefs))
        else:
            text = cat.t("analysis.holds_public", bid=bid, p=_pct(d.holds))
        console.print("    " + text, soft_wrap=True)
    if d.hand is None and d.method is None:
        if d.seat != paint.me:
            console.print("    " + cat.t("analysis.not_judged"), style="dim")
        return
    if d.expert is not None:
        if len(d.policy) > 1:
            mix = ", ".join(
                f"{paint.action(a)} {_pct(p)}"
                for a, p in sorted(d.policy.items(), key=lambda kv: -kv[1])
            )
            console.print("    " + cat.t("analysis.expert_mix", mix=mix), soft_wrap=True)
        else:
            console.print("    " + cat.t("analysis.expert", action=paint.action(d.expert)))
    if d.method == "exact" and d.loss_round is not None:
        game = _pct(d.loss_game) if d.loss_game is not None else "?"
        console.print("    " + cat.t("analysis.loss_exact", round=_pct(d.loss_round), game=game))
    elif d.method == "exact" and d.loss_game is not None:
        console.print("    " + cat.t("analysis.loss_game", game=_pct(d.loss_game)))
    elif d.method == "estimate" and d.loss_round is not None and not d.rollouts:
        console.print("    " + cat.t("analysis.same"))
    elif d.method == "estimate" and d.loss_round is not None:
        words = {
            "round": _pct(d.loss_round),
            "low": _pct(_clip(d.low)),
            "high": _pct(_clip(d.high)),
            "n": d.rollouts,
        }
        if d.loss_game is not None:
            words |= {
                "game": _pct(d.loss_game),
                "glow": _pct(_clip(d.game_low)),
                "ghigh": _pct(_clip(d.game_high)),
            }
            text = cat.t("analysis.loss_estimate_game", **words)
        else:
            text = cat.t("analysis.loss_estimate", **words)
        console.print("    " + text, soft_wrap=True)


def _clip(x: float | None) -> float:
    """An interval's end as shown: a chance given up, from 0% to 100%."""
    return max(0.0, min(1.0, x or 0.0))


def _chart(console: Console, cat: Catalog, a: Analysis, names: list[str]) -> None:
    from rich.table import Table
    from rich.text import Text

    console.print()
    console.print(Text(cat.t("analysis.chart"), style="bold"), soft_wrap=True)
    table = Table(show_edge=False)
    table.add_column("")
    for s in range(a.players):
        table.add_column(names[s], justify="right")
    table.add_column("")
    for p in a.chart:
        label = (
            cat.t("analysis.start") if p["round"] == 0 else cat.t("replay.round", round=p["round"])
        )
        wins = p["wins"]
        cells = ["" if wins is None else _pct(w) for w in (wins or [None] * a.players)]
        how = (
            cat.t("analysis.exact")
            if p["method"] == "exact"
            else cat.t("analysis.estimate", n=p["games"])
            if p["method"] == "estimate"
            else ""
        )
        table.add_row(label, *cells, how)
    console.print(table)


def _fail(console: Console, message: str) -> NoReturn:
    console.print(message, style="bold red", soft_wrap=True)
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze)
