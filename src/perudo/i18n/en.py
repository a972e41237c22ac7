"""English messages (the default). Keys and placeholders match :mod:`perudo.i18n.ko` and
:mod:`perudo.i18n.it`; ``input.…`` keys list words a player may type."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, str | list[str]]] = {
    # What a player may type (every language's words are accepted everywhere).
    "input.dudo": ["dudo", "liar"],
    "input.calza": ["calza"],
    "input.palifico": ["palifico"],
    "input.normal": ["normal"],
    "input.pass": ["pass"],
    "input.aside": ["aside"],
    "input.aces": ["aces", "ace", "ones"],
    "input.help": ["help", "h", "?"],
    "input.quit": ["quit", "exit", "q"],
    "input.skip": ["n", "no", "skip"],
    # The games' own words.
    "word.dudo": "dudo",
    "word.calza": "calza",
    "word.palifico": "palifico",
    "word.aces": "aces",
    # Seats.
    "seat.you": "You",
    "seat.you_mark": "(you)",
    "seat.bot": "Bot {n}",
    "seat.generic": "Seat {n}",
    # Bids and actions.
    "bid.face": "{q} × {f}",
    "bid.aces": "{q} × aces",
    "act.dudo": "{dudo}!",
    "act.calza": "{calza}!",
    "act.pass": "pass",
    "act.aside": "aside: {dice}",
    "act.choose_palifico": "{palifico} round",
    "act.choose_normal": "normal round",
    # The start and the rounds.
    "rolloff.throw": "Roll-off (P-2): {dice}",
    "rolloff.opens": "Highest roll: {who}, to open the first round.",
    "start.from_record": "Continuing a recorded game at round {round}.",
    "round.header": "Round {round} · {total} dice in play",
    "round.header_memory": "Round {round} · {total} dice in play · memory mode (P-40)",
    "round.opens": "Opener: {who}.",
    "palifico.announce": (
        "Palifico round for {who}, down to one die: aces are not wild, and the face of the "
        "opening bid stays (P-30, P-31, P-32)."
    ),
    "palifico.open": "Palifico: the opener ({who}) may bid any face, aces included (P-32).",
    "palifico.locked": (
        "Palifico: the face stays {face}; only a player holding one die may change it "
        "(P-32, P-33)."
    ),
    "palifico.choose": (
        "You hold one die and open with two players left: choose a palifico round (aces "
        "not wild, the face stays) or a normal round. Either uses up your palifico (P-34)."
    ),
    "palifico.chosen": "{who}: a {palifico} round (P-34).",
    "palifico.declined": "{who}: a normal round; the {palifico} is used up all the same (P-34).",
    # The table.
    "table.out": "out",
    "table.shown": "shown: {dice}",
    "table.to_act": "to act",
    "hand.title": "Your dice:",
    "hand.wild": "{mark} = {aces}: wild, they count as any face (P-15)",
    "hand.not_wild": "Palifico: {aces} are not wild this round (P-31)",
    "hand.shown": "↑ set aside face up: {dice} (V-9)",
    "hand.rerolled": "Your dice after the re-roll:",
    "bids.title": "Bids:",
    "bids.none": "none yet",
    "bid.opening": "No bid yet; opener: {who}.",
    "bid.current_label": "Current bid:",
    "bid.by": "({who})",
    "hint.bid": (
        "Chance it is true: {pct} · counting dice you see: {mine} · unseen dice: {unseen} · "
        "expected in all: {expected}"
    ),
    "hint.calza": "Chance it is exact: {pct}",
    "may.title": "You may:",
    "may.bid": "bid {bids} or higher",
    "may.wild": "{aces} {bid} or higher",
    "may.no_raise": "no higher bid exists (P-16)",
    "may.pass": "pass (V-10)",
    "may.aside": "aside + dice to show, e.g. aside 55 (V-9)",
    "may.normal": "normal",
    # Asking.
    "turn.rule": "{who}: your turn",
    "turn.must_raise": "You set dice aside and re-rolled: now raise the bid (V-9).",
    "prompt.turn": "Your move> ",
    "prompt.calza": "Call {calza} on {bid}? ({calza} / Enter to go on)> ",
    "calza.dice": "Your dice: {dice}.",
    "err.unknown": (
        "Not understood: “{text}”. Type a bid such as 3x5 or 3 5, “3 {aces}”, {dudo}, or help."
    ),
    "err.aside": "“{text}”: write the faces to set aside, for example aside 55 (V-9).",
    "err.illegal": "Not allowed: {reason}",
    "err.empty": "Type a bid such as 3x5, or {dudo}, or help.",
    "help.text": (
        "How to play:\n"
        "  3x5 or 3 5     bid: at least three dice on the table show 5 ({aces} count as any "
        "face)\n"
        "  3 {aces}         bid on {aces} (same as 3x1)\n"
        "  {dudo}           challenge the last bid: the loser of the count loses a die\n"
        "  {calza}          the last bid is exactly right (when the rules have calza)\n"
        "  {palifico}, normal   the two-player choice (P-34)\n"
        "  pass, aside 55   where the rules have them (V-10, V-9)\n"
        "  help, quit"
    ),
    # The challenge.
    "reveal.title": "Checking {bid} (bid: {who} · {call}: {caller})",
    "reveal.pass": "Checking the pass of {who} (dudo: {caller}): their dice are shown (V-10).",
    "reveal.count": "{n} count · running {running}",
    "reveal.distinct": "{n} different faces",
    "reveal.hidden": "Kept hidden, never shown (P-21): {who}",
    "verdict.dudo_holds": "{count} found: the bid {bid} holds.",
    "verdict.dudo_fails": "Only {count}: the bid {bid} fails.",
    "verdict.calza_exact": "Exactly {count}: calza!",
    "verdict.calza_wrong": "{count}, not exactly {bid}: the calza fails.",
    "verdict.pass_true": "All different: the pass was true.",
    "verdict.pass_false": "Not all different: the pass was false.",
    "change.lose": "{who}: −1 die",
    "change.lose_n": "{who}: −{n} dice",
    "change.gain": "{who}: +1 die",
    "change.capped": "{who}: already {max} dice, nothing gained (P-51)",
    "change.left": "({n} left)",
    "elim.other": "{who} is out of the game (P-23).",
    "elim.you": "You are out of the game (P-23). The bots play on to the end.",
    "next_opener": "Next round's opener: {who}.",
    # The end.
    "over.winner": "{who} wins the game!",
    "over.you_win": "You win the game!",
    "bye": "Goodbye!",
    "save.prompt": "Save the game record? File name (Enter to skip): ",
    "save.prompt_partial": "Save the game so far? File name (Enter to skip): ",
    "save.done": "Game record saved to {path}.",
    "save.failed": "Could not save to {path}: {error}",
    # Replay.
    "replay.title": "Replay: {rules}, {players} players, {moves} moves",
    "replay.unreadable": "Cannot read {path}: {error}",
    "replay.bad": "This record cannot start: {error}",
    "replay.bad_move": "Move {n} ({who}: {action}) is not legal: {error}",
    "replay.chance": "chance",
    "replay.round": "Round {round}",
    "replay.reroll": "{who} re-rolls: {dice}",
    "replay.in_play": "round not finished",
    "replay.revealed": "revealed at the table (#{n})",
    "replay.hidden": "never revealed at the table (P-21)",
    "replay.next": "Enter: next round · q: quit> ",
    "replay.help": "Enter shows the next round; q (or quit) stops.",
    "replay.unfinished": "The record ends before the game does.",
    "replay.end": "End of the record.",
}
