"""The rating update (perudo.ratings, docs/ratings.md): deterministic, a winner's rating
never falls, provisional flags. The store's use of it: tests/server/test_rated_games.py."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo.ratings import PROVISIONAL_SIGMA, SIGMA, Rating, display, model, pool, update

ratings_st = st.builds(
    Rating,
    mu=st.floats(min_value=-20, max_value=70, allow_nan=False),
    sigma=st.floats(min_value=0.3, max_value=SIGMA, allow_nan=False),
)


@st.composite
def games(draw: st.DrawFn) -> tuple[list[Rating], list[int]]:
    """Two to eight seats' ratings and their places: a single winner, the others knocked out
    one by one or several in one round (sharing a place)."""
    n = draw(st.integers(2, 8))
    ratings = draw(st.lists(ratings_st, min_size=n, max_size=n))
    order = draw(st.permutations(range(n)))
    places = [0] * n
    places[order[0]] = 1
    place = 2
    i = 1
    while i < n:
        together = draw(st.integers(1, n - i))
        for seat in order[i : i + together]:
            places[seat] = place
        place += together
        i += together
    return ratings, places


@given(games())
def test_the_update_is_deterministic_for_the_same_game(
    game: tuple[list[Rating], list[int]],
) -> None:
    ratings, places = game
    assert update(ratings, places) == update(list(ratings), list(places))


@given(games())
def test_a_winners_rating_never_falls(game: tuple[list[Rating], list[int]]) -> None:
    ratings, places = game
    after = update(ratings, places)
    winner = places.index(1)
    assert after[winner].mu >= ratings[winner].mu
    assert display(after[winner]) >= display(ratings[winner])


@given(games())
def test_the_last_places_rating_never_rises_and_uncertainty_only_shrinks(
    game: tuple[list[Rating], list[int]],
) -> None:
    ratings, places = game
    after = update(ratings, places)
    last = max(places)
    tau = model().tau
    for before, new, place in zip(ratings, after, places, strict=True):
        if place == last and places.count(last) == 1:
            assert new.mu <= before.mu
        # OpenSkill adds its dynamics (tau) before the game, never more.
        assert new.sigma <= math.sqrt(before.sigma**2 + tau**2) + 1e-9
        assert new.provisional == (new.sigma > PROVISIONAL_SIGMA)


def test_a_new_player_is_provisional_until_enough_games() -> None:
    a = b = Rating()
    assert display(a) == 1500 and a.provisional
    for n in range(1, 40):
        a, b = update([a, b], [1, 2] if n % 2 else [2, 1])
        if not a.provisional:
            break
    assert not a.provisional and 8 <= n <= 20, n


def test_pools_and_bad_games() -> None:
    assert (pool(2), pool(3), pool(6)) == ("duel", "table", "table")
    for ratings, places in (([Rating()], [1]), ([Rating()] * 2, [1]), ([Rating()] * 2, [0, 1])):
        with pytest.raises(ValueError, match="places from 1"):
            update(ratings, places)
