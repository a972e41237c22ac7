"""The store's ratings (:mod:`perudo.ratings`): each player's rating per variant and pool, the
changes of every rated game, the leaderboard, and :func:`rate`, the update a game's end
writes in its own transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from perudo.ratings import Rating
from perudo.ratings import pool as ratings_pool
from perudo.ratings import update as rate_game

from .base import StoreBase
from .schema import game_players_t, games_t, players_t, rating_changes_t, ratings_t


class RatingStore(StoreBase):
    """Ratings, their history and the leaderboard."""

    async def rating_changes(self, game_id: int) -> list[dict[str, Any]]:
        """A rated game's changes, by seat: ``{seat, player, place, before, after}`` with
        ratings as :class:`perudo.ratings.Rating` (empty: not rated, or not over)."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(rating_changes_t, players_t.c.name)
                    .join(players_t, players_t.c.id == rating_changes_t.c.player_id)
                    .where(rating_changes_t.c.game_id == game_id)
                    .order_by(rating_changes_t.c.seat)
                )
            ).all()
        return [
            {
                "seat": r.seat,
                "player": r.name,
                "place": r.place,
                "before": Rating(r.mu_before, r.sigma_before),
                "after": Rating(r.mu_after, r.sigma_after),
            }
            for r in rows
        ]

    async def ratings_of(self, player_id: int) -> dict[tuple[str, str], tuple[Rating, int]]:
        """A player's ratings: (variant, pool) → (rating, games rated)."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(select(ratings_t).where(ratings_t.c.player_id == player_id))
            ).all()
        return {(r.variant, r.pool): (Rating(r.mu, r.sigma), int(r.games)) for r in rows}

    async def rating_history(
        self, player_id: int
    ) -> dict[tuple[str, str], list[tuple[float, Rating]]]:
        """A player's rating after each rated game: (variant, pool) → [(at, rating)]."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(rating_changes_t)
                    .where(rating_changes_t.c.player_id == player_id)
                    .order_by(rating_changes_t.c.at, rating_changes_t.c.game_id)
                )
            ).all()
        out: dict[tuple[str, str], list[tuple[float, Rating]]] = {}
        for r in rows:
            out.setdefault((r.variant, r.pool), []).append(
                (r.at, Rating(r.mu_after, r.sigma_after))
            )
        return out

    async def leaderboard(
        self,
        variant: str,
        kind: str,
        active_since: float,
        most_sigma: float,
        limit: int,
        bots: bool = False,
    ) -> list[tuple[str, Rating, int]]:
        """The best ``limit`` live players of a variant and pool whose rating is established
        (``sigma`` at most ``most_sigma``) and changed after ``active_since``: (name, rating,
        games rated), best ``mu`` first. People's, or (``bots``) bot accounts' (their own
        leaderboard: docs/bot-api.md)."""
        async with self._reading() as conn:
            rows = (
                await conn.execute(
                    select(players_t.c.name, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
                    .join(players_t, players_t.c.id == ratings_t.c.player_id)
                    .where(
                        ratings_t.c.variant == variant,
                        ratings_t.c.pool == kind,
                        ratings_t.c.sigma <= most_sigma,
                        ratings_t.c.updated_at > active_since,
                        players_t.c.deleted_at.is_(None),
                        players_t.c.bot_at.is_not(None) if bots else players_t.c.bot_at.is_(None),
                    )
                    .order_by(ratings_t.c.mu.desc(), players_t.c.name)
                    .limit(limit)
                )
            ).all()
        return [(r.name, Rating(r.mu, r.sigma), int(r.games)) for r in rows]


async def rate(
    conn: AsyncConnection, game_id: int, places: Sequence[int], variant: str, now: float
) -> None:
    """Apply a rated game's rating update, once: nothing when the game is not rated, has
    fewer than two signed-in players, or has its changes written already (the primary key
    of ``rating_changes`` would refuse them again anyway). On PostgreSQL the players'
    rating rows are locked while they are read and written, so two games of one player
    ending at once on two processes do not lose either update."""
    rated = (await conn.execute(select(games_t.c.rated).where(games_t.c.id == game_id))).scalar()
    if not rated:
        return
    done = await conn.execute(
        select(rating_changes_t.c.game_id).where(rating_changes_t.c.game_id == game_id).limit(1)
    )
    if done.first() is not None:
        return
    seated = (
        await conn.execute(
            select(game_players_t.c.seat, game_players_t.c.player_id)
            .where(game_players_t.c.game_id == game_id)
            .order_by(game_players_t.c.seat)
        )
    ).all()
    if len(seated) < 2:
        return
    kind = ratings_pool(len(places))
    ids = [r.player_id for r in seated]
    found = select(ratings_t).where(
        ratings_t.c.player_id.in_(ids), ratings_t.c.variant == variant, ratings_t.c.pool == kind
    )
    if conn.dialect.name == "postgresql":
        found = found.with_for_update()
    held = {r.player_id: r for r in (await conn.execute(found)).all()}
    before = [Rating(held[p].mu, held[p].sigma) if p in held else Rating() for p in ids]
    seat_places = [places[r.seat] for r in seated]
    after = rate_game(before, seat_places)
    for (seat, player_id), old, new, place in zip(seated, before, after, seat_places, strict=True):
        values = {"mu": new.mu, "sigma": new.sigma, "updated_at": now}
        if player_id in held:
            await conn.execute(
                update(ratings_t)
                .where(
                    ratings_t.c.player_id == player_id,
                    ratings_t.c.variant == variant,
                    ratings_t.c.pool == kind,
                )
                .values(games=ratings_t.c.games + 1, **values)
            )
        else:
            await conn.execute(
                insert(ratings_t).values(
                    player_id=player_id, variant=variant, pool=kind, games=1, **values
                )
            )
        await conn.execute(
            insert(rating_changes_t).values(
                game_id=game_id,
                player_id=player_id,
                seat=seat,
                variant=variant,
                pool=kind,
                place=place,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                at=now,
            )
        )
