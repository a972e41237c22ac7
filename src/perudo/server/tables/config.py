"""What a table is made of: its settings, its seats, and the error a refused request raises.

:class:`TableConfig` is the rules (a preset and its switches) plus the table's own knobs;
:class:`Seat` is who sits in a seat, a person holding a token (only its :func:`hash_token` is
stored) or a bot; :class:`TableError` carries the wire error code of a request the table
refuses.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from perudo.bots import Bot
from perudo.core import PerudoError, RuleSet, find_ruleset, preset_name
from perudo.i18n import LANGS, load_catalog
from perudo.registry import make_bot

from ..store import SeatRow

__all__ = [
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "STANDIN_LEVEL",
    "Seat",
    "TableConfig",
    "TableError",
    "check_turn_seconds",
    "hash_token",
    "server_texts",
    "store_refused",
]

log = logging.getLogger("perudo.server")

STANDIN_LEVEL = "medium"
"""The level of the bot that plays for an absent person."""

MIN_TURN_SECONDS = 5.0
"""The shortest turn timer a table may have by default (``PERUDO_MIN_TURN_SECONDS``)."""
MAX_TURN_SECONDS = 600.0
"""The longest turn timer a table may have."""


class TableError(Exception):
    """A request the table refuses; nothing changed. ``code`` is the wire error code;
    ``refusal`` the core's error when the rules refused (its code and params say why in any
    language, :func:`perudo.i18n.refusal_text`); ``texts`` the refusal in each language where
    the code alone does not say it (:func:`server_texts` of a more precise key)."""

    def __init__(
        self,
        code: str,
        message: str,
        refusal: PerudoError | None = None,
        *,
        texts: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.refusal = refusal
        self.texts = texts


def server_texts(code: str, **fields: object) -> dict[str, str]:
    """The table's own refusal ``code`` in each language of :mod:`perudo.i18n`
    (``server.<code>``, ``fields`` filled in), or nothing for a code the catalogs do not say."""
    key = "server." + code
    if key not in load_catalog("en").messages:
        return {}
    return {lang: load_catalog(lang).t(key, **fields) for lang in LANGS}


def store_refused(err: Exception, what: str) -> TableError:
    """The refusal a client gets when the store refused to write ``what``: it says that the
    game could not be saved and to try again, and nothing of the database's own error (its
    text names tables, files, hosts); that detail is logged here, for the operator."""
    log.error("the store refused to write %s: %s", what, err)
    return TableError("store_error", server_texts("store_error")["en"])


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_turn_seconds(turn_seconds: float, min_turn_seconds: float = MIN_TURN_SECONDS) -> None:
    """:raises ValueError: unless ``turn_seconds`` is 0 (no timer) or within the bounds."""
    if turn_seconds != 0 and not min_turn_seconds <= turn_seconds <= MAX_TURN_SECONDS:
        raise ValueError(
            f"a turn timer of {turn_seconds:g} seconds: it is 0 (no timer) or from "
            f"{min_turn_seconds:g} to {MAX_TURN_SECONDS:g} seconds"
        )


def check_rated_timer(rated: bool, turn_seconds: float) -> None:
    """:raises ValueError: for a rated table without a turn timer (a person who stops playing
    a rated game times out of it, docs/ratings.md)."""
    if rated and turn_seconds == 0:
        raise ValueError("a rated table has a turn timer: its turn seconds cannot be 0")


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's settings: the rules (a preset and its switches) and the table's own knobs."""

    preset: str
    rules: RuleSet
    seats: int
    memory: bool = False
    """P-40: per-seat dice counts are hidden from everyone but their owner."""
    turn_seconds: float = 60.0
    """0: no turn timer."""
    vacated: Literal["bot", "nobody"] = "bot"
    """Who takes the seat of a person who leaves (or is removed) during a game: a bot plays it
    to the end, or nobody: the person concedes (P-24)."""
    odds: Literal["auto", "on", "off"] = "auto"
    """The odds hint (how likely the standing bid is, from the seat's own knowledge): ``auto``
    shows it while at most one person sits at the table (among people it would take the
    judgement out of a bluffing game), ``on`` always, ``off`` never."""
    rated: bool = False
    """A rated table (docs/ratings.md): it seats only signed-in people and no bots, and a
    leaver concedes (``vacated`` is ``nobody``), so they finish last among those still in."""
    bot_table: bool = False
    """Created by a bot account through the bot API (docs/bot-api.md): at a rated table, only
    such a table seats bot accounts (the people who sit down there accept a bot, as on
    lichess); a person's rated table never seats one."""
    show_hands: bool = False
    """"Show every hand at the end": a table agreement outside the rules (P-21 keeps the hands
    nobody lifted hidden for good; the default). When on, once the game is over every hand of
    every round is public: the replay, the game's record and the analysis show them to
    everyone (docs/analysis.md). Never during play: the seats' views are the core's (P-70).
    Chosen when the table is created and never changed after, so every game of the table was
    played under it."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "seats": self.seats,
            "memory": self.memory,
            "turn_seconds": self.turn_seconds,
            "vacated": self.vacated,
            "odds": self.odds,
            "rated": self.rated,
            "bot_table": self.bot_table,
            "show_hands": self.show_hands,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        return cls(
            preset=str(data["preset"]),
            rules=RuleSet.from_dict(data["rules"]),
            seats=int(data["seats"]),
            memory=bool(data.get("memory", False)),
            turn_seconds=float(data.get("turn_seconds", 60.0)),
            vacated="nobody" if data.get("vacated") == "nobody" else "bot",
            odds=data["odds"] if data.get("odds") in ("on", "off") else "auto",
            rated=bool(data.get("rated", False)),
            bot_table=bool(data.get("bot_table", False)),
            show_hands=bool(data.get("show_hands", False)),
        )

    def with_options(
        self,
        *,
        odds: Literal["auto", "on", "off"] | None = None,
        turn_seconds: float | None = None,
        vacated: Literal["bot", "nobody"] | None = None,
        memory: bool | None = None,
        min_turn_seconds: float = MIN_TURN_SECONDS,
    ) -> TableConfig:
        """This config with the table's own options changed (``None``: kept): the odds hint,
        the turn timer, who takes a leaver's seat, memory mode (P-40). The rules stay: they
        were agreed when the table was created.

        :raises ValueError: for a turn timer out of bounds (naming them).
        """
        timer = self.turn_seconds if turn_seconds is None else turn_seconds
        check_turn_seconds(timer, min_turn_seconds)
        check_rated_timer(self.rated, timer)
        return replace(
            self,
            odds=self.odds if odds is None else odds,
            turn_seconds=timer,
            vacated="nobody" if self.rated else self.vacated if vacated is None else vacated,
            memory=self.memory if memory is None else memory,
        )

    @classmethod
    def build(
        cls,
        *,
        preset: str,
        seats: int,
        calza: str | None = None,
        palifico: str | None = None,
        dice: int | None = None,
        memory: bool = False,
        turn_seconds: float = 60.0,
        vacated: Literal["bot", "nobody"] = "bot",
        odds: Literal["auto", "on", "off"] = "auto",
        min_turn_seconds: float = MIN_TURN_SECONDS,
        rated: bool = False,
        bot_table: bool = False,
        show_hands: bool = False,
    ) -> TableConfig:
        """A preset with the table's switches applied (a ``rated`` table's leavers concede:
        ``vacated`` is ``nobody`` there; ``bot_table``: made by a bot account).

        :raises ValueError: for an unknown preset or switches the rules refuse (naming why).
        """
        base = find_ruleset(preset)
        changes: dict[str, Any] = {}
        if calza is not None:
            changes["calza"] = calza
        if palifico is not None:
            changes["palifico"] = palifico
        if dice is not None:
            changes["dice_per_player"] = dice
        rules = replace(base, **changes) if changes else base
        if not rules.min_players <= seats <= rules.max_players:
            raise ValueError(
                f"{seats} seats: these rules take {rules.min_players} to {rules.max_players} "
                "players (P-1)"
            )
        check_turn_seconds(turn_seconds, min_turn_seconds)
        check_rated_timer(rated, turn_seconds)
        name = preset_name(base) or preset
        if rated:
            vacated = "nobody"
        return cls(
            name, rules, seats, memory, turn_seconds, vacated, odds, rated, bot_table, show_hands
        )


@dataclass(slots=True)
class Seat:
    """Who sits in a seat: a person (holding a token) or a bot."""

    kind: Literal["human", "bot"]
    name: str
    token_hash: str | None = None
    level: str | None = None
    bot: Bot | None = None
    """The bot playing this seat (a bot seat), or the stand-in (an away person)."""
    connections: int = 0
    away: bool = False
    """A person whose seat a stand-in bot plays until they return."""
    drop_timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    host: bool = False
    """The table's host: starts the game, manages bots, removes an absent player."""
    transfer_hash: str | None = field(default=None, repr=False)
    """:func:`hash_token` of the seat's pending transfer token (moving the seat to another
    device), valid until :attr:`transfer_until` (``time.monotonic()``); kept in memory only."""
    transfer_until: float = 0.0
    vacated: bool = False
    """Its person left or was removed during a game: a stand-in bot (the person's name) or
    nobody (they conceded) keeps the seat to the end of that game; no token holds it, it never
    takes the host role, and the rematch empties it."""
    since: int = 0
    """The table version from which this occupant holds the seat (their join, or the start of
    the game, which renumbers seats): a client catching up from an older version gets a fresh
    snapshot, never items meant for an earlier occupant (P-70)."""
    player_id: int | None = None
    """The signed-in player in a person's seat (``None``: a bot or a guest): their game is
    on their profile, and rated at a rated table."""
    bot_account: bool = False
    """``player_id`` is a bot account (docs/bot-api.md): only a socket opened with one of its
    tokens holds the seat, and every page marks it as a bot."""

    def driver(self) -> Bot | None:
        if self.kind == "bot" or self.away:
            if self.bot is None:
                self.bot = make_bot(
                    self.level if self.kind == "bot" and self.level else STANDIN_LEVEL,
                    secrets.randbits(32),
                )
            return self.bot
        return None

    def row(self, index: int) -> SeatRow:
        return SeatRow(
            index, self.kind, self.name, self.token_hash, self.level, self.host, self.player_id
        )

    def info(self, index: int) -> dict[str, Any]:
        return {
            "seat": index,
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "connected": self.kind == "bot" or self.connections > 0,
            "devices": self.connections,
            "away": self.away,
            "host": self.host,
            "bot_account": self.bot_account,
        }
