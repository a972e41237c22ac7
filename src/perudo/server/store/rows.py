"""What the store's reads give and its writes take (frozen dataclasses), its errors, and the
conversions between those rows and the database's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from perudo.core import GameRecord
from perudo.core.record import RECORD_FORMAT, RECORD_VERSION

from .schema import players_t


class StoreError(RuntimeError):
    """The database refused a write (the caller's change did not happen)."""


class Fenced(StoreError):
    """Multi-process mode: the database refused a write made under a table lease this
    process no longer holds (another process took the table over); nothing was written."""


class TooManyTables(StoreError):
    """A new table refused because the site already holds ``live`` tables waiting or
    playing, ``PERUDO_MAX_OPEN_TABLES`` (nothing was written)."""

    def __init__(self, live: int) -> None:
        super().__init__(f"the site holds {live} open tables, its limit")
        self.live = live


FENCED_MARK = "perudo_fenced"
"""What PostgreSQL's fencing trigger puts in its error (:mod:`perudo.server.cluster.lease`)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    """``human`` or ``bot``."""
    name: str
    token_hash: str | None
    level: str | None
    host: bool = False
    player_id: int | None = None
    """The signed-in player in a person's seat (``None``: a bot or a guest)."""


@dataclass(frozen=True, slots=True)
class ChatRow:
    seat: int | None
    name: str
    text: str
    at: float
    version: int


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    key: str
    """The game's unguessable id (its integer ``id`` never leaves the server)."""
    table_id: str
    rules: dict[str, Any]
    players: int
    names: list[str]
    rolloff: list[list[int]]
    started_at: float
    finished_at: float | None
    winner: int | None
    moves: list[tuple[int | None, str]] = field(default_factory=list)
    """The game's actions in ``seq`` order: (seat or ``None`` for chance, notation)."""
    last_version: int = 0
    private: bool = False
    """Whether the game's table is private (its replay then leaves the table's id out)."""

    def record(self) -> GameRecord:
        """The stored game as the core's record: ``record().replay()`` is its state after
        every stored move (how a table is rebuilt after a restart).

        :raises NotationError: for a stored move the core cannot read."""
        return GameRecord.from_json(
            {
                "format": RECORD_FORMAT,
                "version": RECORD_VERSION,
                "rules": self.rules,
                "players": self.players,
                "rolloff": self.rolloff,
                "moves": [{"seat": seat, "action": action} for seat, action in self.moves],
            }
        )


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    name: str
    config: dict[str, Any]
    status: str
    private: bool
    version: int
    created_at: float
    seats: list[SeatRow]
    game: GameRow | None
    chat: list[ChatRow]
    creator: str | None = None
    """The client this waiting table counts against (``tables.creator``)."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: int
    name: str
    password_hash: str | None
    created_at: float
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class SessionRow:
    public_id: str
    player: PlayerRow
    csrf: str
    created_at: float
    seen_at: float
    expires_at: float
    agent: str


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    """A WebAuthn ceremony's attempt, taken (:meth:`Store.take_challenge`)."""

    purpose: str
    challenge: str
    player_id: int | None
    name: str | None


@dataclass(frozen=True, slots=True)
class PasskeyRow:
    """A player's passkey: its credential id and public key (both base64url, as WebAuthn's
    JSON carries them) and the authenticator's last signature count."""

    credential_id: str
    player: PlayerRow
    public_key: str
    sign_count: int
    created_at: float


def player_columns() -> list[Any]:
    """The player's columns beside a session's (labelled: both tables have ``created_at``)."""
    return [
        players_t.c.name.label("p_name"),
        players_t.c.password_hash.label("p_password_hash"),
        players_t.c.created_at.label("p_created_at"),
        players_t.c.deleted_at.label("p_deleted_at"),
    ]


def passkey_row(r: Any) -> PasskeyRow:
    player = PlayerRow(
        r.player_id, r.p_name, r.p_password_hash, r.p_created_at, r.p_deleted_at is not None
    )
    return PasskeyRow(r.credential_id, player, r.public_key, int(r.sign_count), r.created_at)


def player_row(r: Any) -> PlayerRow:
    return PlayerRow(r.id, r.name, r.password_hash, r.created_at, r.deleted_at is not None)


def session_row(r: Any) -> SessionRow:
    player = PlayerRow(
        r.player_id, r.p_name, r.p_password_hash, r.p_created_at, r.p_deleted_at is not None
    )
    return SessionRow(r.public_id, player, r.csrf, r.created_at, r.seen_at, r.expires_at, r.agent)


def seat_values(s: SeatRow) -> dict[str, Any]:
    return {
        "seat": s.seat,
        "kind": s.kind,
        "name": s.name,
        "token_hash": s.token_hash,
        "level": s.level,
        "host": s.host,
        "player_id": s.player_id,
    }


def seat_row(r: Any) -> SeatRow:
    return SeatRow(r.seat, r.kind, r.name, r.token_hash, r.level, bool(r.host), r.player_id)
