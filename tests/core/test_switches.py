"""The switches come from RuleSet's fields; each fast second implementation lists what it plays.

``perudo.core.SWITCHES`` is derived from :class:`RuleSet` (every ``Literal`` and ``bool``
field), so the property tests fuzz a new switch by themselves (tests/strategies.py). The fast
paths — the benchmarks' playouts (``perudo.sim.playout``), the numpy batch simulator
(``perudo.sim.batch``) and the solver (``perudo.solve.game``) — each keep an explicit list of
the fields and values they play (``SUPPORTS``); :func:`perudo.core.unsupported` refuses any
field a list does not name, so a field added to the rule set later is refused by every fast
path until someone teaches it and lists it.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from collections.abc import Callable

import pytest
from tests.strategies import pairwise_rulesets

from perudo.core import PERUDO, PRESETS, SWITCHES, RuleSet, unsupported
from perudo.sim import batch, playout
from perudo.solve import game as solver_game

NUMERIC = {"wild_face", "dice_per_player", "faces", "min_players", "max_players"}
"""The fields that are not switches with a fixed set of values (V-2's face, V-12's table)."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class _Tomorrow(RuleSet):
    """The rule set with a switch added after the fast paths were written."""

    wild_sevens: bool = False


def _fields() -> list[str]:
    return [f.name for f in dataclasses.fields(RuleSet) if f.compare]


def test_switches_are_every_literal_and_bool_field_of_the_ruleset() -> None:
    hints = typing.get_type_hints(RuleSet)
    for name in _fields():
        kind = hints[name]
        if typing.get_origin(kind) is typing.Literal:
            assert SWITCHES[name] == typing.get_args(kind)
        elif kind is bool:
            assert SWITCHES[name] == (False, True)
        else:
            assert name in NUMERIC or name == "calza_min_players", (
                f"RuleSet.{name} is neither a switch nor a known table setting: give it a "
                "Literal or bool type, or say here how the tests draw it"
            )
    assert SWITCHES["calza"] == ("off", "on", "to_act")  # V-7, default first


def test_switches_validate_the_ruleset() -> None:
    for name, values in SWITCHES.items():
        for value in values:
            dataclasses.replace(PERUDO, **{name: value})
        with pytest.raises(ValueError, match=name):
            dataclasses.replace(PERUDO, **{name: "nonsense"})


def test_the_pairwise_rulesets_cover_every_pair_of_switch_values() -> None:
    rows = pairwise_rulesets(dice_per_player=2)
    names = list(SWITCHES)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for va in SWITCHES[a]:
                for vb in SWITCHES[b]:
                    assert any(getattr(r, a) == va and getattr(r, b) == vb for r in rows), (
                        a,
                        va,
                        b,
                        vb,
                    )


def test_unsupported_names_the_fields_and_values_outside_the_list() -> None:
    supports = {name: ... for name in _fields()} | {"calza": ("off",), "passing": (False,)}
    assert unsupported(PERUDO, supports) == []
    rules = dataclasses.replace(PERUDO, calza="on", passing=True)
    assert unsupported(rules, supports) == ["calza=on", "passing=True"]


def test_unsupported_refuses_a_field_the_list_does_not_name_unless_default() -> None:
    supports = {name: ... for name in _fields()}
    assert unsupported(_Tomorrow(), supports) == []
    assert unsupported(_Tomorrow(wild_sevens=True), supports) == ["wild_sevens=True"]


FAST_PATHS: dict[str, tuple[typing.Mapping[str, object], Callable[[RuleSet], bool]]] = {
    "sim.playout": (playout.SUPPORTS, playout.supports),
    "sim.batch": (batch.SUPPORTS, lambda r: _accepts(batch.check_supported, r)),
    "solve.game": (solver_game.SUPPORTS, lambda r: _accepts(solver_game._check_supported, r)),
}


def _accepts(check: Callable[[RuleSet], None], rules: RuleSet) -> bool:
    try:
        check(rules)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("path", sorted(FAST_PATHS))
def test_each_fast_path_lists_every_field_of_the_ruleset(path: str) -> None:
    """An explicit list: every field is named with the values played, none is left to a
    default (a field added later must be decided on, here and in the fast path)."""
    listed, _ = FAST_PATHS[path]
    assert set(listed) == set(_fields()), set(_fields()) ^ set(listed)


@pytest.mark.parametrize("path", sorted(FAST_PATHS))
def test_each_fast_path_refuses_a_switch_added_later(path: str) -> None:
    _, accepts = FAST_PATHS[path]
    base = _Tomorrow(**{**PRESETS["perudo"].to_dict(), "max_players": 2})
    assert accepts(base)
    assert not accepts(dataclasses.replace(base, wild_sevens=True))


@pytest.mark.parametrize(
    ("path", "change"),
    [
        ("sim.playout", {"set_aside": True}),
        ("sim.playout", {"passing": True}),
        ("sim.batch", {"set_aside": True}),
        ("sim.batch", {"passing": True}),
        ("sim.batch", {"calza": "on"}),
        ("solve.game", {"set_aside": True}),
        ("solve.game", {"passing": True}),
    ],
)
def test_each_fast_path_refuses_what_it_does_not_play(path: str, change: dict[str, object]) -> None:
    _, accepts = FAST_PATHS[path]
    rules = dataclasses.replace(PRESETS["perudo"], max_players=2, **change)  # type: ignore[arg-type]
    assert not accepts(rules)


def test_the_playouts_fall_back_to_the_engine_outside_their_list() -> None:
    rules = _Tomorrow(wild_sevens=True, dice_per_player=2)
    fast = playout.random_playout(rules, 3, random.Random(4), keep=True)
    slow = playout.engine_playout(rules, 3, random.Random(4), keep=True)
    assert fast == slow
