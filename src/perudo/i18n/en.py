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
    "input.yes": ["y", "yes"],
    "input.end": ["end"],
    "input.skip": ["n", "no", "skip"],
    # The games' own words.
    "word.dudo": "dudo",
    "word.calza": "calza",
    "word.palifico": "palifico",
    # The same as labels (buttons, headings, pills: the web page), where a sentence says them
    # as above.
    "word.label.dudo": "Dudo",
    "word.label.calza": "Calza",
    "word.label.palifico": "Palifico",
    "word.aces": "aces",
    "word.star": "{f}★",
    # Seats.
    "seat.you": "You",
    # The person spoken to in a sentence (perudo.i18n.grammar.Addressee): subject, object.
    "seat.you_subject": "you",
    "seat.you_object": "you",
    "seat.you_mark": "(you)",
    "seat.bot": "Bot {n}",
    "seat.generic": "Seat {n}",
    "name.bot": "{level} bot {n}",
    "name.level.easy": "Easy",
    "name.level.medium": "Medium",
    "name.level.hard": "Hard",
    "name.level.expert": "Expert",
    # Bids and actions.
    "bid.face": "{q} × {f}",
    "bid.aces": "{q:ace/aces}",
    "bid.star": "{q} × {f}★",
    # Faces and bids as a screen reader says them on the web page ("three fives").
    "say.face.1": "one",
    "say.face.2": "two",
    "say.face.3": "three",
    "say.face.4": "four",
    "say.face.5": "five",
    "say.face.6": "six",
    "say.face.7": "seven",
    "say.face.8": "eight",
    "say.face.9": "nine",
    "say.wild": "{face} (wild)",
    "say.bid": "{q} {faces}",
    "say.faces.1": "ones",
    "say.faces.2": "twos",
    "say.faces.3": "threes",
    "say.faces.4": "fours",
    "say.faces.5": "fives",
    "say.faces.6": "sixes",
    "say.faces.7": "sevens",
    "say.faces.8": "eights",
    "say.faces.9": "nines",
    "say.bid_one": "a single {face}",
    "act.dudo": "{dudo}!",
    "act.calza": "{calza}!",
    "act.pass": "pass",
    "act.aside": "aside: {dice}",
    "act.choose_palifico": "{palifico} round",
    "act.choose_normal": "normal round",
    # The start and the rounds.
    "rolloff.throw": "Roll-off: {dice}",
    "rolloff.opens": "Highest roll: {who}, to open the first round.",
    "start.from_record": "Continuing a recorded game at round {round}.",
    "round.header": "Round {round} · {total} dice in play",
    "round.header_memory": "Round {round} · memory mode",
    "round.opens": "Opener: {who}.",
    "palifico.announce": (
        "Palifico round for {who:obj}, down to one die: aces are not wild, and the face of the "
        "opening bid stays."
    ),
    "palifico.open": "Palifico: the opener ({who}) may bid any face, aces included.",
    "palifico.locked": (
        "Palifico: the face stays {face}; only a player holding one die may change it."
    ),
    "palifico.choose": (
        "You hold one die and open with two players left: choose a palifico round (aces "
        "not wild, the face stays) or a normal round. Either uses up your palifico."
    ),
    "palifico.chosen": "{who}: a {palifico} round.",
    "palifico.declined": "{who}: a normal round; the {palifico} is used up all the same.",
    # The table.
    "table.out": "out",
    "table.shown": "shown: {dice}",
    "table.to_act": "to act",
    "hand.title": "Your dice:",
    "hand.wild": "{mark} = {aces}: wild, they count as any face",
    "hand.not_wild": "Palifico: {aces} are not wild this round",
    "hand.shown": "↑ set aside face up: {dice}",
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
    "may.no_raise": "no higher bid exists",
    "may.pass": "pass",
    "may.aside": "aside + dice to show, e.g. aside 55",
    "may.normal": "normal",
    # Asking.
    "turn.rule": "{who}: your turn",
    "turn.must_raise": "You set dice aside and re-rolled: now raise the bid.",
    "prompt.turn": "Your move> ",
    "prompt.calza": "Call {calza} on {bid}? ({calza} / Enter to go on)> ",
    "calza.dice": "Your dice: {dice}.",
    "calza.help": "Type {calza} if the bid is exactly right, or press Enter to go on.",
    "err.unknown": (
        "Not understood: “{text}”. Type a bid such as 3x5 or 3 5, “3 {aces}”, {dudo}, or help."
    ),
    "err.aside": "“{text}”: write the faces to set aside, for example aside 55.",
    "err.illegal": "Not allowed: {reason}",
    "err.encoding": (
        "That line cannot be read: this terminal's input is {encoding}. Type plain letters and "
        "digits (3x5, dudo, q), or use a UTF-8 locale."
    ),
    "err.empty": "Type a bid such as 3x5, or {dudo}, or help.",
    # Help: one line per thing that can be typed (only what these rules have), aligned by
    # the terminal; {wild} is the wild face's name (aces, or Bluff's 6★).
    "help.title": "How to play:",
    "help.bid": "bid: at least three 5s on the table, {wild} included",
    "help.bid_no_wild": "bid: at least three 5s on the table",
    "help.aces": "bid on {wild} (same as 3x1)",
    "help.star": "bid on {wild}, the wild face",
    "help.dudo": "challenge the last bid: the loser of the count loses dice",
    "help.calza": "the last bid is exactly right",
    "help.palifico": "the choice of the last two players, holding one die",
    "help.pass": "pass instead of raising",
    "help.aside": "set the 5s aside face up, re-roll the rest, then raise",
    "help.commands": "this help · leave the game",
    # The challenge.
    "reveal.title": "Checking {bid} (bid: {who} · {call}: {caller})",
    "reveal.pass": "Checking a pass (pass: {who} · dudo: {caller}): the passer's dice are shown.",
    "reveal.concede": "{who:concedes/concede} the game: the round is void, nobody reveals.",
    "reveal.count": "{n} count · running {running}",
    "reveal.distinct": "{n:different face/different faces}",
    "reveal.hidden": "Kept hidden, never shown: {who}",
    "verdict.dudo_holds": "{count} found: the bid {bid} holds.",
    "verdict.dudo_fails": "Only {count}: the bid {bid} fails.",
    "verdict.calza_exact": "Exactly {count}: calza!",
    "verdict.calza_wrong": "{count}, not exactly {bid}: the calza fails.",
    "verdict.pass_true": "All different: the pass was true.",
    "verdict.pass_false": "Not all different: the pass was false.",
    "change.lose": "{who}: −1 die",
    "change.lose_n": "{who}: −{n} dice",
    "change.gain": "{who}: +1 die",
    "change.capped": "{who}: already {max:die/dice}, nothing gained",
    "change.left": "({n} left)",
    "change.now": "(now {n})",
    "elim.other": "{who} is out of the game.",
    "elim.you": "You are out of the game. The bots play on to the end.",
    "bot.thinking": "{who} is thinking…",
    "rolloff.tie": "A tie for the highest die ({face}: {who}): everyone rolls again.",
    "prompt.out": "Enter: watch the bots play on · end: skip to the result · q: leave> ",
    "out.skipping": "Skipping to the result…",
    "out.help": "Press Enter to watch, type end to skip to the result, or q to leave.",
    "elim.you_last": "You are out of the game.",
    "save.exists": "{path} already exists. Replace it? (y/N) ",
    "save.again": "Try another file name (Enter to skip): ",
    "loss.short": (
        "The bid was {n} too high, so {who:loses/lose} {n:die/dice} (loss by the difference)."
    ),
    "loss.short_capped": (
        "The bid was {n} too high: the loss by the difference is {n:die/dice}, but "
        "{who:has/have} only {had:die/dice} to lose."
    ),
    "loss.over": (
        "There were {n} more than the bid, so {who:loses/lose} {n:die/dice} (loss by the "
        "difference)."
    ),
    "loss.over_capped": (
        "There were {n} more than the bid: the loss by the difference is {n:die/dice}, but "
        "{who:has/have} only {had:die/dice} to lose."
    ),
    "loss.exact": "The bid was exactly right, so everyone but {who:obj} loses one die.",
    "next_opener": "Next round's opener: {who}.",
    # The end.
    "over.winner": "{who:wins/win} the game!",
    "over.you_win": "You win the game!",
    "bye": "Goodbye!",
    "save.prompt": ("Save the game record? File name, " "or y for a dated one (Enter to skip): "),
    "save.prompt_partial": (
        "Save the game so far? File name, " "or y for a dated one (Enter to skip): "
    ),
    "save.done": "Game record saved to {path}.",
    "save.failed": "Could not save to {path}: {error}",
    # Replay.
    "replay.title": "Replay: {rules}, {players} players, {moves:move/moves}",
    "replay.seats": "Players: {seats}",
    "replay.human": "{who} (person)",
    "replay.bot": "{who} (bot, {level})",
    "replay.rules_dice": "{name} with {n:die/dice} each",
    "replay.rules_custom": "custom rules",
    "level.easy": "easy",
    "level.medium": "medium",
    "level.hard": "hard",
    "level.expert": "expert",
    "replay.software": "Played with {software}.",
    "replay.not_text": "Cannot read {path}: it is not a text file (UTF-8).",
    "replay.unreadable": "Cannot read {path}: {error}",
    "replay.bad": "This record cannot start: {error}",
    "replay.bad_move": "Move {n} ({who}: {action}) is not legal: {error}",
    "replay.chance": "chance",
    "replay.round": "Round {round}",
    "replay.reroll": "{who:re-rolls/re-roll}: {dice}",
    "replay.in_play": "round not finished",
    "replay.revealed": "revealed at the table (#{n})",
    "replay.hidden": "never revealed at the table",
    "replay.next": "Enter: next round · q: quit> ",
    "replay.help": "Enter shows the next round; q (or quit) stops.",
    "replay.unfinished": "The record ends before the game does.",
    "replay.end": "End of the record.",
    # Refusals: why a move is not allowed (perudo.i18n.refusal_text; the codes of
    # perudo.core's IllegalActionError and NotationError). A seat is a name, a bid a bid.
    "server.store_error": "The game could not be saved. Please try again.",
    "server.not_your_seat": "Only the person who played that seat may see its analysis.",
    "server.explain_people": (
        "The explain panel is only for a table where everyone else is a bot: "
        "among people it would be help the others lack."
    ),
    "server.not_seated": "Only the player seated here may open the explain panel.",
    "server.hands_hidden": (
        "This table did not agree to show every hand at the end: "
        "the hands nobody lifted stay hidden."
    ),
    "server.old_page": "This page is out of date: reload it to call dudo or calza.",
    "server.bot_tables": (
        "This bot account already sits at {n:table/tables}, the most it may: leave a table "
        "that waits for players, or let a game end first."
    ),
    # Play now (perudo.server.play): the pool's refusals and notices.
    "server.pool_gone": (
        "Your place in the Play now queue was lost while you were away. Press Play now again."
    ),
    "server.pool_failed": "No table could be made for you just now. Press Play now again.",
    "server.pool_table_name": "Play now with {name}",
    "server.pool_rated_signed_in": "Rated Play now is for signed-in players: sign in first.",
    "server.pool_rated_bot_account": (
        "A bot account waits only in unrated Play now queues: rated games are people's."
    ),
    "server.pool_rated_bots": "A rated game has no bots: choose no bots, or an unrated game.",
    "server.pool_preset": "There are no such rules to play.",
    "server.pool_seating": "Your table is being made: it is too late to leave the queue.",
    "server.pool_other": "You are already waiting in another Play now queue: leave it first.",
    "server.pool_not_waiting": "You are not waiting in a Play now queue.",
    "server.waiting_tables": (
        "You already have {n:table/tables} waiting for players: start a game at one of them, "
        "or wait until they expire."
    ),
    "refusal.error": "Something is wrong.",
    "refusal.illegal": "That move is not allowed now.",
    "refusal.notation": "That cannot be read as a move.",
    "refusal.rolloff.empty": "The roll-off needs at least one throw.",
    "refusal.rolloff.bad_throw": "Roll-off throw {throw} must be one die of 1–{faces} per player.",
    "refusal.rolloff.tie": (
        "Only the last roll-off throw may have a single highest die: a tie means everyone rolls "
        "again."
    ),
    "refusal.seat.unknown": "There is no such seat at this table of {players}.",
    "refusal.game.over": "The game is over: {winner} won.",
    "refusal.chance.not_a_seat": "You cannot roll the dice: the table rolls them.",
    "refusal.action.unknown": "That is not a Perudo move.",
    "refusal.turn.chance": "Nobody plays now: the dice are being rolled.",
    "refusal.seat.out": "You are out of the game.",
    "refusal.turn.not_yours": "It is {to_act}'s turn, not yours.",
    "refusal.palifico.choose_first": "First choose a palifico round or a normal round.",
    "refusal.palifico.not_due": "There is no palifico choice to make now.",
    "refusal.aside.must_raise": "You set dice aside and re-rolled: now raise the bid.",
    "refusal.dudo.no_bid": "There is no bid to challenge yet: the opener bids first.",
    "refusal.bid.refused": "That bid is not allowed here.",
    "refusal.bid.no_face": "There is no face {face} on a {faces}-faced die.",
    "refusal.bid.too_many": "{bid} claims more dice than the {total} in play.",
    "memory.refusal.bid.too_many": "{bid} claims more dice than there are in play.",
    "refusal.bid.open_on_wild": "A round may not open on {wild}.",
    "refusal.bid.palifico_face": (
        "In a palifico round the face stays {face}: bid more of them, or call dudo. Only a player "
        "holding one die may change it."
    ),
    "refusal.bid.more_than": "After {prev}, bid more than {quantity}.",
    "refusal.bid.to_wild": "After {prev}, a bid on {wild} needs at least {need} of them.",
    "refusal.bid.from_wild": "After {prev}, a bid on another face needs at least {need} dice.",
    "refusal.bid.monotone": (
        "{bid} does not raise {prev}: neither the quantity nor the face may go down, and one "
        "must go up."
    ),
    "refusal.bid.not_raise": (
        "{bid} does not raise {prev}: bid more dice, or as many of a higher face."
    ),
    "refusal.bid.illegal": "{bid} is not a legal bid now.",
    "refusal.deal.not_due": "No deal is due now.",
    "refusal.deal.hands": "A deal holds one hand per player ({players}).",
    "refusal.deal.bad_hand": "{seat} rolls {count:die/dice} of 1–{faces}, not {hand}.",
    "refusal.reroll.not_due": "No re-roll is due now.",
    "refusal.reroll.bad": "The re-roll is {count:die/dice} of 1–{faces}, not {hand}.",
    "refusal.chance.not_due": "No dice are due to be rolled now.",
    "refusal.calza.off": "Calza is not played with these rules.",
    "refusal.calza.no_bid": "Calza needs a standing bid.",
    "refusal.calza.on_pass": "Calza is called on a bid, not on a pass: raise, or doubt the pass.",
    "refusal.calza.few_players": "Calza needs at least {min} players in the game.",
    "refusal.calza.own_bid": "Nobody may call calza on their own bid.",
    "refusal.calza.next_player": (
        "The player whose turn is next cannot call calza: raise, or call dudo."
    ),
    "refusal.calza.only_to_act": (
        "With these rules only the player whose turn it is may call calza."
    ),
    "refusal.pass.off": "Passing is not played with these rules.",
    "refusal.pass.opening": "The opener must bid: a pass takes the place of a raise.",
    "refusal.pass.after_pass": "After a pass, raise the bid before it or call dudo on the pass.",
    "refusal.pass.already": "You have already passed this round.",
    "refusal.aside.off": "Setting dice aside is not played with these rules.",
    "refusal.aside.palifico": "No dice are set aside in a palifico round.",
    "refusal.aside.opening": "Dice are set aside before a raise, not before the opening bid.",
    "refusal.aside.keep_one": "At least one die stays hidden under the cup.",
    "refusal.aside.no_raise": "No bid is left to raise to after setting dice aside.",
    "refusal.aside.not_held": "You do not hold {count:hidden die/hidden dice} showing {face}.",
    "refusal.notation.positive": "{what} must be 1 or more, not {value}.",
    "word.what_quantity": "The number of dice",
    "word.what_face": "The face",
    "word.what_die": "A die",
    "refusal.notation.bid": (
        "“{text}” is not a bid: write the number of dice and the face, for example 3x5 (three 5s)."
    ),
    "refusal.notation.aside": "Set aside at least one die.",
    "refusal.notation.faces": "“{text}” is not a run of faces such as 1346.",
    "refusal.notation.not_text": "A move is written as text.",
    "refusal.notation.empty": "Write a bid such as 3x5, or dudo.",
    "refusal.notation.action": (
        "“{text}” is not a move: write a bid such as 3x5, or dudo, calza, pass, palifico, "
        "normal, aside 55."
    ),
    "refusal.record.illegal_move": "Move {move} ({seat}: {action}) is not legal: {cause}",
    "refusal.record.not_json": "This is not a game record: it is not JSON ({error}).",
    "refusal.record.not_object": "A game record is a JSON object.",
    "refusal.record.format": "This is not a game record: its format is not perudo-record.",
    "refusal.record.version": "Unknown game record version: {version}.",
    "refusal.record.field": "The game record lacks the field “{field}”.",
    "refusal.record.rules": "The record's rules must be an object.",
    "refusal.record.bad_rules": "The record's rules are not valid: {error}",
    "refusal.record.players": "The record's number of players must be a whole number.",
    "refusal.record.player_count": (
        "The record has {players:player/players}; its rules take {min}–{max}."
    ),
    "refusal.record.rolloff": "The record's roll-off must be a list of throws.",
    "refusal.record.moves": "The record's moves must be a list.",
    "refusal.record.move": "Move {move} of the record is not an object with an action.",
    "refusal.record.move_seat": (
        "Move {move} of the record: the seat must be a whole number or null."
    ),
    "refusal.record.software": "The record's software must be text.",
    "refusal.record.memory": "The record's memory mode must be true or false.",
    "refusal.record.seats": "The record's seats must be a list of {players:seat/seats}.",
    "refusal.record.seat": (
        "Seat {number} of the record needs a name, a kind (human or bot) and a level."
    ),
    "refusal.record.move_action": "Move {move} of the record: {cause}",
    "word.chance": "the dice",
    # Accounts (perudo.server.accounts): refusals of the sign-up and sign-in forms.
    "account.name.length": "A name has 3 to 20 letters or digits.",
    "account.name.chars": "A name may hold letters, digits, _ and - only (no spaces).",
    "account.name.invisible": (
        "A name may not hold invisible characters or " "characters that reverse the text."
    ),
    "account.name.mixed": "A name may not mix alphabets that look alike (Latin, Greek, Cyrillic).",
    "account.name.reserved": (
        "That name is kept for the game itself (bots, " "spectators). Please choose another."
    ),
    "account.name.taken": "That name, or one that looks like it, is taken. Please choose another.",
    "account.password.short": "A password has at least 8 characters.",
    "account.password.long": "A password has at most 256 characters.",
    "account.password.is_name": "A password must not be your name.",
    "account.sign_in.failed": "Wrong name or password.",
    "account.sign_in.limited": "Too many attempts. Please wait a few minutes and try again.",
    "account.busy": "The server is busy checking passwords. Please try again in a moment.",
    "account.signed_out": "You are not signed in.",
    "account.forbidden": "This request did not come from this site's page. Please reload the page.",
    "account.no_session": "There is no such session.",
    "account.password.exists": "This account already has a password: change it instead.",
    "account.password.wrong": "That is not your current password.",
    "account.deleted": "deleted player",
    "account.no_player": "There is no player of that name.",
    "account.no_variant": "There is no such variant.",
    "account.passkey.expired": (
        "That passkey request has expired or was " "already used. Please try again."
    ),
    "account.passkey.failed": "The passkey was not accepted. Please try again.",
    "account.passkey.sign_in_failed": "That passkey was not accepted here.",
    "account.passkey.known": "That passkey is already on an account.",
    "account.passkey.last": (
        "That is your last way to sign in: add another " "passkey or a password first."
    ),
    "account.passkey.none": "There is no such passkey.",
    # Bot accounts (perudo.server.accounts.botapi, docs/bot-api.md).
    "account.bot.no_sign_in": (
        "This is a bot account: it plays through the bot API with its token and does not "
        "sign in on the page."
    ),
    "account.bot.played": (
        "Only an account that has played no game, and sits at no table, can become a bot account."
    ),
    "account.bot.token_needed": (
        "The bot API needs a bot account's token, sent as the header "
        '"Authorization: Bearer <token>"; a signed-in session opens nothing of it.'
    ),
    "account.bot.bad_token": "That bot token is not valid: it was revoked, or never existed.",
    "account.bot.no_token": "There is no such token.",
    "account.bot.too_many_tokens": (
        "This bot account has all the tokens it may " "hold: revoke one first."
    ),
    # Accounts: addresses confirmed and passwords reset by mail (accounts/recovery.py).
    "account.mail.off": (
        "This site sends no mail, so a password cannot be reset by "
        "mail here. Ask the site's operator."
    ),
    "account.email.refused": "That is not an e-mail address.",
    "account.token.bad": (
        "This link has been used, has expired or is wrong. Please " "ask for a new one."
    ),
    "account.mail.limited": "Too many mails asked for. Please wait an hour and try again.",
    "account.forgot.sent": (
        "If that name or address has a confirmed e-mail address, a "
        "link to choose a new password is on its way."
    ),
    "account.email.sent": (
        "A link to confirm {address} is on its way. The address is " "used once you open it."
    ),
    "account.mail.confirm.subject": "Confirm your e-mail address for Perudo",
    "account.mail.confirm.body": (
        "Hello {name},\n\nOpen this link to confirm that {address} is "
        "the address of your Perudo account:\n\n{link}\n\nThe link works "
        "once, for 24 hours. If you did not ask for it, ignore this "
        "mail: nothing changes."
    ),
    "account.mail.reset.subject": "Choose a new Perudo password",
    "account.mail.reset.body": (
        "Hello {name},\n\nSomeone, you we hope, asked to reset the "
        "password of the Perudo account {name}. Open this link to "
        "choose a new one:\n\n{link}\n\nThe link works once, for 30 "
        "minutes, and signs you out everywhere. If you did not ask "
        "for it, ignore this mail: your password stays as it is."
    ),
    # perudo analyze (the analysis of a finished game).
    "analysis.title": "Analysis of a game of {players} players",
    "analysis.own": (
        "Judged from {who}'s view: their own dice, every bid and "
        "call, the hands lifted at the table."
    ),
    "analysis.public": (
        "Judged from what everyone saw: a seat's dice only " "where they were lifted at the table."
    ),
    "analysis.progress": "Analysing: {done} of {total}",
    "analysis.decision": "{who}: {action}",
    "analysis.holds": "{bid} holds: {p} with these dice, {q} reading the bids as the expert does",
    "analysis.holds_public": "{bid} holds: {p} from the dice everyone could see",
    "analysis.expert": "Expert: {action}",
    "analysis.expert_mix": "Expert mixes: {mix}",
    "analysis.loss_exact": "Loss: {round} of the round, {game} of the game (exact, solved)",
    "analysis.loss_estimate": (
        "Loss: {round} of the round (95% interval " "{low} to {high}, {n} rollouts)"
    ),
    "analysis.not_judged": "Not judged: these dice were not seen.",
    "analysis.loss_game": "Loss: {game} of the game (exact, solved)",
    "analysis.same": "The expert's own choice.",
    "analysis.label.good": "good",
    "analysis.label.inaccuracy": "inaccuracy",
    "analysis.label.mistake": "mistake",
    "analysis.label.blunder": "blunder",
    "analysis.accuracy": "Accuracy of {who}: {value}",
    "analysis.accuracy_none": "Accuracy of {who}: no decision judged",
    "analysis.chart": "Chance of winning the game after each round",
    "analysis.start": "start",
    "analysis.exact": "exact",
    "analysis.estimate": "estimate, {n} games",
    "analysis.moments": "The moments that changed the game",
    "analysis.moment": "Round {round}: {who} {before} → {after}",
    "analysis.calls": "Calls",
    "analysis.call_worked": "Round {round}: {who} called {kind} on {bid}: it worked",
    "analysis.call_failed": "Round {round}: {who} called {kind} on {bid}: it failed",
    "analysis.bluffs": "Bluffs",
    "analysis.bluff_worked": "Round {round}: {who} bid {bid} at {p}: not caught",
    "analysis.bluff_caught": "Round {round}: {who} bid {bid} at {p}: caught",
    "analysis.none": "none",
    "analysis.bad_seat": "There is no seat {n} in this game: the seats are 1 to {players}.",
    "analysis.loss_estimate_game": (
        "Loss: {round} of the round (95% interval {low} to {high}), {game} of the game "
        "({glow} to {ghigh}), {n} rollouts"
    ),
    "analysis.true_count": "With every die known: {count} (the bid said {q})",
    "analysis.not_over": (
        "Every hand is shown only once the game is over, and this game is not: "
        "analyse it without --every-hand."
    ),
    # A refusal of a recorded move is told of its player, not to the reader
    # (perudo.i18n.refusal_text, about=True): the codes whose words speak to the player.
    "of.refusal.turn.not_yours": "It is {to_act}'s turn: {seat:is/are} not to move.",
    "of.refusal.seat.out": "{seat:is/are} out of the game.",
    "of.refusal.pass.already": "{seat:has/have} already passed this round.",
    "of.refusal.aside.not_held": (
        "{seat:does/do} not hold {count:hidden die/hidden dice} showing {face}."
    ),
    # Friends and notices (perudo.server.social).
    "server.blocked": "A player at this table has blocked you: you cannot sit here.",
    "account.social.yourself": "That is you.",
    "account.social.blocked_them": "You have blocked this player: unblock them first.",
    "account.social.invite_blocked": "This player does not take invitations from you.",
    "account.social.no_table": "There is no such table.",
    "account.social.not_seated": "You can invite people only to a table where you have a seat.",
    "account.social.not_waiting": "This table's game has started: nobody can join it now.",
    "account.social.no_invitation": "This invitation is no longer open.",
    "account.social.push_service": "This browser's push service is not one this server uses.",
    "push.title": "Perudo",
    "push.turn": "Your turn at {table}.",
    "push.invite": "{from} invites you to {table}.",
    "push.start": "The game at {table} is starting.",
}
